// typedef'd array types: a pointer to a block names one whole block, an
// array parameter its whole array type; a plain pointer named bare is one
// element.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
#define BS 4
typedef double block[1024];

#pragma css task input(A, B) inout(R)
void mul(block *A, block *B, block R);

#pragma css task inout(diag)
void lu0(float diag[BS][BS]);

#pragma css task input(v) output(mse)
void error(const block v, float *mse);

void run(block *x, double *r, float (*d)[BS], float *m) {
  mul(x, x + 1, r);
  lu0(d);
  error(r, m);
}

// CHECK-LABEL: struct __css_args_mul {
// CHECK-NEXT:   block *A;
// CHECK-NEXT:   block *B;
// CHECK-NEXT:   double *R;
// CHECK: __css_acc[0].region = css_contiguous(A, sizeof(*A));
// CHECK: __css_acc[1].region = css_contiguous(B, sizeof(*B));
// CHECK: __css_acc[2].region = css_contiguous(R, (size_t)1024 * sizeof(*R));
// CHECK-LABEL: struct __css_args_lu0 {
// CHECK: __css_acc[0].region = css_contiguous(diag, (size_t)4 * sizeof(*diag));
// CHECK-LABEL: struct __css_args_error {
// CHECK: __css_acc[0].region = css_contiguous(v, (size_t)1024 * sizeof(*v));
// CHECK: __css_acc[1].region = css_contiguous(mse, sizeof(*mse));
