// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout([n]a) input(n) device(cuda)
void work(int n, double *a);
// CHECK: clause-needs-target.c:3:39: error: 'device' belongs to a target: write 'target device(...)' before it
