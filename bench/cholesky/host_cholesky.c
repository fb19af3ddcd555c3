/*
 * host_cholesky.c: the host baseline of the Cholesky benchmark, LAPACKE_dpotrf
 * (OpenBLAS, all its threads) on the whole n x n matrix in host memory.
 *
 *   host_cholesky -n N [--reps R]
 *
 * Prints the best of R runs:
 *   vendor=openblas n=<n> gpus=0 prec=d seconds=<t> gflops=<g>
 * or `... status=skipped reason=host_memory` when the matrix does not fit.
 */
#define _POSIX_C_SOURCE 200809L
#include "spd_matrix.h"

#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  long n = 8192;
  int reps = 1;
  for (int a = 1; a + 1 < argc; a += 2) {
    if (strcmp(argv[a], "-n") == 0)
      n = atol(argv[a + 1]);
    else if (strcmp(argv[a], "--reps") == 0)
      reps = atoi(argv[a + 1]);
    else {
      fprintf(stderr, "usage: host_cholesky -n N [--reps R]\n");
      return 2;
    }
  }
  if (n <= 0 || reps <= 0 || argc % 2 == 0) {
    fprintf(stderr, "usage: host_cholesky -n N [--reps R]\n");
    return 2;
  }

  size_t bytes = sizeof(double) * (size_t)n * (size_t)n;
  size_t available = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
  double *a = bytes + ((size_t)1 << 30) < available ? malloc(bytes) : NULL;
  if (a == NULL) {
    printf("vendor=openblas n=%ld gpus=0 prec=d status=skipped reason=host_memory\n", n);
    return 0;
  }
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    for (long c = 0; c < n; c++)
      for (long r = 0; r < n; r++)
        a[c * n + r] = spd_element(r, c, n);
    double start = now_seconds();
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)n, a, (lapack_int)n);
    double seconds = now_seconds() - start;
    if (info != 0) {
      fprintf(stderr, "host_cholesky: dpotrf info=%d\n", (int)info);
      return 1;
    }
    if (seconds < best) best = seconds;
  }
  printf("vendor=openblas n=%ld gpus=0 prec=d seconds=%.6f gflops=%.2f\n", n, best,
         (double)n * n * n / 3.0 / best / 1e9);
  free(a);
  return 0;
}
