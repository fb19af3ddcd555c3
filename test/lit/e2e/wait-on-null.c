// A `wait on` whose item is a null pointer with a length (a buffer the
// program has not allocated yet): the runtime names the directive's
// file:line, as it names a task's call for a task's region. Before, the
// message said only "wait on: region at a null address with 32 bytes".
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuss-cc %s -o %t/won
// RUN: env CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 not %t/won 2> %t/won.err
// RUN: FileCheck %s < %t/won.err
// CHECK: gpuss: error: {{.*}}wait-on-null.c:[[#@LINE+14]]: wait on: region at a null address with 32 bytes
#include <stdio.h>
#include <stdlib.h>

#pragma css task input(n) inout(a[n])
void bump(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] += 1;
}

int main(int argc, char **argv) {
  double x[4] = {0};
  double *later = argc > 5 ? malloc(sizeof x) : NULL; // not allocated on this path
  bump(4, x);
  (void)argv;
#pragma css wait on(later[0;4])
  printf("%g\n", x[0]);
  free(later);
  return 0;
}
