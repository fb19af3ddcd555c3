// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task input(a[8:2])
void f(const double *a);
// CHECK: size-reversed.c:3:26: error: '8:2' in 'a[8:2]' ends before it starts (8 > 2): in 'lo:hi' both bounds are included, so hi must not be less than lo
