// OmpSs priority(e): the task is high priority when e > 0, e evaluated at
// the call; label(name): the task's name in traces and errors.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
#define URGENT 2

#pragma css task in(n, [n]x) inout([n]y) priority(k - n) label(axpy_step)
void axpy(int n, int k, const double *x, double *y);

#pragma css task inout([4]v) priority(URGENT) label("diagonal block")
void diag(double *v);

void run(double *x, double *y) {
  axpy(8, 9, x, y);
  diag(y);
}

// CHECK-LABEL: static void __css_submit_axpy(
// CHECK: __css_desc.flags = ((k - n) > 0 ? CSS_TASK_HIGH_PRIORITY : 0);
// CHECK: __css_desc.label = "axpy_step";
// CHECK-LABEL: static void __css_submit_diag(
// CHECK: __css_desc.flags = ((URGENT) > 0 ? CSS_TASK_HIGH_PRIORITY : 0);
// CHECK: __css_desc.label = "diagonal block";
