/*
 * spd_matrix.h: the test matrix of the Cholesky benchmark, for C and CUDA.
 *
 * The same function as cholesky_generate() of examples/cholesky, so that
 * every implementation factors the same matrix: a hash of the unordered pair
 * {i, j} in [-0.5, 0.5), plus 2 sqrt(n) on the diagonal (SPD, condition
 * number near 2).
 */
#ifndef GPUSS_BENCH_SPD_MATRIX_H
#define GPUSS_BENCH_SPD_MATRIX_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define SPD_FN __host__ __device__ static inline
#else
#define SPD_FN static inline
#endif

SPD_FN uint64_t spd_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

SPD_FN double spd_element(int64_t i, int64_t j, int64_t n) {
  uint64_t lo = (uint64_t)(i < j ? i : j), hi = (uint64_t)(i < j ? j : i);
  double value = (double)(spd_mix64((hi << 32) | lo) >> 11) * 0x1.0p-53 - 0.5;
  return i == j ? value + 2.0 * sqrt((double)n) : value;
}

#endif /* GPUSS_BENCH_SPD_MATRIX_H */
