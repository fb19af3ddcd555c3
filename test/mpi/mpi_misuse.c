/*
 * mpi_misuse: each misuse of the MPI layer ends the program with a
 * `gpuss: error:` naming the call or task and its file:line (docs/mpi.md).
 *
 *   [mpirun -np 2] mpi_misuse MODE
 *
 * Modes that need two ranks run under mpirun; the others run alone (one
 * rank). Without the misuse the program prints "mpi-misuse: no error" and
 * exits 0, which the tests count as a failure.
 */
#include "gpuss.h"
#include "gpuss_mpi.h"

#include <stdio.h>
#include <string.h>

static void body(void *args, const css_task_env *env) {
  (void)args;
  for (uint32_t i = 0; i < env->num_accesses; i++)
    if (env->accesses[i].direction != CSS_IN) ((int *)env->addresses[i])[0] += 1;
}

static void task(int *a, css_direction da, int *b, css_direction db, int line) {
  css_access accesses[2] = {{css_contiguous(a, 64 * sizeof(int)), (uint32_t)da, 0, 0},
                            {css_contiguous(b, 64 * sizeof(int)), (uint32_t)db, 0, 0}};
  css_task_desc desc = {GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0,   b ? 2u : 1u, accesses, body, NULL, 0,
                        "misuse_task",     __FILE__,       line};
  css_submit(&desc);
}

static void declare_in_body(void *args, const css_task_env *env) {
  (void)args;
  css_mpi_owner(env->addresses[0], 64 * sizeof(int), 0);
}

int main(int argc, char **argv) {
  static int a[64], b[64], c[128];
  const char *mode = argc > 1 ? argv[1] : "";
  int size = css_mpi_init(), rank = css_mpi_rank();
  css_mpi_owner(a, sizeof a, 0);
  css_mpi_owner(b, sizeof b, size - 1);
  if (strcmp(mode, "two-owners") == 0) {
    task(a, CSS_INOUT, b, CSS_INOUT, __LINE__); /* a is rank 0's, b rank 1's */
  } else if (strcmp(mode, "undeclared") == 0) {
    task(c, CSS_INOUT, NULL, CSS_IN, __LINE__);
  } else if (strcmp(mode, "cuts-through") == 0) {
    css_mpi_owner(c, 64 * sizeof(int), 0);
    task(c + 32, CSS_IN, NULL, CSS_IN, __LINE__); /* half in the datum, half outside */
  } else if (strcmp(mode, "owner-out-of-range") == 0) {
    css_mpi_owner(c, sizeof c, size);
  } else if (strcmp(mode, "grid-too-large") == 0) {
    void *tiles[4] = {a, b, c, c + 64};
    css_mpi_block_cyclic(tiles, 2, 2, 2, 64 * sizeof(int), 2, size + 1);
  } else if (strcmp(mode, "lost-value") == 0) {
    task(a, CSS_INOUT, NULL, CSS_IN, __LINE__); /* computed on rank 0 */
    css_barrier();
    css_mpi_owner(a, sizeof a, 1); /* rank 1 lacks the value: css_mpi_gather first */
  } else if (strcmp(mode, "ranks-differ") == 0) {
    if (rank == 0) task(a, CSS_INOUT, NULL, CSS_IN, __LINE__); /* a call only rank 0 makes */
    css_barrier();
  } else if (strcmp(mode, "in-a-task") == 0) {
    css_access access = {css_contiguous(a, sizeof a), CSS_INOUT, 0, 0};
    css_task_desc desc = {GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0,       1, &access, declare_in_body, NULL, 0,
                          "declares",        __FILE__,       __LINE__};
    css_submit(&desc);
  } else {
    fprintf(stderr, "usage: mpi_misuse two-owners|undeclared|cuts-through|owner-out-of-range|grid-too-large|"
                    "lost-value|ranks-differ|in-a-task\n");
    return 2;
  }
  css_barrier();
  printf("mpi-misuse: no error\n");
  return 0;
}
