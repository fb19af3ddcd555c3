// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#define LEN "4"
#pragma css task inout(a[LEN])
void f(double *a);
// CHECK: size-string.c:4:26: error: 'LEN' in 'a[LEN]' is a string, not a number of elements
