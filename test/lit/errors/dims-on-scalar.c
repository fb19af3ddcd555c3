// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task input(n[4]) inout(a[n])
void f(int n, int *a);
// CHECK: dims-on-scalar.c:3:25: error: dimensions on 'n', which is a scalar passed by value (type 'int')
