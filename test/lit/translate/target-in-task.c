// 'target' written inside the task directive, with its device and copy
// clauses, before or after the data clauses.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c

#pragma css task target device(smp) input(n) inout(m[n])
void host(int n, int *m);

#pragma css task input(a[16]) target device(cuda) copy_in(a[16]) copy_out(b[16]) output(b[16])
void gpu(const float *a, float *b);

void run(int *m, float *a, float *b) {
  host(4, m);
  gpu(a, b);
}

// CHECK: /* #pragma css task target device(smp) input(n) inout(m[n]) */
// CHECK-LABEL: static void __css_submit_host(
// CHECK: __css_acc[0].copy = CSS_COPY_DEFAULT;
// CHECK: __css_desc.device_kind = CSS_DEVICE_SMP;
// CHECK-LABEL: static void __css_submit_gpu(
// CHECK: /* a[16]: CSS_IN */
// CHECK: __css_acc[0].copy = CSS_COPY_EXPLICIT | CSS_COPY_IN;
// CHECK: /* b[16]: CSS_OUT */
// CHECK: __css_acc[1].copy = CSS_COPY_EXPLICIT | CSS_COPY_OUT;
// CHECK: __css_desc.device_kind = CSS_DEVICE_CUDA;
