/*
 * Implicit finish at exit: this program submits tasks through the C API and
 * returns from main without css_finish or css_barrier. The runtime must
 * finish by itself at exit, leaving every result in user memory.
 *
 * check_results is registered with atexit before the first css_submit, so it
 * runs after the runtime's own exit handler (atexit handlers run in reverse
 * order). It prints "implicit-finish: PASS" or "implicit-finish: FAIL ...",
 * which CTest matches.
 */
#define _POSIX_C_SOURCE 199309L
#include "gpuss.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BLOCKS = 64, BLOCK = 64, CHAIN = 200 };

static uint32_t data[BLOCKS * BLOCK];
static uint64_t counter;

static void nap(long microseconds) {
  struct timespec ts = {0, microseconds * 1000L};
  nanosleep(&ts, NULL);
}

static void fill_block(void *args, const css_task_env *env) {
  uint32_t block;
  block = *(const uint32_t *)args;
  nap(2000);
  uint32_t *out = (uint32_t *)env->addresses[0];
  for (uint32_t k = 0; k < BLOCK; ++k)
    out[k] = block * 1000u + k;
}

static void step(void *args, const css_task_env *env) {
  uint32_t i = *(const uint32_t *)args;
  uint64_t *c = (uint64_t *)env->addresses[0];
  if (i % 50 == 0) nap(5000);
  *c = *c * 3u + i;
}

static void check_results(void) {
  int bad = 0;
  for (uint32_t b = 0; b < BLOCKS; ++b)
    for (uint32_t k = 0; k < BLOCK; ++k)
      if (data[b * BLOCK + k] != b * 1000u + k) {
        if (bad++ < 5)
          printf("implicit-finish: FAIL data[%u] = %u, expected %u\n", b * BLOCK + k, data[b * BLOCK + k],
                 b * 1000u + k);
      }
  uint64_t expected = 0;
  for (uint32_t i = 0; i < CHAIN; ++i)
    expected = expected * 3u + i;
  if (counter != expected) {
    printf("implicit-finish: FAIL counter = %llu, expected %llu\n", (unsigned long long)counter,
           (unsigned long long)expected);
    ++bad;
  }
  if (bad == 0) printf("implicit-finish: PASS\n");
  fflush(stdout);
}

int main(void) {
  atexit(check_results); /* before the runtime starts: runs after its exit handler */
  for (uint32_t b = 0; b < BLOCKS; ++b) {
    css_access access = {css_contiguous(&data[b * BLOCK], BLOCK * sizeof(uint32_t)), CSS_OUT,
                         CSS_COPY_DEFAULT, 0};
    css_task_desc desc = {GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0,        1,       &access, fill_block, &b,
                          sizeof b,          "fill_block",   __FILE__, __LINE__};
    css_submit(&desc);
  }
  for (uint32_t i = 0; i < CHAIN; ++i) {
    css_access access = {css_contiguous(&counter, sizeof counter), CSS_INOUT, CSS_COPY_DEFAULT, 0};
    css_task_desc desc = {GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0,        1,       &access, step, &i,
                          sizeof i,          "step",         __FILE__, __LINE__};
    css_submit(&desc);
  }
  return 0; /* no css_finish: the runtime finishes at exit */
}
