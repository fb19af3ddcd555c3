// A pragma on a definition; TS is a parameter with its own input clause.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -Wextra -I %gpuss-include %t.c

#pragma css task input(n, x[n]) inout(y[n]) highpriority
void axpy(int n, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

void run(double *x, double *y) { axpy(16, x, y); }

// CHECK: /* #pragma css task input(n, x[n]) inout(y[n]) highpriority */
// CHECK: struct __css_args_axpy {
// CHECK-NEXT:   int n;
// CHECK-NEXT:   const double *x;
// CHECK-NEXT:   double *y;
// CHECK-NEXT: };
// CHECK: axpy(__css_a->n,
// CHECK-NEXT: (const double *)css_translate(__css_env, 0, __css_a->x),
// CHECK-NEXT: (double *)css_translate(__css_env, 1, __css_a->y));
// CHECK: static void __css_submit_axpy(int n, const double *x, double *y, const char *__css_file, int __css_line) {
// CHECK:   __css_args.n = n;
// CHECK:   __css_acc[0].region = css_contiguous(x, css_mul((size_t)(n), sizeof(*x)));
// CHECK:   __css_acc[0].direction = CSS_IN;
// CHECK:   __css_acc[1].region = css_contiguous(y, css_mul((size_t)(n), sizeof(*y)));
// CHECK:   __css_acc[1].direction = CSS_INOUT;
// CHECK:   __css_desc.flags = CSS_TASK_HIGH_PRIORITY;
// CHECK:   __css_desc.num_accesses = 2;
// CHECK: void run(double *x, double *y) { __css_submit_axpy(16, x, y, "{{.*}}task-definition.c", 12); }
