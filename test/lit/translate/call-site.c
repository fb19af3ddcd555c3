// A pragma on a call statement: only that call becomes a task; names are
// the variables in scope at the call.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
void scale(float *v, int n, float f);

void run(void) {
  float data[64];
  int n = 64;
#pragma css task inout(data) input(n)
  scale(data, n, 2.0f);
  scale(data, n, 3.0f);
}

// CHECK: struct __css_args_scale_l12 {
// CHECK-NEXT:   float *v;
// CHECK-NEXT:   int n;
// CHECK-NEXT:   float f;
// CHECK: static void __css_body_scale_l12(void *__css_argp, const css_task_env *__css_env) {
// CHECK:   scale((float *)css_translate(__css_env, 0, __css_a->v),
// CHECK-NEXT: __css_a->n,
// CHECK-NEXT: __css_a->f);
// CHECK-NOT: __css_submit_scale
// CHECK: /* #pragma css task inout(data) input(n) */
// CHECK-NEXT: do { /* gpuss: task scale: #pragma css task inout(data) input(n) */
// CHECK:   __css_args.v = (data);
// CHECK:   __css_args.f = (2.0f);
// CHECK:   __css_acc[0].region = css_contiguous(data, sizeof data);
// CHECK:   __css_acc[0].direction = CSS_INOUT;
// CHECK:   __css_desc.num_accesses = 1;
// CHECK:   __css_desc.line = 12;
// CHECK: } while (0)
// CHECK-NEXT: #line 12 "{{.*}}call-site.c"
// CHECK-NEXT: ;
// CHECK-NEXT:   scale(data, n, 3.0f);
