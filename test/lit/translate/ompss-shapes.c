// OmpSs shaping expressions: [e1][e2]p names p as an array of those
// dimensions (of what p points to); sections may follow, over the shaped
// array, where [i] is one element.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
#define NB 4

#pragma css task input(ts, [ts][ts]A, [ts]x) output([ts]y)
void gemv(int ts, const double *A, const double *x, double *y);

#pragma css task inout([NB*NB]A)
void scale(float *A);

#pragma css task input(n, i, [n][n]A[i;1][0;n]) inout([n][n]A[i+1][1:n-1])
void rows(int n, int i, double *A);

#pragma css task input(n, [n]a)
void cols(int n, double (*a)[8]);

void run(double *A, double *x, double *y, float *F, double (*M)[8]) {
  gemv(8, A, x, y);
  scale(F);
  rows(8, 2, A);
  cols(3, M);
#pragma css wait on([8]y)
}

// CHECK-LABEL: static void __css_submit_gemv(
// CHECK: /* [ts][ts]A: CSS_IN */
// CHECK-NEXT: __css_acc[0].region = css_contiguous(A, css_mul(css_mul((size_t)(ts), (size_t)(ts)), sizeof(*A)));
// CHECK: /* [ts]x: CSS_IN */
// CHECK-NEXT: __css_acc[1].region = css_contiguous(x, css_mul((size_t)(ts), sizeof(*x)));
// CHECK: /* [ts]y: CSS_OUT */
// CHECK-NEXT: __css_acc[2].region = css_contiguous(y, css_mul((size_t)(ts), sizeof(*y)));
// CHECK-LABEL: static void __css_submit_scale(
// CHECK: __css_acc[0].region = css_contiguous(A, css_mul((size_t)(NB*NB), sizeof(*A)));
// CHECK-LABEL: static void __css_submit_rows(
// CHECK: /* [n][n]A[i;1][0;n]: CSS_IN */
// CHECK-NEXT: __css_acc[0].region = css_contiguous((A) + ((size_t)(n) * (size_t)(i)), css_mul((size_t)(n), sizeof(*A)));
// CHECK: __css_acc[0].group = 1;
// CHECK: /* [n][n]A[i+1][1:n-1]: CSS_INOUT */
// CHECK-NEXT: __css_acc[1].region = css_contiguous((A) + ((size_t)(n) * (size_t)(i+1) + (size_t)(1)), css_mul((size_t)((n-1) - (1) + 1), sizeof(*A)));
// CHECK: __css_acc[1].group = 1;
// CHECK-LABEL: static void __css_submit_cols(
// CHECK: __css_acc[0].region = css_contiguous(a, css_mul(css_mul((size_t)(n), (size_t)(8)), sizeof((a)[0][0])));
// CHECK: __css_wait[0] = css_contiguous(y, (size_t)(8) * sizeof(*y));
