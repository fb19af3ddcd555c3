// SMPSs 2.x regions, one {...} per dimension: {lo:len} is len elements from
// lo, {lo..hi} lo to hi (both included), {} the whole dimension, {i} one
// element. Dimensions come from the parameter's type or from StarSs
// dimensions before the regions; a part of two dimensions is a strided
// block. The regions of one parameter share a group.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
#define N 16

#pragma css task input(n, start, length, left, right) inout(result{start:length})
void merge(long n, int left[n], int right[n], int result[n * 2], long start, long length);

#pragma css task inout(r{lo..hi}) input(lo, hi)
void fill(int *r, int lo, int hi);

#pragma css task input(A{0}{1:8}, A{1:8}{0}) inout(A{1:8}{1:8})
void stencil(double A[10][10]);

#pragma css task inout(m{}{2:3}, v{i}) input(i)
void column(float m[N][N], float *v, int i);

#pragma css task inout(p[4][N]{1..2}{})
void two_rows(float *p);

void run(long n, int *l, int *r, int *res, double (*A)[10], float (*m)[N], float *v) {
  merge(n, l, r, res, 0, n);
  fill(res, 2, 5);
  stencil(A);
  column(m, v, 3);
  two_rows(v);
#pragma css wait on(res{0:n})
}

// CHECK-LABEL: static void __css_submit_merge(
// CHECK: /* result{start:length}: CSS_INOUT */
// CHECK-NEXT: __css_acc[2].region = css_contiguous((result) + ((size_t)(start)), css_mul((size_t)(length), sizeof(*result)));
// CHECK-LABEL: static void __css_submit_fill(
// CHECK: __css_acc[0].region = css_contiguous((r) + ((size_t)(lo)), css_mul((size_t)((hi) - (lo) + 1), sizeof(*r)));
// CHECK-LABEL: static void __css_submit_stencil(
// CHECK: /* A{0}{1:8}: CSS_IN */
// CHECK-NEXT: __css_acc[0].region = css_contiguous(&(A)[0][0] + ((size_t)(1)), (size_t)(8) * sizeof((A)[0][0]));
// CHECK: __css_acc[0].group = 1;
// CHECK: /* A{1:8}{0}: CSS_IN */
// CHECK-NEXT: __css_acc[1].region.base = (void *)(&(A)[0][0] + ((size_t)(10) * (size_t)(1)));
// CHECK-NEXT: __css_acc[1].region.row_bytes = sizeof((A)[0][0]);
// CHECK-NEXT: __css_acc[1].region.rows = (size_t)(8);
// CHECK-NEXT: __css_acc[1].region.stride = (size_t)(10) * sizeof((A)[0][0]);
// CHECK: __css_acc[1].group = 1;
// CHECK: /* A{1:8}{1:8}: CSS_INOUT */
// CHECK-NEXT: __css_acc[2].region.base = (void *)(&(A)[0][0] + ((size_t)(10) * (size_t)(1) + (size_t)(1)));
// CHECK-NEXT: __css_acc[2].region.row_bytes = (size_t)(8) * sizeof((A)[0][0]);
// CHECK: __css_acc[2].group = 1;
// CHECK-LABEL: static void __css_submit_column(
// CHECK: /* m{}{2:3}: CSS_INOUT */
// CHECK-NEXT: __css_acc[0].region.base = (void *)(&(m)[0][0] + ((size_t)(2)));
// CHECK-NEXT: __css_acc[0].region.row_bytes = (size_t)(3) * sizeof((m)[0][0]);
// CHECK-NEXT: __css_acc[0].region.rows = (size_t)(16);
// CHECK: /* v{i}: CSS_INOUT */
// CHECK-NEXT: __css_acc[1].region = css_contiguous((v) + ((size_t)(i)), sizeof(*v));
// CHECK-LABEL: static void __css_submit_two_rows(
// CHECK: __css_acc[0].region = css_contiguous((p) + ((size_t)(N) * (size_t)(1)), css_mul(css_mul((size_t)((2) - (1) + 1), (size_t)(N)), sizeof(*p)));
// CHECK: __css_wait[0] = css_contiguous(res, css_mul((size_t)(n), sizeof(*res)));
