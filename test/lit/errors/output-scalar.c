// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a[n], n)
void f(int *a, int n);
#pragma css task output(x)
void g(double x);
// CHECK: output-scalar.c:3:30: error: 'n' is passed by value and cannot be named in 'inout'; pass a pointer to it instead
// CHECK: output-scalar.c:5:25: error: 'x' is passed by value and cannot be named in 'output'; pass a pointer to it instead
