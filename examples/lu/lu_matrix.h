/*
 * lu_matrix.h: the test matrix of the LU example, for C and CUDA (the
 * example's fill and check, and bench/lu's vendor program, which generates it
 * on the GPU), so that every implementation factors the same matrix.
 *
 * A(i, j) is a hash of the ordered pair (i, j), uniform in [-0.5, 0.5). Such
 * a random matrix is what partial pivoting is for: the largest entry of a
 * column is almost never on the diagonal, so nearly every step of every panel
 * swaps rows, and the swaps are exercised everywhere (a diagonally dominant
 * matrix would need none). Its condition number grows about as n, and LU with
 * partial pivoting is backward stable on it (small growth), so the residual
 * |PA - LU| / (|A| n eps) measures the implementation, not the matrix.
 */
#ifndef LU_MATRIX_H
#define LU_MATRIX_H

#include <stdint.h>

#ifdef __CUDACC__
#define LU_MATRIX_FN __host__ __device__ static inline
#else
#define LU_MATRIX_FN static inline
#endif

/* splitmix64's finaliser (as in examples/potri): every output bit depends on
 * every input bit, so neighbouring (i, j) give unrelated values. */
LU_MATRIX_FN uint64_t lu_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* Element (i, j), 0 <= i, j < 2^31: the top 53 bits of the hash as a double
 * in [0, 1), shifted to [-0.5, 0.5). */
LU_MATRIX_FN double lu_element(int64_t i, int64_t j) {
  uint64_t key = ((uint64_t)i << 32) | (uint64_t)j;
  return (double)(lu_mix64(key) >> 11) * 0x1.0p-53 - 0.5;
}

#endif /* LU_MATRIX_H */
