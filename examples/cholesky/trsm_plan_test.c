/*
 * trsm_plan_test.c: replays the GPU trsm plan (trsm_plan.h) with CBLAS and
 * compares it with one CBLAS trsm, for block orders and leaf widths that
 * divide evenly and that do not. The CUDA body replays the same plan with
 * cuBLAS, so this checks its index arithmetic on machines without a GPU.
 */
#include "trsm_plan.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double pseudo_random(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return (double)(*state >> 8) / (double)(1u << 24) - 0.5;
}

/* B := B * T^-T by the plan, T and B column-major with leading dimension ld. */
static void replay(const struct chol_trsm_step *steps, int count, int order, const double *T, double *B) {
  for (int s = 0; s < count; s++) {
    const struct chol_trsm_step *step = &steps[s];
    double *columns = B + (long)step->col * order;
    if (step->op == CHOL_TRSM_SOLVE)
      cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, order, step->width, 1.0,
                  T + (long)step->col * order + step->col, order, columns, order);
    else
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, order, step->width, step->kwidth, -1.0,
                  B + (long)step->k * order, order, T + (long)step->k * order + step->col, order, 1.0,
                  columns, order);
  }
}

static int check(int order, int leaf) {
  enum { capacity = 1024 };
  struct chol_trsm_step steps[capacity];
  int count = chol_trsm_plan(order, leaf, steps, capacity);
  int effective_leaf = leaf <= 0 || leaf > order ? order : leaf;
  if (count <= 0 || count >= 4 * order / effective_leaf + 2) {
    fprintf(stderr, "order %d leaf %d: %d steps\n", order, leaf, count);
    return 1;
  }
  /* Every column is solved exactly once, by a solve no wider than the leaf. */
  int *solved = calloc((size_t)order, sizeof(int));
  for (int s = 0; s < count; s++)
    if (steps[s].op == CHOL_TRSM_SOLVE) {
      if (steps[s].width > effective_leaf) {
        fprintf(stderr, "order %d leaf %d: a solve of %d columns\n", order, leaf, steps[s].width);
        return 1;
      }
      for (int c = steps[s].col; c < steps[s].col + steps[s].width; c++)
        solved[c]++;
    }
  for (int c = 0; c < order; c++)
    if (solved[c] != 1) {
      fprintf(stderr, "order %d leaf %d: column %d solved %d times\n", order, leaf, c, solved[c]);
      return 1;
    }
  free(solved);

  size_t elements = (size_t)order * order;
  double *T = malloc(sizeof(double) * elements), *B = malloc(sizeof(double) * elements),
         *reference = malloc(sizeof(double) * elements);
  unsigned state = (unsigned)(order * 131 + leaf);
  for (size_t e = 0; e < elements; e++) {
    T[e] = pseudo_random(&state);
    B[e] = pseudo_random(&state);
  }
  for (int d = 0; d < order; d++)
    T[(long)d * order + d] = 2.0 + order / 8.0; /* well conditioned */
  memcpy(reference, B, sizeof(double) * elements);
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, order, order, 1.0, T, order,
              reference, order);
  replay(steps, count, order, T, B);
  double difference = 0, largest = 0;
  for (size_t e = 0; e < elements; e++) {
    difference = fmax(difference, fabs(B[e] - reference[e]));
    largest = fmax(largest, fabs(reference[e]));
  }
  free(T);
  free(B);
  free(reference);
  double relative = difference / largest;
  printf("order %4d leaf %4d: %3d steps, max relative difference %.2e\n", order, leaf, count, relative);
  return relative < 1e-13 ? 0 : 1;
}

int main(void) {
  static const int cases[][2] = {{256, 32}, {256, 64}, {256, 256}, {256, 0}, {200, 48},  {300, 37},
                                 {97, 8},   {64, 200}, {512, 64},  {1, 1},   {2048, 256}};
  int failures = 0;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    failures += check(cases[c][0], cases[c][1]);
  if (failures) fprintf(stderr, "trsm_plan_test: %d case(s) failed\n", failures);
  return failures ? 1 : 0;
}
