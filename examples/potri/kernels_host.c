/*
 * kernels_host.c: the host bodies of the SPD inverse example: thin wrappers
 * over LAPACKE and CBLAS on one TS x TS tile, and the test matrix.
 *
 * The diagonal-tile kernels (potrf, trtri, lauum) always exist here; the
 * CUDA build adds GPU variants of them (kernels_cuda.cu). The other kernels
 * run here only in the sequential and host-only builds; the CUDA build takes
 * them from kernels_cuda.cu.
 */
#include "potri_tasks.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- the test matrix */

/* splitmix64's finaliser: a cheap hash whose output bits are all well mixed. */
static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* The Cholesky example's matrix (and bench/cholesky/spd_matrix.h): a hash of
 * the unordered pair {i, j} in [-0.5, 0.5), plus 2 sqrt(n) on the diagonal.
 * The off-diagonal part is a random symmetric matrix whose eigenvalues lie
 * within +-0.58 sqrt(n), so A is SPD with a condition number near 2, and so
 * is A^-1: the check's residual then measures the kernels, not the matrix. */
double potri_generate(long i, long j, long n) {
  uint64_t lo = (uint64_t)(i < j ? i : j), hi = (uint64_t)(i < j ? j : i);
  double value = (double)(mix64((hi << 32) | lo) >> 11) * 0x1.0p-53 - 0.5; /* [-0.5, 0.5) */
  return i == j ? value + 2.0 * sqrt((double)n) : value;
}

/* ---------------------------------------------------------------- diagonal tiles (LAPACKE)
 *
 * A task cannot return an error, so a failure is reported here; the check
 * then fails too. */

void potri_spotrf(float *T) {
  lapack_int info = LAPACKE_spotrf(LAPACK_COL_MAJOR, 'L', TS, T, TS);
  if (info != 0) fprintf(stderr, "potri_spotrf: LAPACKE_spotrf failed, info=%d\n", (int)info);
}

void potri_dpotrf(double *T) {
  lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', TS, T, TS);
  if (info != 0) fprintf(stderr, "potri_dpotrf: LAPACKE_dpotrf failed, info=%d\n", (int)info);
}

void potri_strtri(float *T) {
  lapack_int info = LAPACKE_strtri(LAPACK_COL_MAJOR, 'L', 'N', TS, T, TS);
  if (info != 0) fprintf(stderr, "potri_strtri: LAPACKE_strtri failed, info=%d\n", (int)info);
}

void potri_dtrtri(double *T) {
  lapack_int info = LAPACKE_dtrtri(LAPACK_COL_MAJOR, 'L', 'N', TS, T, TS);
  if (info != 0) fprintf(stderr, "potri_dtrtri: LAPACKE_dtrtri failed, info=%d\n", (int)info);
}

void potri_slauum(float *T) {
  lapack_int info = LAPACKE_slauum(LAPACK_COL_MAJOR, 'L', TS, T, TS);
  if (info != 0) fprintf(stderr, "potri_slauum: LAPACKE_slauum failed, info=%d\n", (int)info);
}

void potri_dlauum(double *T) {
  lapack_int info = LAPACKE_dlauum(LAPACK_COL_MAJOR, 'L', TS, T, TS);
  if (info != 0) fprintf(stderr, "potri_dlauum: LAPACKE_dlauum failed, info=%d\n", (int)info);
}

/* ---------------------------------------------------------------- the other kernels (CBLAS, host builds) */

#ifndef GPUSS_POTRI_CUDA

void potri_strsm_rlt(float *T, float *B) {
  cblas_strsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, TS, TS, 1.0f, T, TS, B, TS);
}
void potri_dtrsm_rlt(double *T, double *B) {
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, TS, TS, 1.0, T, TS, B, TS);
}

void potri_ssyrk_ln(float *A, float *C) {
  cblas_ssyrk(CblasColMajor, CblasLower, CblasNoTrans, TS, TS, -1.0f, A, TS, 1.0f, C, TS);
}
void potri_dsyrk_ln(double *A, double *C) {
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, TS, TS, -1.0, A, TS, 1.0, C, TS);
}

void potri_sgemm_nt(float *A, float *B, float *C) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, TS, TS, TS, -1.0f, A, TS, B, TS, 1.0f, C, TS);
}
void potri_dgemm_nt(double *A, double *B, double *C) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, TS, TS, TS, -1.0, A, TS, B, TS, 1.0, C, TS);
}

void potri_strsm_rln(float *T, float *B) {
  cblas_strsm(CblasColMajor, CblasRight, CblasLower, CblasNoTrans, CblasNonUnit, TS, TS, -1.0f, T, TS, B, TS);
}
void potri_dtrsm_rln(double *T, double *B) {
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasNoTrans, CblasNonUnit, TS, TS, -1.0, T, TS, B, TS);
}

void potri_sgemm_nn(float *A, float *B, float *C) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, TS, TS, TS, 1.0f, A, TS, B, TS, 1.0f, C, TS);
}
void potri_dgemm_nn(double *A, double *B, double *C) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, TS, TS, TS, 1.0, A, TS, B, TS, 1.0, C, TS);
}

void potri_strsm_lln(float *T, float *B) {
  cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, TS, TS, 1.0f, T, TS, B, TS);
}
void potri_dtrsm_lln(double *T, double *B) {
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, TS, TS, 1.0, T, TS, B, TS);
}

void potri_ssyrk_lt(float *A, float *C) {
  cblas_ssyrk(CblasColMajor, CblasLower, CblasTrans, TS, TS, 1.0f, A, TS, 1.0f, C, TS);
}
void potri_dsyrk_lt(double *A, double *C) {
  cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, TS, TS, 1.0, A, TS, 1.0, C, TS);
}

void potri_sgemm_tn(float *A, float *B, float *C) {
  cblas_sgemm(CblasColMajor, CblasTrans, CblasNoTrans, TS, TS, TS, 1.0f, A, TS, B, TS, 1.0f, C, TS);
}
void potri_dgemm_tn(double *A, double *B, double *C) {
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, TS, TS, TS, 1.0, A, TS, B, TS, 1.0, C, TS);
}

void potri_strmm_llt(float *T, float *B) {
  cblas_strmm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, TS, TS, 1.0f, T, TS, B, TS);
}
void potri_dtrmm_llt(double *T, double *B) {
  cblas_dtrmm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, TS, TS, 1.0, T, TS, B, TS);
}

#endif /* !GPUSS_POTRI_CUDA */
