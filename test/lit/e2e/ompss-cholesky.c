// A blocked Cholesky factorization as OmpSs users write it: blocks shaped
// by a parameter ([ts][ts]A), in/inout, the target inside the task pragma,
// highpriority first, a parameter-sized shape in a wait ([ts][ts]A), spaces
// before the parentheses. The matrix is one array of 'double' with blocks
// stored one after the other. Same output as the sequential program, on
// host workers and on simulated devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O1 -Wno-unknown-pragmas %s -lm -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -O1 %s -lm -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NB 5
#define TS 12

#pragma css task highpriority target device(smp) inout ([ts][ts]A) in (ts)
void potrf(int ts, double *A) {
  for (int k = 0; k < ts; k++) {
    A[k * ts + k] = sqrt(A[k * ts + k]);
    for (int i = k + 1; i < ts; i++)
      A[i * ts + k] /= A[k * ts + k];
    for (int j = k + 1; j < ts; j++)
      for (int i = j; i < ts; i++)
        A[i * ts + j] -= A[i * ts + k] * A[j * ts + k];
  }
  for (int i = 0; i < ts; i++)
    for (int j = i + 1; j < ts; j++)
      A[i * ts + j] = 0;
}

#pragma css task target device(smp) in(ts, [ts][ts]T) inout([ts][ts]B)
void trsm(int ts, const double *T, double *B) {
  for (int i = 0; i < ts; i++)
    for (int j = 0; j < ts; j++) {
      double s = B[i * ts + j];
      for (int k = 0; k < j; k++)
        s -= B[i * ts + k] * T[j * ts + k];
      B[i * ts + j] = s / T[j * ts + j];
    }
}

#pragma css task target device(smp) in(ts, [ts][ts]A) inout([ts][ts]C)
void syrk(int ts, const double *A, double *C) {
  for (int i = 0; i < ts; i++)
    for (int j = 0; j < ts; j++)
      for (int k = 0; k < ts; k++)
        C[i * ts + j] -= A[i * ts + k] * A[j * ts + k];
}

#pragma css task target device(smp) in(ts, [ts][ts]A, [ts][ts]B) inout([ts][ts]C)
void gemm(int ts, const double *A, const double *B, double *C) {
  for (int i = 0; i < ts; i++)
    for (int j = 0; j < ts; j++)
      for (int k = 0; k < ts; k++)
        C[i * ts + j] -= A[i * ts + k] * B[j * ts + k];
}

static double *block(double *M, int i, int j) {
  return M + ((size_t)i * NB + j) * TS * TS;
}

int main(void) {
  int n = NB * TS;
  double *M = malloc(sizeof(double) * n * n);
  // A symmetric positive definite matrix, stored by blocks.
  for (int bi = 0; bi < NB; bi++)
    for (int bj = 0; bj < NB; bj++)
      for (int i = 0; i < TS; i++)
        for (int j = 0; j < TS; j++) {
          int gi = bi * TS + i, gj = bj * TS + j;
          block(M, bi, bj)[i * TS + j] = 1.0 / (1 + abs(gi - gj)) + (gi == gj ? n : 0);
        }
  for (int k = 0; k < NB; k++) {
    potrf(TS, block(M, k, k));
    for (int i = k + 1; i < NB; i++)
      trsm(TS, block(M, k, k), block(M, i, k));
    for (int i = k + 1; i < NB; i++) {
      for (int j = k + 1; j < i; j++)
        gemm(TS, block(M, i, k), block(M, j, k), block(M, i, j));
      syrk(TS, block(M, i, k), block(M, i, i));
    }
  }
  int ts = TS;
  double *first = block(M, 0, 0);
#pragma css wait on([ts][ts]first)
  printf("L00[0][0] %.6f\n", first[0]);
#pragma css barrier
  double sum = 0;
  for (int bi = 0; bi < NB; bi++)
    for (int bj = 0; bj <= bi; bj++)
      for (int e = 0; e < TS * TS; e++)
        sum += block(M, bi, bj)[e] * (1 + e % 7);
  printf("checksum %.6f\n", sum);
  printf("%.6f %.6f\n", block(M, NB - 1, NB - 1)[TS * TS - 1], block(M, 3, 1)[5]);
  free(M);
  return 0;
}
// CHECK: L00[0][0] 7.
// CHECK: checksum
