// The paper's blocked Cholesky on host wrappers: the sequential build (plain
// compiler, pragmas ignored) and the GPUSs build print the same factor.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O1 -Wno-unknown-pragmas -I %inputs %s %inputs/chol_kernels.c -lm -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -O1 -I %inputs %s %inputs/chol_kernels.c -lm -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <stdio.h>
#include <stdlib.h>
#include "chol_host.h"

static void cholesky(float *A[NB][NB]) {
  for (int k = 0; k < NB; k++) {
    chol_spotrf(A[k][k]);
    for (int i = k + 1; i < NB; i++)
      chol_strsm(A[k][k], A[i][k]);
    for (int i = k + 1; i < NB; i++) {
      for (int j = k + 1; j < i; j++)
        chol_sgemm(A[i][k], A[j][k], A[i][j]);
      chol_ssyrk(A[i][k], A[i][i]);
    }
  }
#pragma css barrier
}

int main(void) {
  enum { N = NB * TS };
  float *A[NB][NB];
  for (int bi = 0; bi < NB; bi++)
    for (int bj = 0; bj < NB; bj++)
      A[bi][bj] = malloc(sizeof(float) * TS * TS);
  /* An SPD matrix: M(i,j) = 1/(1+|i-j|) + N*(i==j). */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i / TS][j / TS][(i % TS) * TS + (j % TS)] = 1.0f / (1.0f + abs(i - j)) + (i == j ? N : 0);
  cholesky(A);
  double checksum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      float l = A[i / TS][j / TS][(i % TS) * TS + (j % TS)];
      checksum += l * (i + 1) * (j + 2);
      if (i == j)
        printf("L[%d][%d] = %.6f\n", i, j, l);
    }
  printf("checksum %.6f\n", checksum);
  for (int bi = 0; bi < NB; bi++)
    for (int bj = 0; bj < NB; bj++)
      free(A[bi][bj]);
  return 0;
}
// CHECK: L[0][0] = 3.6{{[0-9]+}}
// CHECK: checksum
