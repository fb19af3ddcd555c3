/*
 * swap_plan_test.c: the GPU swap kernels' plan (swap_plan.h), replayed on
 * the host against LAPACKE's laswp, with no GPU.
 *
 * For pivots drawn at random (spread over the block column, crowded into a
 * few rows so that one row is taken several times, all within the diagonal
 * tile row, none moving), on a block of m rows with padding between the
 * columns: applying the plan of the whole range, applying the tile row's
 * plan then each lower tile's (in reverse order, since they commute), and the
 * same with each lower tile's plan made per interchange as the GPU makes it
 * (lu_swap_moves_below), must all give exactly what laswp gives.
 */
#include "swap_plan.h"

#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { cols = 3, padding = 5 };

static unsigned long long state = 88172645463325252ULL;
static unsigned next_random(void) { /* xorshift64 */
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (unsigned)(state >> 11);
}

static int broken_plans; /* plans with a row twice a destination or twice a source */

/* The moves of one plan applied to the block: every source read, then every
 * destination written. Rows are global; the block starts at row0. A kernel
 * does the writes at once, in no order, so the plan must not name a row
 * twice as a destination (nor, being a permutation, twice as a source). */
static void apply_moves(double *block, int lda, int row0, const int *src, const int *dst, int count) {
  for (int i = 0; i < count; i++)
    for (int j = 0; j < i; j++)
      if (dst[i] == dst[j] || src[i] == src[j]) {
        broken_plans++;
        i = j = count; /* once per plan */
      }
  double *values = malloc(sizeof(double) * (size_t)(count > 0 ? count : 1));
  for (int c = 0; c < cols; c++) {
    double *column = block + (size_t)c * lda - row0;
    for (int i = 0; i < count; i++)
      values[i] = column[src[i]];
    for (int i = 0; i < count; i++)
      column[dst[i]] = values[i];
  }
  free(values);
}

/* The plan of [lo, hi) as one thread makes it (lu_swap_plan), applied. */
static void apply(double *block, int lda, int row0, const int *ipiv, int nb, int lo, int hi) {
  int *prev = malloc(sizeof(int) * nb), *cur = malloc(sizeof(int) * nb), *dep = malloc(sizeof(int) * nb);
  int *src = malloc(sizeof(int) * 2 * nb), *dst = malloc(sizeof(int) * 2 * nb);
  for (int r = 0; r < nb; r++)
    prev[r] = ipiv[r] - 1 >= row0 + nb ? lu_swap_previous(ipiv, r) : -7; /* -7: must not be read */
  apply_moves(block, lda, row0, src, dst, lu_swap_plan(ipiv, nb, row0, lo, hi, prev, cur, dep, src, dst));
  free(prev), free(cur), free(dep), free(src), free(dst);
}

/* As apply(), for a range below the diagonal tile row, with the plan made
 * as the GPU makes it: each interchange's moves on their own
 * (lu_swap_moves_below), gathered last interchange first, since the GPU's
 * threads take their places in the plan in no particular order. */
static void apply_below(double *block, int lda, int row0, const int *ipiv, int nb, int lo, int hi) {
  int *src = malloc(sizeof(int) * 2 * nb), *dst = malloc(sizeof(int) * 2 * nb);
  int *first = malloc(sizeof(int) * (size_t)(hi - lo)), *last = malloc(sizeof(int) * (size_t)(hi - lo));
  lu_swap_ends_below(ipiv, nb, lo, hi, first, last);
  int count = 0;
  for (int r = nb - 1; r >= 0; r--)
    count += lu_swap_moves_below(ipiv, nb, row0, lo, hi, first, last, r, src + count, dst + count);
  apply_moves(block, lda, row0, src, dst, count);
  free(src), free(dst), free(first), free(last);
}

/* 0 when both ways match laswp; prints the case otherwise. */
static int one_case(const char *kind, int nb, int tiles, int row0) {
  const int m = nb * tiles, lda = m + padding;
  int *ipiv = malloc(sizeof(int) * nb);
  lapack_int *relative = malloc(sizeof(lapack_int) * nb);
  for (int r = 0; r < nb; r++) {
    int p; /* 0-based within the block, >= r */
    if (strcmp(kind, "spread") == 0)
      p = r + (int)(next_random() % (unsigned)(m - r));
    else if (strcmp(kind, "crowded") == 0) { /* a few rows below the tile, often the same */
      p = nb + (int)(next_random() % 3u) * (m > 2 * nb ? nb + 1 : 1);
      if (p >= m) p = m - 1;
      if (next_random() % 4 == 0) p = r + (int)(next_random() % (unsigned)(nb - r));
    } else if (strcmp(kind, "within") == 0)
      p = r + (int)(next_random() % (unsigned)(nb - r));
    else
      p = r; /* "none" */
    ipiv[r] = row0 + p + 1;
    relative[r] = p + 1;
  }
  const size_t size = (size_t)lda * cols;
  double *reference = malloc(sizeof(double) * size), *whole = malloc(sizeof(double) * size),
         *by_tiles = malloc(sizeof(double) * size), *by_threads = malloc(sizeof(double) * size);
  for (size_t e = 0; e < size; e++)
    reference[e] = whole[e] = by_tiles[e] = by_threads[e] = (double)e;
  LAPACKE_dlaswp_work(LAPACK_COL_MAJOR, cols, reference, lda, 1, nb, relative, 1);
  apply(whole, lda, row0, ipiv, nb, row0, row0 + m);
  apply(by_tiles, lda, row0, ipiv, nb, row0, row0 + nb);
  for (int t = tiles - 1; t >= 1; t--)
    apply(by_tiles, lda, row0, ipiv, nb, row0 + t * nb, row0 + (t + 1) * nb);
  apply(by_threads, lda, row0, ipiv, nb, row0, row0 + nb);
  for (int t = 1; t < tiles; t++)
    apply_below(by_threads, lda, row0, ipiv, nb, row0 + t * nb, row0 + (t + 1) * nb);
  int failed = memcmp(reference, whole, sizeof(double) * size) != 0 ? 1 : 0;
  failed |= memcmp(reference, by_tiles, sizeof(double) * size) != 0 ? 2 : 0;
  failed |= memcmp(reference, by_threads, sizeof(double) * size) != 0 ? 4 : 0;
  if (failed)
    printf("FAIL: %s pivots, nb=%d tiles=%d row0=%d:%s%s%s\n", kind, nb, tiles, row0,
           failed & 1 ? " the whole range differs from laswp" : "",
           failed & 2 ? " tile by tile differs from laswp" : "",
           failed & 4 ? " tile by tile, planned per interchange, differs from laswp" : "");
  free(ipiv), free(relative), free(reference), free(whole), free(by_tiles), free(by_threads);
  return failed != 0;
}

int main(void) {
  const char *kinds[] = {"spread", "crowded", "within", "none"};
  const int sizes[][2] = {{1, 1}, {1, 4}, {2, 3}, {4, 1}, {7, 5}, {16, 8}, {64, 3}, {128, 6}};
  int cases = 0, failures = 0;
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
      for (int rep = 0; rep < 20; rep++) {
        failures += one_case(kinds[k], sizes[s][0], sizes[s][1], rep % 2 ? 0 : 3 * sizes[s][0]);
        cases++;
      }
  if (broken_plans) printf("FAIL: %d plans name a row twice as a destination or as a source\n", broken_plans);
  failures += broken_plans;
  printf("swap_plan: %d cases, %d failures: %s\n", cases, failures, failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
