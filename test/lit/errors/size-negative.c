// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#define BS 16
#pragma css task inout(a[-BS])
void f(double *a);
// CHECK: size-negative.c:4:26: error: '-BS' in 'a[-BS]' is negative (-16): it counts the elements of the item
