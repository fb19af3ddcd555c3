// A task on a whole buffer after tasks on each of its tiles, on one
// simulated device whose cache cannot hold the buffer's copy beside the
// tiles' (or holds it only cut up around them): the tiles' copies, newer
// than host memory under wb, lent their bytes to the buffer's copy and
// stayed pinned while making room waited for them, forever, with no
// message (a helper's sweep of numerical C, 2026-11-29). The buffer now
// goes through the host there. Same output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: env CSS_SIM_DEVICES=1 CSS_NUM_CPUS=0 CSS_GPU_MEMORY=12K timeout 60 %t/par | diff %t/expected -
// RUN: env CSS_SIM_DEVICES=1 CSS_NUM_CPUS=0 CSS_GPU_MEMORY=12K CSS_CACHE_POLICY=wt timeout 60 %t/par | diff %t/expected -
// RUN: env CSS_SIM_DEVICES=1 CSS_NUM_CPUS=0 CSS_GPU_MEMORY=9K timeout 60 %t/par | diff %t/expected -
// RUN: env CSS_SIM_DEVICES=3 CSS_NUM_CPUS=0 CSS_GPU_MEMORY=12K CSS_CACHE_POLICY=wt timeout 60 %t/par | diff %t/expected -
// RUN: FileCheck %s < %t/expected
// CHECK: s=9216
#include <stdio.h>
#include <stdlib.h>
#define NT 16
#define TSZ 64

#pragma css task inout(t[TSZ])
void tile_inc(double *t);
#pragma css task inout(all[NT * TSZ])
void all_inc(double *all);

int main(void) {
  double *buf = calloc(NT * TSZ, sizeof(double));
  for (int it = 0; it < 3; it++) {
    for (int t = 0; t < NT; t++)
      tile_inc(buf + t * TSZ);
    all_inc(buf);
  }
#pragma css barrier
  double s = 0;
  for (int i = 0; i < NT * TSZ; i++)
    s += buf[i];
  printf("s=%g\n", s);
  free(buf);
  return 0;
}

void tile_inc(double *t) {
  for (int i = 0; i < TSZ; i++)
    t[i] += 1.0;
}
void all_inc(double *all) {
  for (int i = 0; i < NT * TSZ; i++)
    all[i] += 2.0;
}
