// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout([n]a) input(n) label()
void work(int n, double *a);
// CHECK: label-empty.c:3:45: error: empty list in 'label': give the task's name
