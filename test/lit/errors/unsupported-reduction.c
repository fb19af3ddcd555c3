// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --strict-whitespace %s
// RUN: test ! -e %t.c
#pragma css task input(n, [n]v) inout(s) reduction(+: s)
void sum(int n, const double *v, double *s);
// CHECK: unsupported-reduction.c:3:42: error: clause 'reduction' is not supported by GPUSs: GPUSs has no task reductions; name the reduced variable in inout(...) (the tasks that update it then run one after another), or let each task write a partial result of its own and combine them after a barrier
// CHECK-NEXT: {{.*}}| #pragma css task input(n, [n]v) inout(s) reduction(+: s)
// CHECK-NEXT: {{^ *\| {42}\^}}
