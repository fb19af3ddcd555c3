// Calls whose function name is an object-like macro: PLASMA's
// `#define CORE_dgeqrt PCORE_dgeqrt` naming a function annotated at its
// declaration, and `#define gemm my_gemm` before a call-site task. Same
// output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: result
#include <stdio.h>

#define NB 8

#pragma css task inout(a[NB]) input(k)
void PCORE_dscal(double *a, int k) {
  for (int i = 0; i < NB; i++)
    a[i] = a[i] * 2 + k;
}
#define CORE_dscal PCORE_dscal

void my_gemm(const double *a, const double *b, double *c) {
  for (int i = 0; i < NB; i++)
    c[i] += a[i] * b[i];
}
#define gemm my_gemm

int main(void) {
  double a[NB], b[NB], c[NB];
  for (int i = 0; i < NB; i++) {
    a[i] = i;
    b[i] = NB - i;
    c[i] = 0;
  }
  for (int k = 0; k < 3; k++) {
    CORE_dscal(a, k);
#pragma css task input(a[NB], b[NB]) inout(c[NB])
    gemm(a, b, c);
  }
#pragma css barrier
  double s = 0;
  for (int i = 0; i < NB; i++)
    s += c[i] * (i + 1);
  printf("result %.1f\n", s);
  return 0;
}
