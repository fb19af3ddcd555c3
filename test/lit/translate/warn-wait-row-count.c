// `wait on(outs[3])` over an array of arrays: GPUSs reads 'x[n]' as n
// elements, the first 3 rows, where SMPSs's `wait on` took the address of
// row 3; the program then reads a row whose task has not run. A warning that
// suggests 'outs[3;1]' (and 'outs[0;3]' for the count). Rows of a pointer to
// arrays are warned about too; a one-dimensional array's count, the forms
// with ';', and a tile-pointer array's element (the tile) are not.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --implicit-check-not=warning: %s
#define N 8
long outs[4][N];
long flat[32];
double *tiles[4];

void waits(double (*m)[N], int n) {
#pragma css wait on(outs[3])
  // CHECK: warn-wait-row-count.c:[[@LINE-1]]:25: warning: 'outs[3]' is the first 3 rows of 'outs' ('x[n]' counts elements in GPUSs, and an element of 'outs' is a row), not row 3 as the address 'wait on' took in SMPSs; to wait for row 3 write 'outs[3;1]', and for the first 3 rows 'outs[0;3]'
#pragma css wait on(m[n])
  // CHECK: warn-wait-row-count.c:[[@LINE-1]]:22: warning: 'm[n]' is the first n rows of 'm'
#pragma css wait on(outs[3;1], outs[0;3], flat[8], tiles[2])
}
