// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a[4])
int f(int *a);
// CHECK: returns-value.c:4:5: error: task function 'f' returns a value (of type 'int'); task functions must return void
