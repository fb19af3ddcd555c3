// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task input() inout(a[4])
void f(int *a);
// CHECK: empty-list.c:3:24: error: empty list in 'input'
