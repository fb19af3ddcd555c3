// The SMPSs sparse LU as its users wrote it: array parameters named whole
// (inout(diag) for 'float diag[BS][BS]'), a typedef'd block type reached
// through pointers (input(row, col) for 'block *'), a clause repeated,
// highpriority last, the pragmas on the prototypes and again on the
// definitions (after main), fill-in blocks allocated by the main program
// between tasks. Same output as the sequential program, on host workers and
// on simulated devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O1 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -O1 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <stdio.h>
#include <stdlib.h>

#define NB 6
#define BS 16
typedef float block[BS][BS];

#pragma css task inout(diag) highpriority
void lu0(float diag[BS][BS]);
#pragma css task input(diag) inout(row)
void fwd(float diag[BS][BS], float row[BS][BS]);
#pragma css task input(diag) inout(col)
void bdiv(float diag[BS][BS], float col[BS][BS]);
#pragma css task input(row) input(col) inout(inner)
void bmod(block *row, block *col, block *inner);

static block *A[NB][NB];

static int present(int i, int j) {
  return i == j || (i + j) % 3 == 0 || i == j + 1 || j == i + 1;
}

static void genmat(void) {
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++) {
      A[i][j] = NULL;
      if (!present(i, j)) continue;
      A[i][j] = malloc(sizeof(block));
      for (int r = 0; r < BS; r++)
        for (int c = 0; c < BS; c++)
          (*A[i][j])[r][c] = (float)(((i * NB + j) * 37 + r * 11 + c * 5) % 23) / 23.0f + (i == j && r == c ? 8.0f : 0.0f);
    }
}

int main(void) {
  genmat();
  for (int k = 0; k < NB; k++) {
    lu0(*A[k][k]);
    for (int j = k + 1; j < NB; j++)
      if (A[k][j]) fwd(*A[k][k], *A[k][j]);
    for (int i = k + 1; i < NB; i++)
      if (A[i][k]) {
        bdiv(*A[k][k], *A[i][k]);
        for (int j = k + 1; j < NB; j++)
          if (A[k][j]) {
            if (!A[i][j]) A[i][j] = calloc(1, sizeof(block));
            bmod(A[i][k], A[k][j], A[i][j]);
          }
      }
  }
#pragma css barrier
  double sum = 0;
  int blocks = 0;
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++)
      if (A[i][j]) {
        blocks++;
        for (int r = 0; r < BS; r++)
          for (int c = 0; c < BS; c++)
            sum += (*A[i][j])[r][c] * (1 + (r + c) % 5);
      }
  printf("blocks %d checksum %.4f\n", blocks, sum);
  printf("%.5f %.5f %.5f\n", (*A[0][0])[0][0], (*A[NB - 1][NB - 1])[BS - 1][BS - 1], (*A[NB - 1][1])[3][4]);
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++)
      free(A[i][j]);
  return 0;
}

#pragma css task inout(diag) highpriority
void lu0(float diag[BS][BS]) {
  for (int k = 0; k < BS; k++)
    for (int i = k + 1; i < BS; i++) {
      diag[i][k] = diag[i][k] / diag[k][k];
      for (int j = k + 1; j < BS; j++)
        diag[i][j] = diag[i][j] - diag[i][k] * diag[k][j];
    }
}

#pragma css task input(diag) inout(row)
void fwd(float diag[BS][BS], float row[BS][BS]) {
  for (int k = 0; k < BS; k++)
    for (int i = k + 1; i < BS; i++)
      for (int j = 0; j < BS; j++)
        row[i][j] = row[i][j] - diag[i][k] * row[k][j];
}

#pragma css task input(diag) inout(col)
void bdiv(float diag[BS][BS], float col[BS][BS]) {
  for (int i = 0; i < BS; i++)
    for (int k = 0; k < BS; k++) {
      col[i][k] = col[i][k] / diag[k][k];
      for (int j = k + 1; j < BS; j++)
        col[i][j] = col[i][j] - col[i][k] * diag[k][j];
    }
}

#pragma css task input(row, col) inout(inner)
void bmod(block *row, block *col, block *inner) {
  for (int i = 0; i < BS; i++)
    for (int j = 0; j < BS; j++)
      for (int k = 0; k < BS; k++)
        (*inner)[i][j] = (*inner)[i][j] - (*row)[i][k] * (*col)[k][j];
}
// CHECK: blocks {{[0-9]+}} checksum
