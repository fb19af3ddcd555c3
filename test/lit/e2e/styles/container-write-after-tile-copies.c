// Tiles of one buffer, read on one device (tile 1 by tile_add and by a
// panel of tiles 0-1), then the whole buffer written on another, then tile
// 1 updated again: the whole-buffer write must reach tile 1. The writer took
// the tiles' bytes over from the copies on its own device but left tile 1's
// read copy on the other device, which the last task then used: tile1=2
// where the program gives 2.5, on two or three simulated devices with no
// host workers, under wb and wt (a helper's sweep of numerical C,
// 2026-11-29). Same output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: env CSS_SIM_DEVICES=2 CSS_NUM_CPUS=0 %t/par | diff %t/expected -
// RUN: env CSS_SIM_DEVICES=2 CSS_NUM_CPUS=0 CSS_CACHE_POLICY=wt %t/par | diff %t/expected -
// RUN: env CSS_SIM_DEVICES=3 CSS_NUM_CPUS=0 %t/par | diff %t/expected -
// RUN: env CSS_SIM_DEVICES=2 CSS_NUM_CPUS=0 CSS_SCHEDULER=round-robin %t/par | diff %t/expected -
// RUN: FileCheck %s < %t/expected
// CHECK: s=128 tile0=1.5 tile1=2.5 tile2=2.5 tile3=1.5
#include <stdio.h>
#include <stdlib.h>
#define TSZ 64

#pragma css task inout(t[TSZ])
void tile_inc(double *t);
#pragma css task input(src[TSZ]) inout(dst[TSZ])
void tile_add(double *src, double *dst);
#pragma css task input(p[2 * TSZ]) output(*s)
void panel_sum(double *p, double *s);
#pragma css task inout(all[4 * TSZ])
void all_inc(double *all);

int main(void) {
  double *buf = calloc(4 * TSZ, sizeof(double));
  double s;
  for (int k = 0; k < 4; k++)
    tile_inc(buf + k * TSZ);
  tile_add(buf + 1 * TSZ, buf + 2 * TSZ);
  panel_sum(buf, &s);
  all_inc(buf);
  tile_inc(buf + 1 * TSZ);
#pragma css barrier
  printf("s=%g tile0=%g tile1=%g tile2=%g tile3=%g\n", s, buf[0], buf[TSZ], buf[2 * TSZ], buf[3 * TSZ]);
  free(buf);
  return 0;
}

void tile_inc(double *t) {
  for (int i = 0; i < TSZ; i++)
    t[i] += 1.0;
}
void tile_add(double *src, double *dst) {
  for (int i = 0; i < TSZ; i++)
    dst[i] += src[i];
}
void panel_sum(double *p, double *s) {
  double a = 0;
  for (int i = 0; i < 2 * TSZ; i++)
    a += p[i];
  *s = a;
}
void all_inc(double *all) {
  for (int i = 0; i < 4 * TSZ; i++)
    all[i] += 0.5;
}
