// Two stencils in the styles of their communities. SMPSs 2.x: a blocked
// Gauss-Seidel sweep in place, each task given its block's corner and
// naming its halo strips and block as regions of one array parameter
// (A{0}{1:B}, A{1:B}{0}: a row and a column, strided; A{1:B}{1:B}: a
// strided block). OmpSs: a Jacobi sweep between two grids by bands of rows,
// a shaped grid with sections ([n][n]u[lo-1;rows+2][0;n]). Same output as
// the sequential program, on host workers and on simulated devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O1 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -O1 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <stdio.h>
#include <stdlib.h>

#define NB 4
#define B 8
#define W ((NB + 2) * B)

#pragma css task input(A{0}{1:B}, A{B+1}{1:B}, A{1:B}{0}, A{1:B}{B+1}) inout(A{1:B}{1:B})
void gauss_seidel(double A[W][W]) {
  for (int i = 1; i <= B; i++)
    for (int j = 1; j <= B; j++)
      A[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}

#pragma css task input(A{1:B}{1:B}) output(sum)
void block_sum(double A[W][W], double *sum) {
  double s = 0;
  for (int i = 1; i <= B; i++)
    for (int j = 1; j <= B; j++)
      s += A[i][j] * (i + 2 * j);
  *sum = s;
}

#pragma css task in(n, lo, rows, [n][n]u[lo-1;rows+2][0;n]) out([n][n]v[lo;rows][0;n])
void jacobi_band(int n, int lo, int rows, const double *u, double *v) {
  for (int i = lo; i < lo + rows; i++)
    for (int j = 0; j < n; j++) {
      double left = j > 0 ? u[i * n + j - 1] : 0, right = j < n - 1 ? u[i * n + j + 1] : 0;
      v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + left + right);
    }
}

#pragma css task in(n, [n]u) inout([n]v)
void copy_row(int n, const double *u, double *v) {
  for (int j = 0; j < n; j++)
    v[j] = u[j];
}

static void gauss_seidel_sweeps(double (*A)[W]) {
  for (int i = 0; i < W; i++)
    for (int j = 0; j < W; j++)
      A[i][j] = (i == 0 || j == 0 || i == W - 1 || j == W - 1) ? 100.0 + i - j : (double)((i * 7 + j * 3) % 11);
  for (int it = 0; it < 3; it++)
    for (int bi = 1; bi <= NB; bi++)
      for (int bj = 1; bj <= NB; bj++)
        gauss_seidel((double (*)[W]) & A[bi * B - 1][bj * B - 1]);
  double sums[NB][NB];
  for (int bi = 1; bi <= NB; bi++)
    for (int bj = 1; bj <= NB; bj++)
      block_sum((double (*)[W]) & A[bi * B - 1][bj * B - 1], &sums[bi - 1][bj - 1]);
#pragma css barrier
  double total = 0;
  for (int bi = 0; bi < NB; bi++)
    for (int bj = 0; bj < NB; bj++)
      total += sums[bi][bj] * (1 + bi + 3 * bj);
  printf("gauss-seidel %.6f %.6f %.6f\n", total, A[B][B], A[NB * B][NB * B]);
}

static void jacobi_sweeps(void) {
  enum { n = 24, rows = 5 };
  double *u = malloc(sizeof(double) * n * n), *v = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; i++)
    u[i] = v[i] = (i < n || i >= n * (n - 1)) ? 50.0 + i % n : (double)(i % 13);
  for (int it = 0; it < 4; it++) {
    for (int lo = 1; lo < n - 1; lo += rows) {
      int r = lo + rows <= n - 1 ? rows : n - 1 - lo;
      jacobi_band(n, lo, r, u, v);
    }
    for (int i = 1; i < n - 1; i++)
      copy_row(n, &v[i * n], &u[i * n]);
  }
  int n_ = n;
#pragma css wait on([n_][n_]u)
  double total = 0;
  for (int i = 0; i < n * n; i++)
    total += u[i] * (1 + i % 5);
  printf("jacobi %.6f %.6f\n", total, u[n * n / 2 + 3]);
  free(u);
  free(v);
}

int main(void) {
  double (*A)[W] = malloc(sizeof(double) * W * W);
  gauss_seidel_sweeps(A);
  jacobi_sweeps();
  free(A);
  return 0;
}
// CHECK: gauss-seidel
// CHECK: jacobi
