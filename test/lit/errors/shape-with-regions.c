// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout([n][n]a{0:2}) input(n)
void rows(int n, double *a);
// CHECK: shape-with-regions.c:3:31: error: a shape '[...]a' and regions '{...}' in one item ('[n][n]a{0:2}'): after a shape, give the part with sections, e.g. '[n][m]a[i;1][0;m]'
