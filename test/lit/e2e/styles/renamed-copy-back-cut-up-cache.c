// Each round overwrites a buffer (renamed: the previous round's reader still
// reads it) and reads it whole; the barrier copies the renamed values home.
// On two simulated devices with 64 KiB caches under wb, a copy-back of a
// renamed 32 KiB value, held in the middle of its device's cache, needed
// the user buffer's 32 KiB beside it: no victim was left but the task's own
// copy, and it waited forever with no message, about 1 run in 20 (a
// helper's sweep of nested tasks, 2026-11-29; present before this session).
// The task's own copies now go too, and it is placed afresh. 40 runs: a
// runtime without the fix hangs in most sets of 40.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: for i in $(seq 1 40); do env CSS_SIM_DEVICES=2 CSS_CACHE_POLICY=wb CSS_GPU_MEMORY=64K timeout 20 %t/par | diff %t/expected - || exit 1; done
// RUN: FileCheck %s < %t/expected
// CHECK: X0=-1.0
#include <stdio.h>
#include <unistd.h>
#define N 4096

#pragma omp task in(x[0;n]) out(s[0;4])
void reader(int n, const double *x, double *s);
#pragma omp task out(x[0;n])
void writer(int n, double *x, double v);

double X[N];

int main(void) {
  double s[6][4];
  for (int it = 0; it < 6; it++) {
    writer(N, X, it * 10.0);
    reader(N, X, s[it]);
  }
  writer(N, X, -1);
#pragma omp taskwait
  for (int it = 0; it < 6; it++)
    printf("%.1f %.1f %.1f %.1f\n", s[it][0], s[it][1], s[it][2], s[it][3]);
  printf("X0=%.1f\n", X[0]);
  return 0;
}

void reader(int n, const double *x, double *s) {
  int q = n / 4;
  for (int k = 0; k < 4; k++) {
    usleep(4000); // still reading when the next round's writer is called: it gets a renamed buffer
    double t = 0;
    for (int i = 0; i < q; i++)
      t += x[k * q + i];
    s[k] = t;
  }
}
void writer(int n, double *x, double v) {
  for (int i = 0; i < n; i++)
    x[i] = v + i;
}
