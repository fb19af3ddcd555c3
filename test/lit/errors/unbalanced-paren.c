// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(A[4]
void f(float *A);
// CHECK: unbalanced-paren.c:3:23: error: unbalanced brackets: '(' of 'inout' is never closed
