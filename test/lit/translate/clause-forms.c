// Pragma spellings seen in StarSs and SMPSs programs: a clause repeated,
// highpriority first or last, spaces before '(' and ')', comments on the
// pragma line and backslash continuations.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -Wcomment -Werror -I %gpuss-include %t.c

#pragma css task input(NB) input(A[NB][NB])
void lu(int NB, float *A);

#pragma css task highpriority inout (a [4] ) input( b )
void first(int *a, int *b);

#pragma css task input (a) /* the source */ inout ( b ) \
    highpriority // the result
void last(int *a, int *b);

void run(float *A, int *a, int *b) {
  lu(8, A);
  first(a, b);
  last(a, b);
}

// CHECK-LABEL: static void __css_submit_lu(
// CHECK: __css_acc[0].region = css_contiguous(A, css_mul(css_mul((size_t)(NB), (size_t)(NB)), sizeof(*A)));
// CHECK: __css_desc.flags = 0;
// CHECK-LABEL: static void __css_submit_first(
// CHECK: __css_acc[0].region = css_contiguous(a, (size_t)(4) * sizeof(*a));
// CHECK: __css_acc[1].region = css_contiguous(b, sizeof(*b));
// CHECK: __css_desc.flags = CSS_TASK_HIGH_PRIORITY;
// CHECK-LABEL: static void __css_submit_last(
// CHECK: __css_acc[0].region = css_contiguous(a, sizeof(*a));
// CHECK: __css_acc[0].direction = CSS_IN;
// CHECK: __css_acc[1].direction = CSS_INOUT;
// CHECK: __css_desc.flags = CSS_TASK_HIGH_PRIORITY;
