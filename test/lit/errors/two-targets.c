// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css target device(cuda)
#pragma css task target device(smp) inout([n]a) input(n)
void work(int n, double *a);
// CHECK: two-targets.c:3:13: error: a second target for one task: the task directive has 'target device(...)' in it already; keep one of the two
// CHECK: two-targets.c:4:18: note: the target in the task directive
