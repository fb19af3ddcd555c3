// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
enum { FIRST = 0 };
#pragma css task inout(x[FIRST])
void f(double *x);
// CHECK: size-zero.c:4:26: error: 'FIRST' in 'x[FIRST]' is 0, so the item names no element: in GPUSs 'x[n]' is the n elements from x (to name element i, write 'x[i;1]')
