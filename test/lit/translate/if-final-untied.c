// if(e), final(e), untied, tied and mergeable on tasks (OmpSs, OpenMP):
// final and if become a flag and a wait at the call, evaluated there; the
// permissions (untied, tied, mergeable) need nothing of a GPUSs task.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c

#pragma omp task inout([n]a) in(n, depth) if(n > 100) final(depth > 4) untied mergeable
void work(int n, int depth, double *a);
// CHECK: __css_desc.flags = 0 | ((depth > 4) ? CSS_TASK_FINAL : 0);
// CHECK: css_submit(&__css_desc);
// CHECK-NEXT: #line
// CHECK-NEXT: if (!(n > 100)) {
// CHECK-NEXT: css_region __css_undeferred[1];
// CHECK-NEXT: __css_undeferred[0] = __css_acc[0].region;
// CHECK-NEXT: css_wait_on(__css_undeferred, 1);
// CHECK-NEXT: }

#pragma css task tied inout(a[0;1])
void plain(double *a);
// CHECK: __css_desc.flags = 0;

void run(double *a) {
  work(1000, 0, a);
  plain(a);
}
