// A task whose region runs past the end of its memory (issue 16, item 8):
// the clause names one element more than the program allocated. With
// CSS_CHECK_REGIONS=1 from the start, the block (allocated before the
// runtime starts) is known and the task is an error at its call; without
// it, a simulated device's copy of a region that runs into a PROT_NONE page
// names the task and the region instead of dying of a bare SIGSEGV. Both
// exit with status 1 (`not` fails on a crash).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuss-cc %s -o %t/par
// RUN: env CSS_CHECK_REGIONS=1 CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 not %t/par heap 2> %t/heap.err
// RUN: FileCheck --check-prefix=HEAP %s < %t/heap.err
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_NUM_GPUS=0 not %t/par guard 2> %t/guard.err
// RUN: FileCheck --check-prefix=GUARD %s < %t/guard.err
// RUN: env CSS_CHECK_REGIONS=1 CSS_NUM_CPUS=1 CSS_NUM_GPUS=0 %t/par fits > %t/fits.out
// RUN: FileCheck --check-prefix=FITS %s < %t/fits.out
// HEAP: gpuss: error: {{.*}}region-past-the-end.c:[[#@LINE+32]]: task 'sum': region 0x{{[0-9a-f]+}}
// HEAP-SAME: (1008 bytes, access 0) reaches 8 bytes past the end of the 1000-byte block allocated at 0x
// GUARD: gpuss: error: {{.*}}region-past-the-end.c:[[#@LINE+30]]: task 'sum': copying region 0x{{[0-9a-f]+}}
// GUARD-SAME: (1008 bytes) from the host to sim0 faulted at 0x{{[0-9a-f]+}}: the region reaches memory
// GUARD-SAME: the program does not own (past the end of its allocation?)
// FITS: sum=125
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#pragma css task input(n, a[n]) output(total)
void sum(int n, const double *a, double *total) {
  *total = 0;
  for (int i = 0; i < n; i++)
    *total += a[i];
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "fits";
  double *a = malloc(125 * sizeof(double)); // 1000 bytes: malloc_usable_size too
  if (strcmp(mode, "guard") == 0) {
    // The last 125 doubles of a page, then a page no access may touch.
    long page = sysconf(_SC_PAGESIZE);
    char *two = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(two + page, page, PROT_NONE);
    a = (double *)(two + page - 125 * sizeof(double));
  }
  for (int i = 0; i < 125; i++)
    a[i] = 1;
  double total = 0;
  sum(strcmp(mode, "fits") == 0 ? 125 : 126, a, &total);
#pragma css barrier
  printf("sum=%g\n", total);
  return 0;
}
