// OmpSs programs include <omp.h> and call its routines: gpuss-cc puts
// GPUSs's omp.h first (without -fopenmp) and libgpuss implements it. Per-
// thread partial sums indexed by omp_get_thread_num() inside tasks must stay
// exact (each thread its own slot, every slot below omp_get_max_threads()),
// on host workers and on simulated devices, whose threads run bodies too;
// omp locks exclude; omp_get_wtime advances.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuss-cc -Wall %s -o %t/par
// RUN: printf 'total 33558528 locked 33558528 slots-ok 1 clock-ok 1\n' > %t/expected
// RUN: CSS_NUM_CPUS=3 timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_NUM_CPUS=1 CSS_SIM_DEVICES=3 timeout 60 %t/par | FileCheck %s
// RUN: CSS_NUM_CPUS=3 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=WARN %s
// CHECK: total 33558528 locked 33558528 slots-ok 1 clock-ok 1
// WARN: gpuss: warning: omp_set_num_threads(8) is ignored: CSS_NUM_CPUS sets GPUSs's host workers
#include <omp.h>
#include <stdio.h>

/* What an OmpSs compiler defines: programs call the omp routines under it. */
#if !defined(_OPENMP) || !defined(_OMPSS)
#error "_OPENMP and _OMPSS are not defined"
#endif
#include <stdlib.h>

#define N 8192
#define BS 256

static long *partial; /* one slot per thread */
static int max_threads;
static int slot_out_of_range;
static omp_lock_t lock;
static long locked_total;

#pragma omp task in(v[0;n])
void block_sum(int n, const long *v) {
  int me = omp_get_thread_num();
  if (me < 0 || me >= max_threads) {
    slot_out_of_range = 1;
    return;
  }
  for (int i = 0; i < n; i++) {
    partial[me] += v[i]; /* unguarded: correct only if no two threads share a slot */
    omp_set_lock(&lock);
    locked_total += v[i];
    omp_unset_lock(&lock);
  }
}

int main(void) {
  static long v[N];
  omp_set_num_threads(8);
  for (int i = 0; i < N; i++)
    v[i] = i + 1;
  max_threads = omp_get_max_threads();
  /* The program's thread runs a parallel region's code alone: work split
     by thread number and count is all its own. */
  if (omp_get_num_threads() != 1 || omp_get_thread_num() != 0)
    printf("program thread: %d of %d\n", omp_get_thread_num(), omp_get_num_threads());
  partial = calloc((size_t)max_threads, sizeof *partial);
  omp_init_lock(&lock);
  double t0 = omp_get_wtime();
  for (int round = 0; round < 1; round++)
    for (int b = 0; b < N; b += BS)
      block_sum(BS, &v[b]);
#pragma omp taskwait
  long total = 0;
  for (int t = 0; t < max_threads; t++)
    total += partial[t];
  omp_destroy_lock(&lock);
  printf("total %ld locked %ld slots-ok %d clock-ok %d\n", total, locked_total, !slot_out_of_range,
         omp_get_wtime() >= t0 && omp_get_wtick() > 0);
  free(partial);
  return 0;
}
