/*
 * kernels_host.c: the host task bodies of the Cholesky example (Figure 2 of
 * the paper): thin wrappers over LAPACKE and CBLAS on one TS x TS block.
 *
 * potrf always runs here. trsm, syrk, gemm, trtri and trmm run here only in
 * the host-only build; the CUDA build takes them from kernels_cuda.cu instead.
 */
#include "cholesky_tasks.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- the test matrix */

/* splitmix64's finaliser: a cheap hash whose output bits are all well mixed. */
static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double cholesky_generate(long i, long j, long n) {
  uint64_t lo = (uint64_t)(i < j ? i : j), hi = (uint64_t)(i < j ? j : i);
  double value = (double)(mix64((hi << 32) | lo) >> 11) * 0x1.0p-53 - 0.5; /* [-0.5, 0.5) */
  /* The off-diagonal part is a random symmetric matrix with entries of
   * variance 1/12, whose eigenvalues lie within +-0.58 sqrt(n) (Wigner's
   * semicircle). Adding 2 sqrt(n) to the diagonal makes A SPD with a condition
   * number near 2. A shift of n (diagonal dominance) would be SPD by
   * Gershgorin too, but it makes the trailing updates so small against the
   * diagonal that the check could not tell a missing update in single
   * precision from rounding. */
  return i == j ? value + 2.0 * sqrt((double)n) : value;
}

void chol_dinit(double *A, int bi, int bj, int n) {
  long row0 = (long)bi * TS, col0 = (long)bj * TS;
  for (long c = 0; c < TS; c++)
    for (long r = 0; r < TS; r++)
      A[c * TS + r] = cholesky_generate(row0 + r, col0 + c, n);
}

void chol_sinit(float *A, int bi, int bj, int n) {
  long row0 = (long)bi * TS, col0 = (long)bj * TS;
  for (long c = 0; c < TS; c++)
    for (long r = 0; r < TS; r++)
      A[c * TS + r] = (float)cholesky_generate(row0 + r, col0 + c, n);
}

/* ---------------------------------------------------------------- LAPACK potrf wrappers */

/* A task cannot return an error, so a failure is reported here; the
 * residual check then fails too. */
void chol_spotrf(float *A) {
  lapack_int info = LAPACKE_spotrf(LAPACK_COL_MAJOR, 'L', TS, A, TS);
  if (info != 0) fprintf(stderr, "chol_spotrf: LAPACKE_spotrf failed, info=%d\n", (int)info);
}

void chol_dpotrf(double *A) {
  lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', TS, A, TS);
  if (info != 0) fprintf(stderr, "chol_dpotrf: LAPACKE_dpotrf failed, info=%d\n", (int)info);
}

/* ---------------------------------------------------------------- BLAS wrappers (host-only build) */

#ifndef GPUSS_CHOLESKY_CUDA

void chol_strsm(float *T, float *B) {
  cblas_strsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, TS, TS, 1.0f, T, TS, B, TS);
}

void chol_dtrsm(double *T, double *B) {
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, TS, TS, 1.0, T, TS, B, TS);
}

void chol_ssyrk(float *A, float *C) {
  cblas_ssyrk(CblasColMajor, CblasLower, CblasNoTrans, TS, TS, -1.0f, A, TS, 1.0f, C, TS);
}

void chol_dsyrk(double *A, double *C) {
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, TS, TS, -1.0, A, TS, 1.0, C, TS);
}

void chol_sgemm(float *A, float *B, float *C) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, TS, TS, TS, -1.0f, A, TS, B, TS, 1.0f, C, TS);
}

void chol_dgemm(double *A, double *B, double *C) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, TS, TS, TS, -1.0, A, TS, B, TS, 1.0, C, TS);
}

/* The inverse of a lower triangle, in W (--inverse-trsm). LAPACK inverts in
 * place, so the factor is copied first; its upper triangle comes along and is
 * never read. */
void chol_strtri(float *T, float *W) {
  memcpy(W, T, sizeof(float) * (size_t)TS * TS);
  lapack_int info = LAPACKE_strtri(LAPACK_COL_MAJOR, 'L', 'N', TS, W, TS);
  if (info != 0) fprintf(stderr, "chol_strtri: LAPACKE_strtri failed, info=%d\n", (int)info);
}

void chol_dtrtri(double *T, double *W) {
  memcpy(W, T, sizeof(double) * (size_t)TS * TS);
  lapack_int info = LAPACKE_dtrtri(LAPACK_COL_MAJOR, 'L', 'N', TS, W, TS);
  if (info != 0) fprintf(stderr, "chol_dtrtri: LAPACKE_dtrtri failed, info=%d\n", (int)info);
}

void chol_strmm(float *W, float *B) {
  cblas_strmm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, TS, TS, 1.0f, W, TS, B, TS);
}

void chol_dtrmm(double *W, double *B) {
  cblas_dtrmm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, TS, TS, 1.0, W, TS, B, TS);
}

#endif /* !GPUSS_CHOLESKY_CUDA */
