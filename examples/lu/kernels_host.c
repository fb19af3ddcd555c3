/*
 * kernels_host.c: the host bodies of the LU example: thin wrappers over
 * LAPACKE and CBLAS on strided parts of the column-major matrix (leading
 * dimension lda).
 *
 * The panel always exists here (the CUDA build adds lu_?panel_gpu). The
 * swaps, trsm and gemm, and the inversions and products of --inverse-trsm,
 * run here only in the sequential and host-only builds; the CUDA build takes
 * them from kernels_cuda.cu.
 */
#include "lu_tasks.h"

#include <cblas.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>

/* The tasks pass pivots as int (what cuSOLVER writes too); LAPACKE takes
 * lapack_int, which is int unless LAPACK was built with 64-bit integers. */
_Static_assert(sizeof(lapack_int) == sizeof(int), "the example needs LAPACKE with 32-bit integers");

/* ---------------------------------------------------------------- the panel (LAPACKE)
 *
 * A task cannot return an error, so a failure is reported here; the check
 * then fails too. info > 0 (an exactly zero pivot) leaves the factors
 * complete but U singular: reported, as LAPACK's dgetrf does. */

void lu_spanel(int m, int lda, float *P, int row0, int *ipiv) {
  lapack_int info = LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, m, NB, P, lda, ipiv);
  if (info != 0) fprintf(stderr, "lu_spanel: LAPACKE_sgetrf at row %d: info=%d\n", row0, (int)info);
  for (int r = 0; r < NB; r++) /* the panel's rows are rows row0 .. of the matrix */
    ipiv[r] += row0;
}

void lu_dpanel(int m, int lda, double *P, int row0, int *ipiv) {
  lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, NB, P, lda, ipiv);
  if (info != 0) fprintf(stderr, "lu_dpanel: LAPACKE_dgetrf at row %d: info=%d\n", row0, (int)info);
  for (int r = 0; r < NB; r++)
    ipiv[r] += row0;
}

/* ---------------------------------------------------------------- swaps, trsm, gemm (host builds) */

#ifndef GPUSS_LU_CUDA

/* The interchanges relative to a block's first row (1-based, as laswp takes
 * them): those whose pivot lies in [0, rows) of the block, the others made
 * no-ops (row r with itself), as is a pivot that no panel wrote (0). */
static lapack_int *relative_pivots(const int *ipiv, int row0, int rows) {
  lapack_int *local = malloc(sizeof(lapack_int) * (size_t)NB);
  if (local == NULL) {
    fprintf(stderr, "lu: out of memory for %d pivots\n", NB);
    exit(1);
  }
  for (int r = 0; r < NB; r++) {
    int p = ipiv[r] - 1 - row0;
    local[r] = p >= 0 && p < rows ? p + 1 : r + 1;
  }
  return local;
}

/* The bodies of laswp_tile and swap_tiles, which swap_group calls too.
 * Plain functions: a call of the task functions here would be a task. */
static void slaswp_within(int lda, float *U, int row0, const int *ipiv) {
  lapack_int *local = relative_pivots(ipiv, row0, NB);
  LAPACKE_slaswp_work(LAPACK_COL_MAJOR, NB, U, lda, 1, NB, local, 1);
  free(local);
}
static void dlaswp_within(int lda, double *U, int row0, const int *ipiv) {
  lapack_int *local = relative_pivots(ipiv, row0, NB);
  LAPACKE_dlaswp_work(LAPACK_COL_MAJOR, NB, U, lda, 1, NB, local, 1);
  free(local);
}

/* Row r of U (global row0 + r) with row p of B (global brow0 + p), in the
 * order of r, for the pivots that fall in B. */
static void sswap_below(int lda, float *U, float *B, int brow0, const int *ipiv) {
  for (int r = 0; r < NB; r++) {
    int p = ipiv[r] - 1 - brow0;
    if (p >= 0 && p < NB) cblas_sswap(NB, U + r, lda, B + p, lda);
  }
}
static void dswap_below(int lda, double *U, double *B, int brow0, const int *ipiv) {
  for (int r = 0; r < NB; r++) {
    int p = ipiv[r] - 1 - brow0;
    if (p >= 0 && p < NB) cblas_dswap(NB, U + r, lda, B + p, lda);
  }
}

void lu_slaswp_tile(int lda, float *U, int row0, const int *ipiv) {
  slaswp_within(lda, U, row0, ipiv);
}
void lu_dlaswp_tile(int lda, double *U, int row0, const int *ipiv) {
  dlaswp_within(lda, U, row0, ipiv);
}

void lu_sswap_tiles(int lda, float *U, float *B, int row0, int brow0, const int *ipiv) {
  (void)row0;
  sswap_below(lda, U, B, brow0, ipiv);
}
void lu_dswap_tiles(int lda, double *U, double *B, int row0, int brow0, const int *ipiv) {
  (void)row0;
  dswap_below(lda, U, B, brow0, ipiv);
}

void lu_sswap_group(int lda, float *U, float *B0, float *B1, float *B2, float *B3, float *B4, float *B5,
                    float *B6, float *B7, int row0, int brow0, int count, int within, const int *ipiv) {
  float *below[LU_SWAP_GROUP] = {B0, B1, B2, B3, B4, B5, B6, B7};
  if (within) slaswp_within(lda, U, row0, ipiv);
  for (int t = 0; t < count; t++)
    sswap_below(lda, U, below[t], brow0 + t * NB, ipiv);
}
void lu_dswap_group(int lda, double *U, double *B0, double *B1, double *B2, double *B3, double *B4,
                    double *B5, double *B6, double *B7, int row0, int brow0, int count, int within,
                    const int *ipiv) {
  double *below[LU_SWAP_GROUP] = {B0, B1, B2, B3, B4, B5, B6, B7};
  if (within) dlaswp_within(lda, U, row0, ipiv);
  for (int t = 0; t < count; t++)
    dswap_below(lda, U, below[t], brow0 + t * NB, ipiv);
}

