// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --strict-whitespace %s
// RUN: test ! -e %t.c
#pragma css task input(a[4]) reduction(b[4])
void f(int *a, int *b);
// CHECK: unknown-clause.c:3:30: error: unknown clause 'reduction' in a task directive (expected input, output, inout or highpriority)
// CHECK-NEXT: {{.*}}| #pragma css task input(a[4]) reduction(b[4])
// CHECK-NEXT: {{^ *\| {30}\^}}
