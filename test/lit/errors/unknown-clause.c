// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --strict-whitespace %s
// RUN: test ! -e %t.c
#pragma css task input(a[4]) inputs(b[4])
void f(int *a, int *b);
// CHECK: unknown-clause.c:3:30: error: unknown clause 'inputs' in a task directive (expected input, output, inout, highpriority, priority, final, if, label or target)
// CHECK-NEXT: {{.*}}| #pragma css task input(a[4]) inputs(b[4])
// CHECK-NEXT: {{^ *\| {30}\^}}
