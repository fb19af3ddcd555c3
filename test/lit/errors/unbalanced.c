// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(A[TS][TS)
void f(float *A);
// CHECK: unbalanced.c:3:32: error: unbalanced brackets: unexpected ')'
