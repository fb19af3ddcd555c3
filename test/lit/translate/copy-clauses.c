// Copy clauses: explicit movement; an item named only in a copy clause
// becomes an access. device(smp) keeps the task on the host.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c

#pragma css task input(a[16]) output(b[16])
#pragma css target device(smp) copy_out(b[16]) copy_inout(scratch[4])
void step(const float *a, float *b, float *scratch);

#pragma css target device(cuda)
#pragma css task inout(c[16])
void plain(float *c);

void run(float *a, float *b, float *s) {
  step(a, b, s);
  plain(b);
}

// CHECK-LABEL: static void __css_submit_step(
// CHECK: /* a[16]: CSS_IN */
// CHECK: __css_acc[0].copy = CSS_COPY_EXPLICIT;
// CHECK: /* b[16]: CSS_OUT */
// CHECK: __css_acc[1].copy = CSS_COPY_EXPLICIT | CSS_COPY_OUT;
// CHECK: /* scratch[4]: CSS_INOUT */
// CHECK: __css_acc[2].copy = CSS_COPY_EXPLICIT | CSS_COPY_IN | CSS_COPY_OUT;
// CHECK: __css_desc.device_kind = CSS_DEVICE_SMP;
// CHECK-LABEL: static void __css_submit_plain(
// CHECK: __css_acc[0].copy = CSS_COPY_DEFAULT;
// CHECK: __css_desc.device_kind = CSS_DEVICE_CUDA;
