/*
 * trsm_plan.h: the GPU trsm task body as a sequence of smaller cuBLAS calls.
 *
 * The trsm task computes B := B * T^-T for a TS x TS block B and the lower
 * triangular diagonal block T. cuBLAS's trsm on one large block runs far
 * below its gemm (7.6 against 54 TFLOP/s on an H200 at TS = 2048), so the
 * body splits the solve recursively by columns: with T = [T11 0; T21 T22]
 * and B = [B1 B2],
 *
 *   X1 = B1 * T11^-T            (the same solve, half the size)
 *   B2 = B2 - X1 * T21^T        (a gemm)
 *   X2 = B2 * T22^-T            (the same solve, half the size)
 *
 * down to solves of at most `leaf` columns. Most of the flops then run in
 * gemm. The task, its data and the blocked algorithm are unchanged: this is
 * how the body of one task computes its block.
 *
 * The plan depends only on TS and the leaf size, so it is plain data that the
 * CUDA body replays with cuBLAS and a host test replays with CBLAS.
 */
#ifndef CHOLESKY_TRSM_PLAN_H
#define CHOLESKY_TRSM_PLAN_H

enum chol_trsm_op {
  CHOL_TRSM_SOLVE, /* B[:, col:col+width] := B[:, col:col+width] * T[col.., col..]^-T */
  CHOL_TRSM_UPDATE /* B[:, col:col+width] -= B[:, k:k+kwidth] * T[col:col+width, k:k+kwidth]^T */
};

struct chol_trsm_step {
  enum chol_trsm_op op;
  int col, width; /* the columns of B it writes */
  int k, kwidth;  /* CHOL_TRSM_UPDATE: the solved columns it reads */
};

/* Appends the steps that solve columns [col, col + width) to steps[*count];
 * returns 0 if they would exceed `capacity`. */
static inline int chol_trsm_plan_range(int col, int width, int leaf, struct chol_trsm_step *steps, int *count,
                                       int capacity) {
  if (width <= leaf) {
    if (*count >= capacity) return 0;
    struct chol_trsm_step solve = {CHOL_TRSM_SOLVE, col, width, 0, 0};
    steps[(*count)++] = solve;
    return 1;
  }
  int half = width / 2;
  if (!chol_trsm_plan_range(col, half, leaf, steps, count, capacity)) return 0;
  if (*count >= capacity) return 0;
  struct chol_trsm_step update = {CHOL_TRSM_UPDATE, col + half, width - half, col, half};
  steps[(*count)++] = update;
  return chol_trsm_plan_range(col + half, width - half, leaf, steps, count, capacity);
}

/* The plan for a block of `order` columns: leaves are over leaf / 2 wide,
 * so there are fewer than 4 * order / leaf + 2 steps. leaf <= 0 or leaf >= order gives the single solve of
 * the plain cuBLAS call. Returns the number of steps, or 0 if `capacity` is too small. */
static inline int chol_trsm_plan(int order, int leaf, struct chol_trsm_step *steps, int capacity) {
  int count = 0;
  if (leaf <= 0 || leaf > order) leaf = order;
  return chol_trsm_plan_range(0, order, leaf, steps, &count, capacity) ? count : 0;
}

#endif /* CHOLESKY_TRSM_PLAN_H */
