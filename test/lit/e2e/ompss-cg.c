// Conjugate gradient on a 1-D Poisson matrix, written as an OmpSs user
// writes it without reductions: blocked vector kernels with shaped vectors
// ([n]p) and sections of them ([n]q[lo;bs]), dot products into one partial
// per block (out(partial{b})) combined by the main program after a
// taskwait on them, priority on the dot products. Same output as the
// sequential program, on host workers and on simulated devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O1 -Wno-unknown-pragmas %s -lm -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -O1 %s -lm -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64
#define BS 8
#define NBLK (N / BS)

// q[lo..lo+bs) = A p for the matrix tridiag(-1, 2, -1).
#pragma css task in(n, lo, bs, [n]p) out([n]q[lo;bs])
void spmv(int n, int lo, int bs, const double *p, double *q) {
  for (int i = lo; i < lo + bs; i++)
    q[i] = 2 * p[i] - (i > 0 ? p[i - 1] : 0) - (i < n - 1 ? p[i + 1] : 0);
}

#pragma css task in(bs, [bs]x, [bs]y, b) out(partial{b}) priority(1)
void dot(int bs, const double *x, const double *y, double *partial, int b) {
  double s = 0;
  for (int i = 0; i < bs; i++)
    s += x[i] * y[i];
  partial[b] = s;
}

#pragma css task in(bs, alpha, [bs]x) inout([bs]y)
void axpy(int bs, double alpha, const double *x, double *y) {
  for (int i = 0; i < bs; i++)
    y[i] += alpha * x[i];
}

#pragma css task in(bs, beta, [bs]r) inout([bs]p)
void xpby(int bs, const double *r, double beta, double *p) {
  for (int i = 0; i < bs; i++)
    p[i] = r[i] + beta * p[i];
}

static double dot_all(const double *x, const double *y, double *partial) {
  for (int b = 0; b < NBLK; b++)
    dot(BS, &x[b * BS], &y[b * BS], partial, b);
  int nblk = NBLK;
#pragma css taskwait on([nblk]partial)
  double s = 0;
  for (int b = 0; b < NBLK; b++)
    s += partial[b];
  return s;
}

int main(void) {
  double *x = calloc(N, sizeof(double)), *r = malloc(N * sizeof(double));
  double *p = malloc(N * sizeof(double)), *q = malloc(N * sizeof(double));
  double partial[NBLK];
  for (int i = 0; i < N; i++)
    r[i] = p[i] = sin(0.1 * i) + 1.0;
  double rr = dot_all(r, r, partial);
  printf("initial residual %.6e\n", sqrt(rr));
  for (int it = 1; it <= 70; it++) {
    for (int b = 0; b < NBLK; b++)
      spmv(N, b * BS, BS, p, q);
    double alpha = rr / dot_all(p, q, partial);
    for (int b = 0; b < NBLK; b++) {
      axpy(BS, alpha, &p[b * BS], &x[b * BS]);
      axpy(BS, -alpha, &q[b * BS], &r[b * BS]);
    }
    double rr_new = dot_all(r, r, partial);
    for (int b = 0; b < NBLK; b++)
      xpby(BS, &r[b * BS], rr_new / rr, &p[b * BS]);
    rr = rr_new;
    if (it % 10 == 0) printf("iteration %d residual %.6e\n", it, sqrt(rr));
  }
#pragma css taskwait
  printf("x %.9f %.9f %.9f\n", x[0], x[N / 2], x[N - 1]);
  free(x);
  free(r);
  free(p);
  free(q);
  return 0;
}
// CHECK: initial residual
// CHECK: iteration 70 residual {{.*}}e-
