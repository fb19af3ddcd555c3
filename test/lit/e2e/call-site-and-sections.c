// Call-site tasks, sections, strided blocks, wait on, a scalar argument
// captured at the call: same output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <stdio.h>
#define N 8

void add_scalar(int *v, int n, int k) {
  for (int i = 0; i < n; i++)
    v[i] += k;
}

#pragma css task inout(a[r0;nr][c0;nc]) input(r0, nr, c0, nc, f)
void scale_block(double (*a)[N], int r0, int nr, int c0, int nc, double f) {
  for (int i = r0; i < r0 + nr; i++)
    for (int j = c0; j < c0 + nc; j++)
      a[i][j] *= f;
}

#pragma css task input(src[lo:hi]) output(dst[lo:hi])
void copy_range(const int *src, int *dst, int lo, int hi) {
  for (int i = lo; i <= hi; i++)
    dst[i] = 2 * src[i];
}

#pragma css task input(a[N][N]) output(out)
void trace(double (*a)[N], double *out) {
  double t = 0;
  for (int i = 0; i < N; i++)
    t += a[i][i];
  *out = t;
}

int main(void) {
  int v[16] = {0}, w[16] = {0};
  double m[N][N], tr = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      m[i][j] = i * N + j;
  for (int k = 1; k <= 4; k++) {
#pragma css task inout(v[0;16])
    add_scalar(v, 16, k);
  }
  scale_block(m, 0, 4, 0, 4, 2.0);
  scale_block(m, 4, 4, 4, 4, 0.5);
  scale_block(m, 2, 4, 2, 4, 3.0);
  trace(m, &tr);
#pragma css wait on(tr)
  printf("trace %.2f\n", tr);
  copy_range(v, w, 0, 7);
  copy_range(v, w, 8, 15);
#pragma css barrier
  for (int i = 0; i < 16; i++)
    printf("%d ", w[i]);
  printf("\n%.1f %.1f %.1f\n", m[1][1], m[3][3], m[5][5]);
  return 0;
}
// CHECK: trace
// CHECK: 20 20 20
