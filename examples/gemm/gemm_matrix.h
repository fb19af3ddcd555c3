/*
 * gemm_matrix.h: the test matrices of the GEMM example and its benchmark,
 * for C and CUDA (bench/gemm includes this file too, so that every
 * implementation multiplies the same matrices).
 *
 * Element (i, j) of matrix `which` (0 = A, 1 = B, 2 = the initial C) is a
 * hash of (which, i, j), uniform in [-0.5, 0.5). Random signs keep a lost or
 * repeated tile product visible in the check: it changes a tile of C by
 * about sqrt(TS) / 12 per entry, against entries of about sqrt(n) / 12.
 */
#ifndef GPUSS_GEMM_MATRIX_H
#define GPUSS_GEMM_MATRIX_H

#include <stdint.h>

#ifdef __CUDACC__
#define GEMM_FN __host__ __device__ static inline
#else
#define GEMM_FN static inline
#endif

/* splitmix64's finaliser: every output bit depends on every input bit. */
GEMM_FN uint64_t gemm_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* i, j < 2^31. */
GEMM_FN double gemm_element(int which, int64_t i, int64_t j) {
  uint64_t key = ((uint64_t)which << 62) ^ ((uint64_t)i << 31) ^ (uint64_t)j;
  return (double)(gemm_mix64(key) >> 11) * 0x1.0p-53 - 0.5;
}

#endif /* GPUSS_GEMM_MATRIX_H */
