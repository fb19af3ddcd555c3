// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a[1L << 62])
void f(double *a);
// CHECK: size-overflow.c:3:26: error: 'a[1L<<62]' is too large: with '1L << 62' it spans more than 2^63 bytes (elements of 8 bytes); a size this large wraps around when computed, and the task would get a region of another size
