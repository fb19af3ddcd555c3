// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#define HALF 2.5
#pragma css task inout(a[HALF])
void f(double *a);
// CHECK: size-fractional.c:4:26: error: 'HALF' in 'a[HALF]' is not a whole number (2.5): sizes and bounds count elements
