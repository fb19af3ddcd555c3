// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task input([4]n) inout([n]a)
void work(int n, double *a);
// CHECK: shape-on-scalar.c:3:24: error: a shape on 'n', which is a scalar passed by value (type 'int'); name it alone, in input(n)
