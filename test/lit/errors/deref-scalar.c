// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(*p) input(*n)
void f(double *p, int n);
// CHECK: deref-scalar.c:3:34: error: '*n': 'n' is not a pointer (type 'int'); '*p' names the object a pointer p points to
