// Sections whose length is 0 at run time, as a blocked triangular solve
// writes them: the first block's `in(x[0;i0])` is empty at i0 = 0, and the
// body takes its pointer `x` from that section and reaches the block it
// writes from it; a prefix sum's `in(x[0;k])` at k = 0 still receives x.
// The empty section has no storage of its own: the body's pointer must be
// where x lives for the execution (host memory, a renamed buffer, a device
// copy), not null (until 2026-11-29 the solve crashed in its first task).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: solve 1.7500 1.9999
// CHECK: prefix 0.0 6.0 28.0 66.0 null 0
#include <stdio.h>

#define N 16
#define BS 4
static double x[N], y[N];

#pragma omp task in(x[0;i0]) out(x[i0;BS])
void solve_block(double *x, int i0) {
  for (int i = i0; i < i0 + BS; i++) {
    double s = i;
    for (int j = 0; j < i; j++)
      s -= 0.5 * x[j];
    x[i] = s;
  }
}

#pragma omp task in(y[0;k]) out(*sum, *was_null)
void prefix_sum(const double *y, int k, double *sum, int *was_null) {
  double s = 0;
  for (int j = 0; j < k; j++)
    s += y[j];
  *sum = s;
  *was_null = y == 0;
}

int main(void) {
  for (int i0 = 0; i0 < N; i0 += BS)
    solve_block(x, i0);
  double sums[4];
  int nulls[4];
  for (int i = 0; i < N; i++)
    y[i] = i;
  for (int k = 0; k < 4; k++)
    prefix_sum(y, k * 4, &sums[k], &nulls[k]);
#pragma omp taskwait
  printf("solve %.4f %.4f\n", x[3], x[N - 1]);
  printf("prefix %.1f %.1f %.1f %.1f null %d\n", sums[0], sums[1], sums[2], sums[3],
         nulls[0] + nulls[1] + nulls[2] + nulls[3]);
  return 0;
}
