// Blocked matrix multiplication as an OmpSs user writes it: shaping
// expressions sized by a parameter ([bs][bs]A), in/out, the target inside
// the task pragma, priority and label, taskwait on one block and taskwait.
// Same output as the sequential program, on host workers and on simulated
// devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O1 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -O1 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <stdio.h>
#include <stdlib.h>

#define NB 4
#define BS 8

#pragma css task in(bs, seed) out([bs][bs]A) label(init_block)
void init_block(int bs, double *A, int seed) {
  for (int i = 0; i < bs * bs; i++)
    A[i] = (double)((seed * 31 + i * 7) % 17) - 8.0;
}

#pragma css task target device(smp) in(bs, [bs][bs]A, [bs][bs]B) inout([bs][bs]C) label(gemm) priority(k == 0)
void gemm(int bs, int k, const double *A, const double *B, double *C) {
  for (int i = 0; i < bs; i++)
    for (int l = 0; l < bs; l++)
      for (int j = 0; j < bs; j++)
        C[i * bs + j] += A[i * bs + l] * B[l * bs + j];
}

#pragma css task in(bs, [bs][bs]C) out([1]trace)
void block_trace(int bs, const double *C, double *trace) {
  double t = 0;
  for (int i = 0; i < bs; i++)
    t += C[i * bs + i];
  *trace = t;
}

int main(void) {
  double *A[NB][NB], *B[NB][NB], *C[NB][NB];
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++) {
      A[i][j] = malloc(BS * BS * sizeof(double));
      B[i][j] = malloc(BS * BS * sizeof(double));
      C[i][j] = calloc(BS * BS, sizeof(double));
      init_block(BS, A[i][j], i * NB + j);
      init_block(BS, B[i][j], 100 + j * NB + i);
    }
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++)
      for (int k = 0; k < NB; k++)
        gemm(BS, k, A[i][k], B[k][j], C[i][j]);
  double t00;
  block_trace(BS, C[0][0], &t00);
#pragma css taskwait on(t00)
  printf("trace of C00 %.1f\n", t00);
#pragma css taskwait
  double sum = 0;
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++)
      for (int e = 0; e < BS * BS; e++)
        sum += C[i][j][e] * (1 + (e % 3));
  printf("weighted sum %.1f\n", sum);
  printf("%.1f %.1f %.1f\n", C[0][0][0], C[1][2][9], C[3][3][63]);
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++) {
      free(A[i][j]);
      free(B[i][j]);
      free(C[i][j]);
    }
  return 0;
}
// CHECK: trace of C00
// CHECK: weighted sum