/* One step's interchanges on rows row0 .. row0+m-1 of a block column (C
 * points to row0): the body of laswp_column, and of each step of laswp_left.
 * Plain functions: a call of the task functions here would be a task. */
static void slaswp_step(int m, int lda, float *C, int row0, const int *ipiv) {
  lapack_int *local = relative_pivots(ipiv, row0, m);
  LAPACKE_slaswp_work(LAPACK_COL_MAJOR, NB, C, lda, 1, NB, local, 1);
  free(local);
}
static void dlaswp_step(int m, int lda, double *C, int row0, const int *ipiv) {
  lapack_int *local = relative_pivots(ipiv, row0, m);
  LAPACKE_dlaswp_work(LAPACK_COL_MAJOR, NB, C, lda, 1, NB, local, 1);
  free(local);
}

void lu_slaswp_column(int m, int lda, float *C, int row0, const int *ipiv) {
  slaswp_step(m, lda, C, row0, ipiv);
}
void lu_dlaswp_column(int m, int lda, double *C, int row0, const int *ipiv) {
  dlaswp_step(m, lda, C, row0, ipiv);
}

void lu_slaswp_left(int m, int lda, float *P, int row0, const int *ipiv) {
  for (int k0 = NB; k0 < m; k0 += NB)
    slaswp_step(m - k0, lda, P + k0, row0 + k0, ipiv + k0);
}
void lu_dlaswp_left(int m, int lda, double *P, int row0, const int *ipiv) {
  for (int k0 = NB; k0 < m; k0 += NB)
    dlaswp_step(m - k0, lda, P + k0, row0 + k0, ipiv + k0);
}

void lu_strsm(int lda, const float *L, float *U) {
  cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, NB, NB, 1.0f, L, lda, U, lda);
}
void lu_dtrsm(int lda, const double *L, double *U) {
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, NB, NB, 1.0, L, lda, U, lda);
}

/* --inverse-trsm. The inverse: LAPACK inverts in place, so the tile is
 * copied first; trtri with a unit diagonal leaves the diagonal and the upper
 * part as the copy had them (U's), and the products read Linv as a plain
 * matrix, so they are set to 1 and 0. */
static void unit_lower_cleanup_s(float *Linv) {
  for (int c = 0; c < NB; c++) {
    for (int r = 0; r < c; r++)
      Linv[(size_t)c * NB + r] = 0;
    Linv[(size_t)c * NB + c] = 1;
  }
}
static void unit_lower_cleanup_d(double *Linv) {
  for (int c = 0; c < NB; c++) {
    for (int r = 0; r < c; r++)
      Linv[(size_t)c * NB + r] = 0;
    Linv[(size_t)c * NB + c] = 1;
  }
}

void lu_sinvert_diag(int lda, const float *L, float *Linv) {
  LAPACKE_slacpy_work(LAPACK_COL_MAJOR, 'A', NB, NB, L, lda, Linv, NB);
  lapack_int info = LAPACKE_strtri_work(LAPACK_COL_MAJOR, 'L', 'U', NB, Linv, NB);
  if (info != 0) fprintf(stderr, "lu_sinvert_diag: LAPACKE_strtri: info=%d\n", (int)info);
  unit_lower_cleanup_s(Linv);
}
void lu_dinvert_diag(int lda, const double *L, double *Linv) {
  LAPACKE_dlacpy_work(LAPACK_COL_MAJOR, 'A', NB, NB, L, lda, Linv, NB);
  lapack_int info = LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, 'L', 'U', NB, Linv, NB);
  if (info != 0) fprintf(stderr, "lu_dinvert_diag: LAPACKE_dtrtri: info=%d\n", (int)info);
  unit_lower_cleanup_d(Linv);
}

/* The product as the GPU body forms it: a gemm with the whole of Linv into a
 * temporary, copied back. A trmm (Lower, Unit) in place would do, but would
 * read only Linv's strict lower part: the tests on the host then could not
 * see a bad diagonal or upper part, which the GPU's gemm reads. */
static void *product_buffer(size_t elem) {
  void *T = malloc(elem * (size_t)NB * NB);
  if (T == NULL) {
    fprintf(stderr, "lu: out of memory for a %d x %d product\n", NB, NB);
    exit(1);
  }
  return T;
}

void lu_strsm_inv(int lda, const float *Linv, float *U) {
  float *T = product_buffer(sizeof(float));
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, NB, NB, NB, 1.0f, Linv, NB, U, lda, 0.0f, T, NB);
  LAPACKE_slacpy_work(LAPACK_COL_MAJOR, 'A', NB, NB, T, NB, U, lda);
  free(T);
}
void lu_dtrsm_inv(int lda, const double *Linv, double *U) {
  double *T = product_buffer(sizeof(double));
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, NB, NB, NB, 1.0, Linv, NB, U, lda, 0.0, T, NB);
  LAPACKE_dlacpy_work(LAPACK_COL_MAJOR, 'A', NB, NB, T, NB, U, lda);
  free(T);
}

void lu_sgemm(int lda, const float *L, const float *U, float *C) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, NB, NB, NB, -1.0f, L, lda, U, lda, 1.0f, C, lda);
}
void lu_dgemm(int lda, const double *L, const double *U, double *C) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, NB, NB, NB, -1.0, L, lda, U, lda, 1.0, C, lda);
}

#endif /* !GPUSS_LU_CUDA */
