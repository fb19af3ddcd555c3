// A task body that writes what its clause names only as input: with
// CSS_CHECK_REGIONS=1, an error at the task's call on host workers and on
// simulated devices alike (without it the program's result depended on
// where the task ran: the host worker's write reached memory, the device
// copy's did not). A task that names the same bytes as input and, through
// another clause, as inout is not an error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuss-cc %s -o %t/iw
// RUN: env CSS_CHECK_REGIONS=1 CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 not %t/iw bad 2> %t/host.err
// RUN: FileCheck %s < %t/host.err
// RUN: env CSS_CHECK_REGIONS=1 CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 not %t/iw bad 2> %t/sim.err
// RUN: FileCheck %s < %t/sim.err
// RUN: env CSS_CHECK_REGIONS=1 CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 %t/iw good | FileCheck --check-prefix=GOOD %s
// RUN: env CSS_CHECK_REGIONS=1 CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 %t/iw good | FileCheck --check-prefix=GOOD %s
// CHECK: gpuss: error: {{.*}}input-written.c:[[#@LINE+22]]: task 'scale_into': its body wrote region 0x{{[0-9a-f]+}} (32 bytes, access 0), which the task names only as input
// GOOD: sum=12 first=2
#include <stdio.h>
#include <string.h>

#pragma css task input(a[4]) output(b[4])
void scale_into(double *a, double *b) {
  for (int i = 0; i < 4; i++) {
    a[i] *= 2; /* the mistake: a is input */
    b[i] = a[i];
  }
}

#pragma css task input(a[4]) inout(a[0;2])
void bump_head(double *a) {
  a[0] += 1;
  a[1] += 1;
}

int main(int argc, char **argv) {
  double a[4] = {1, 2, 3, 4}, b[4] = {0};
  if (argc > 1 && strcmp(argv[1], "bad") == 0) {
    scale_into(a, b);
#pragma css barrier
    return 0;
  }
  bump_head(a);
#pragma css barrier
  double sum = 0;
  for (int i = 0; i < 4; i++) sum += a[i] + b[i];
  printf("sum=%g first=%g\n", sum, a[0]);
  return 0;
}
