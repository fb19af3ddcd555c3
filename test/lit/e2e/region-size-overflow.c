// A region whose size in bytes does not fit in size_t is an error at the
// task's call, on host workers and on a device alike. Before, the size
// wrapped: `inout(v[n])` of doubles at n = 2^61 + 1 was a region of 8 bytes
// (n * 8 mod 2^64), a device got 8 bytes of what the body reads, host workers
// noticed nothing, and the run ended with status 0. One case per product the
// region is made of: a count times the element size, the dimensions of a
// shape, a section's length, the stride between rows, and rows times their
// bytes (a block of whole rows, which the runtime makes one run of bytes).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuss-cc %s -o %t/ovf
// RUN: env CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 not %t/ovf count > %t/count.out 2> %t/count.err
// RUN: FileCheck --check-prefix=COUNT %s < %t/count.err
// RUN: FileCheck --check-prefix=FLUSHED %s < %t/count.out
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 not %t/ovf count 2> %t/count-sim.err
// RUN: FileCheck --check-prefix=COUNT %s < %t/count-sim.err
// RUN: env CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 not %t/ovf shape 2> %t/shape.err
// RUN: FileCheck --check-prefix=SHAPE %s < %t/shape.err
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 not %t/ovf shape 2> %t/shape-sim.err
// RUN: FileCheck --check-prefix=SHAPE %s < %t/shape-sim.err
// RUN: env CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 not %t/ovf section 2> %t/section.err
// RUN: FileCheck --check-prefix=SECTION %s < %t/section.err
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 not %t/ovf section 2> %t/section-sim.err
// RUN: FileCheck --check-prefix=SECTION %s < %t/section-sim.err
// RUN: env CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 not %t/ovf stride 2> %t/stride.err
// RUN: FileCheck --check-prefix=STRIDE %s < %t/stride.err
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 not %t/ovf stride 2> %t/stride-sim.err
// RUN: FileCheck --check-prefix=STRIDE %s < %t/stride-sim.err
// RUN: env CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 not %t/ovf rows 2> %t/rows.err
// RUN: FileCheck --check-prefix=ROWS %s < %t/rows.err
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 not %t/ovf rows 2> %t/rows-sim.err
// RUN: FileCheck --check-prefix=ROWS %s < %t/rows-sim.err
// The sizes that fit still run.
// RUN: env CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 %t/ovf fits | FileCheck --check-prefix=FITS %s
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 %t/ovf fits | FileCheck --check-prefix=FITS %s
// FLUSHED: calling count
// FITS: 1 1 1 1 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The bodies touch their first element only: the sizes are the point.
#pragma css task input(n) inout(v[n])
void count(size_t n, double *v) {
  v[0] += 1;
}

#pragma css task input(n, m) inout([n][m]a)
void shape(size_t n, size_t m, double *a) {
  a[0] += 1;
}

#pragma css task input(i, len) inout(v[i;len])
void section(size_t i, size_t len, double *v) {
  v[i] += 1;
}

// Two rows of one element, m elements apart.
#pragma css task input(m) inout([2][m]a[0;2][0;1])
void stride(size_t m, double *a) {
  a[0] += 1;
}

// r whole rows of 4 doubles: rows as long as their stride, one run.
#pragma css task input(r) inout(a[0;r][0;4])
void rows(size_t r, double (*a)[4]) {
  a[0][0] += 1;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "fits";
  static double data[8][4];
  // 2^61 + 1 doubles are 2^64 + 8 bytes, 8 once wrapped; 3 times
  // 768614336404564651 is 2^61 + 1 too.
  const size_t huge = ((size_t)1 << 61) + 1, third = 768614336404564651u;
  if (strcmp(which, "fits") == 0) {
    count(2, &data[0][0]);
    shape(2, 3, &data[1][0]);
    section(1, 2, &data[2][0]);
    stride(4, &data[3][0]);
    rows(2, &data[4]);
#pragma css barrier
    printf("%g %g %g %g %g\n", data[0][0], data[1][0], data[2][1], data[3][0], data[4][0]);
    return 0;
  }
  printf("calling %s\n", which);
  if (strcmp(which, "count") == 0)
    count(huge, &data[0][0]); // COUNT: gpuss: error: {{.*}}region-size-overflow.c:[[#@LINE]]: task 'count': access 0: region size overflows:
  if (strcmp(which, "shape") == 0)
    shape(3, third, &data[0][0]); // SHAPE: gpuss: error: {{.*}}region-size-overflow.c:[[#@LINE]]: task 'shape': access 0: region size overflows:
  if (strcmp(which, "section") == 0)
    section(0, huge, &data[0][0]); // SECTION: gpuss: error: {{.*}}region-size-overflow.c:[[#@LINE]]: task 'section': access 0: region size overflows:
  if (strcmp(which, "stride") == 0)
    stride(huge, &data[0][0]); // STRIDE: gpuss: error: {{.*}}region-size-overflow.c:[[#@LINE]]: task 'stride': access 0: region size overflows:
  if (strcmp(which, "rows") == 0)
    rows(((size_t)1 << 59) + 1, data); // ROWS: gpuss: error: {{.*}}region-size-overflow.c:[[#@LINE]]: task 'rows': access 0: region size overflows:
#pragma css barrier
  printf("done: %g\n", data[0][0]);
  return 0;
}
