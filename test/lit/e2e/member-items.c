// Items whose base is a member: a CSR matrix in a struct, named by its rows'
// slices `A->r[s:e]`, `A->c[A->r[s]:A->r[e]-1]` (the bounds are read at the
// call), a vector struct passed by value `inout(v.data[0;v.n])`, and a
// call-site task on a struct passed by address. The tasks run on their own
// copy of the struct whose pointer members point to where their data lives
// (so they also run on simulated devices). Same output as the sequential
// program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: norm
#include <stdio.h>
#include <stdlib.h>

struct csr {
  int n;
  int *r, *c;
  double *v;
};
struct vec {
  int n;
  double *data;
};

#pragma css task input(A->r[s:e], A->c[A->r[s]:A->r[e]-1], A->v[A->r[s]:A->r[e]-1], x[0;A->n]) \
                 output(y[s:e-1]) input(s, e)
void spmv_rows(const struct csr *A, int s, int e, const double *x, double *y) {
  for (int i = s; i < e; i++) {
    double t = 0;
    for (int k = A->r[i]; k < A->r[i + 1]; k++)
      t += A->v[k] * x[A->c[k]];
    y[i] = t;
  }
}

#pragma css task inout(v.data[0;v.n]) input(f)
void scale(struct vec v, double f) {
  for (int i = 0; i < v.n; i++)
    v.data[i] *= f;
}

void shift(struct vec *w, double d) {
  for (int i = 0; i < w->n; i++)
    w->data[i] += d;
}

int main(void) {
  enum { N = 64, BAND = 3, CH = 16 };
  struct csr A;
  A.n = N;
  A.r = malloc((N + 1) * sizeof(int));
  A.c = malloc(N * (2 * BAND + 1) * sizeof(int));
  A.v = malloc(N * (2 * BAND + 1) * sizeof(double));
  int nz = 0;
  for (int i = 0; i < N; i++) {
    A.r[i] = nz;
    for (int j = i - BAND; j <= i + BAND; j++)
      if (j >= 0 && j < N) {
        A.c[nz] = j;
        A.v[nz++] = (i == j) ? 4.0 : -1.0 / (1 + abs(i - j));
      }
  }
  A.r[N] = nz;
  double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    x[i] = 1.0 + (i % 7) * 0.25;
  struct vec vy = {N, y}, vx = {N, x};
  for (int it = 0; it < 4; it++) {
    for (int s = 0; s < N; s += CH)
      spmv_rows(&A, s, s + CH, x, y);
    scale(vy, 0.25);
#pragma css task inout(vx.data[0;vx.n]) input(vy.data[0;vy.n])
    shift(&vx, 0.125);
    for (int s = 0; s < N; s += CH)
      spmv_rows(&A, s, s + CH, y, x);
  }
#pragma css barrier
  double norm = 0;
  for (int i = 0; i < N; i++)
    norm += x[i] * x[i] + y[i];
  printf("norm %.9f\n", norm);
  free(A.r), free(A.c), free(A.v), free(x), free(y);
  return 0;
}
