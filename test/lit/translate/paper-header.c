// The paper's annotations in a header; the wrappers are defined elsewhere.
// RUN: %gpuss-translate %s -o %t.c -- -I %inputs
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include -I %inputs %t.c
#include "chol_tasks.h"
#define NB 3

void cholesky(float *A[NB][NB]) {
  for (int k = 0; k < NB; k++) {
    chol_spotrf(A[k][k]);
    for (int i = k + 1; i < NB; i++)
      chol_strsm(A[k][k], A[k][i]);
    for (int i = k + 1; i < NB; i++) {
      for (int j = k + 1; j < i; j++)
        chol_sgemm(A[k][i], A[k][j], A[j][i]);
      chol_ssyrk(A[k][i], A[i][i]);
    }
  }
}

// CHECK: #include "gpuss.h"
// CHECK-NEXT: #line 1 "{{.*}}paper-header.c"
// CHECK: #line 6 "{{.*}}chol_tasks.h"
// CHECK: struct __css_args_chol_spotrf {
// CHECK-NEXT:   float *A;
// CHECK: static void __css_body_chol_spotrf(void *__css_argp, const css_task_env *__css_env) {
// CHECK:   chol_spotrf((float *)css_translate(__css_env, 0, __css_a->A));
// CHECK: __css_acc[0].region = css_contiguous(A, css_mul(css_mul((size_t)(TS), (size_t)(TS)), sizeof(*A)));
// CHECK-NEXT: __css_acc[0].direction = CSS_INOUT;
// CHECK-NEXT: __css_acc[0].copy = CSS_COPY_DEFAULT;
// CHECK: __css_desc.device_kind = CSS_DEVICE_SMP;
// CHECK: __css_desc.label = "chol_spotrf";
// CHECK: #line 8 "{{.*}}paper-header.c"

// CHECK: static void __css_submit_chol_strsm(float *T, float *B, const char *__css_file, int __css_line) {
// CHECK: __css_acc[0].direction = CSS_IN;
// CHECK-NEXT: __css_acc[0].copy = CSS_COPY_EXPLICIT | CSS_COPY_IN;
// CHECK: __css_acc[1].direction = CSS_INOUT;
// CHECK-NEXT: __css_acc[1].copy = CSS_COPY_EXPLICIT | CSS_COPY_IN | CSS_COPY_OUT;
// CHECK: __css_desc.device_kind = CSS_DEVICE_CUDA;

// CHECK: static void __css_submit_chol_sgemm(float *A, float *B, float *C,
// CHECK: __css_acc[0].copy = CSS_COPY_EXPLICIT | CSS_COPY_IN;
// CHECK: __css_acc[1].copy = CSS_COPY_EXPLICIT | CSS_COPY_IN;
// CHECK: __css_acc[2].direction = CSS_INOUT;
// CHECK-NEXT: __css_acc[2].copy = CSS_COPY_EXPLICIT | CSS_COPY_IN | CSS_COPY_OUT;

// CHECK: void cholesky(float *A[NB][NB]) {
// CHECK: __css_submit_chol_spotrf(A[k][k], "{{.*}}paper-header.c", 10);
// CHECK: __css_submit_chol_strsm(A[k][k], A[k][i], "{{.*}}paper-header.c", 12);
// CHECK: __css_submit_chol_sgemm(A[k][i], A[k][j], A[j][i], "{{.*}}paper-header.c", 15);
// CHECK: __css_submit_chol_ssyrk(A[k][i], A[i][i], "{{.*}}paper-header.c", 16);
