/*
 * swap_plan.h: one panel's row interchanges as a set of independent row
 * moves, for the GPU swap kernels (kernels_cuda.cu). Plain C that nvcc also
 * compiles for the device; swap_plan_test.c replays it on the host against
 * LAPACKE's laswp.
 *
 * Step k's panel picks, for each of its nb rows r (global row row0 + r), a
 * pivot row ipiv[r] - 1 >= row0 + r (ipiv 1-based and global, as LAPACK's
 * dgetrf leaves it). LAPACK's laswp applies the interchanges in order,
 * r = 0 .. nb-1, to the other block columns: rows row0 + r and ipiv[r] - 1
 * trade places. A row can move more than once (an interchange may take away
 * the row an earlier one brought), so a GPU thread that applies them one
 * after another to its column makes nb dependent trips to memory. The plan
 * replays the interchanges on row numbers alone, once, and ends with at most
 * 2 nb moves "row dst gets the value row src had before", independent of each
 * other: a kernel reads every source, then writes every destination, for all
 * columns at once.
 *
 * Only interchanges whose pivot row lies in [lo, hi) are planned:
 *   [row0, row0 + nb)   those within the diagonal tile row (lu_?laswp_tile)
 *   a tile further down those between the diagonal tile row and that tile
 *                       (lu_?swap_tiles)
 *   [row0, row0 + m)    all of them (lu_?laswp_column)
 * Doing the first set, then each lower tile's set in any order, is the same as
 * doing all in order (docs/lu.md gives the argument), which is what lets the
 * example swap rows with tile tasks.
 */
#ifndef LU_SWAP_PLAN_H
#define LU_SWAP_PLAN_H

#ifdef __CUDACC__
#define SWAP_PLAN_FN __host__ __device__ static inline
#else
#define SWAP_PLAN_FN static inline
#endif

/* The last interchange before r with the same pivot row, or -1 if none: a
 * pivot row below the diagonal tile row holds, when r comes, whatever that
 * interchange left there. O(r); on the GPU one thread per r. */
SWAP_PLAN_FN int lu_swap_previous(const int *ipiv, int r) {
  for (int q = r - 1; q >= 0; q--)
    if (ipiv[q] == ipiv[r]) return q;
  return -1;
}

/*
 * Plans the interchanges r = 0 .. nb-1 whose pivot row lies in [lo, hi).
 * prev[r] = lu_swap_previous(ipiv, r) wherever ipiv[r] - 1 >= row0 + nb
 * (other entries are not read); cur and dep are scratch of nb ints each.
 * Writes the moves, as global row numbers, into src[] and dst[] (room for
 * 2 nb each) and returns how many there are. No row is a destination twice,
 * nor a source twice.
 */
SWAP_PLAN_FN int lu_swap_plan(const int *ipiv, int nb, int row0, int lo, int hi, const int *prev, int *cur,
                              int *dep, int *src, int *dst) {
  /* cur[t]: the row whose value row row0 + t (of the diagonal tile row) holds
   * by now. dep[r]: the row whose value interchange r left in its pivot row
   * below the tile row, until a later interchange with that pivot row takes
   * it away; -1 otherwise. */
  for (int t = 0; t < nb; t++) {
    cur[t] = row0 + t;
    dep[t] = -1;
  }
  for (int r = 0; r < nb; r++) {
    const int p = ipiv[r] - 1;
    if (p < lo || p >= hi || p == row0 + r) continue;
    if (p < row0 + nb) { /* both rows in the diagonal tile row */
      const int held = cur[r];
      cur[r] = cur[p - row0];
      cur[p - row0] = held;
    } else {
      /* Row p holds its own value, or what the last interchange with p left
       * there, which now comes up to row0 + r and is no longer p's. */
      const int q = prev[r];
      const int held = q < 0 ? p : dep[q];
      if (q >= 0) dep[q] = -1;
      dep[r] = cur[r];
      cur[r] = held;
    }
  }
  int count = 0;
  for (int t = 0; t < nb; t++)
    if (cur[t] != row0 + t) {
      src[count] = cur[t];
      dst[count] = row0 + t;
      count++;
    }
  for (int r = 0; r < nb; r++)
    if (dep[r] >= 0) {
      src[count] = dep[r];
      dst[count] = ipiv[r] - 1;
      count++;
    }
  return count;
}

/*
 * For a range below the diagonal tile row (lo >= row0 + nb, as for the lower
 * tiles of lu_?swap_tiles) and no wider than nb rows: first[p - lo] and
 * last[p - lo] become the first and the last interchange whose pivot row is
 * p, for each p in [lo, hi), or nb and -1 where none is. On the GPU, threads
 * fill them with atomicMin and atomicMax instead.
 */
SWAP_PLAN_FN void lu_swap_ends_below(const int *ipiv, int nb, int lo, int hi, int *first, int *last) {
  for (int i = 0; i < hi - lo; i++) {
    first[i] = nb;
    last[i] = -1;
  }
  for (int r = 0; r < nb; r++) {
    const int p = ipiv[r] - 1;
    if (p < lo || p >= hi) continue;
    if (r < first[p - lo]) first[p - lo] = r;
    if (r > last[p - lo]) last[p - lo] = r;
  }
}

/*
 * The moves interchange r contributes to the plan of such a range, given
 * first and last (lu_swap_ends_below): written into src[] and dst[] (room
 * for 2), and how many (0, 1 or 2). Together, in any order, the moves of
 * r = 0 .. nb-1 are the moves lu_swap_plan gives, so one GPU thread per
 * interchange can plan them: O(1) per thread, and O(nb) only for a pivot row
 * taken more than once, against lu_swap_plan's O(nb) on one thread (about
 * 0.2 ms at nb = 2048 on an H100, per task).
 *
 * Why: no interchange within the diagonal tile row is in the range, so row
 * row0 + r still holds its own value when interchange r comes. Row row0 + r
 * then receives what its pivot row p holds: p's own value if r is the first
 * interchange with that pivot row, else what the previous one, q, left
 * there, which was row row0 + q's. The last interchange with pivot row p
 * leaves row row0 + r's value in p for good.
 */
SWAP_PLAN_FN int lu_swap_moves_below(const int *ipiv, int nb, int row0, int lo, int hi, const int *first,
                                     const int *last, int r, int *src, int *dst) {
  const int p = ipiv[r] - 1;
  if (p < lo || p >= hi || p < row0 + nb) return 0;
  const int q = first[p - lo] == r ? -1 : lu_swap_previous(ipiv, r);
  src[0] = q < 0 ? p : row0 + q;
  dst[0] = row0 + r;
  if (last[p - lo] != r) return 1;
  src[1] = row0 + r;
  dst[1] = p;
  return 2;
}

#endif /* LU_SWAP_PLAN_H */
