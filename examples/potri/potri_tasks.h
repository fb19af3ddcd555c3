/*
 * potri_tasks.h: the task declarations of the SPD inverse example.
 *
 * A^-1 of a symmetric positive definite A in three tiled phases, each a
 * sequence of tile kernels (potri.c):
 *
 *   1. potrf  A = L L^T                 potrf, trsm, syrk, gemm on tiles
 *   2. trtri  L := L^-1                 trsm, gemm, trsm, trtri on tiles
 *   3. lauum  A^-1 = L^-T L^-1          syrk, gemm, trmm, lauum on tiles
 *
 * Every tile is TS x TS, column-major in TS*TS consecutive elements; only the
 * lower triangle of tiles exists. TS is chosen at run time, so it is a global
 * (defined in potri.c) that the items `A[TS][TS]` read at each submit.
 *
 * Names: potri_<prec><kernel>_<side/uplo/trans> as in BLAS, the comment says
 * what each computes. T is a diagonal tile (only its lower triangle is read),
 * B and C are updated in place.
 *
 * GPUSS_POTRI_CUDA is defined by the CUDA build: the off-diagonal kernels
 * (trsm, syrk, gemm, trmm) then run on the GPUs, and the `_gpu` variants of
 * the diagonal-tile kernels (potrf, trtri, lauum) exist for --gpu-diag.
 * Without it every task runs on the host (CBLAS/LAPACKE, kernels_host.c).
 * The translator runs the preprocessor first, so a pragma inside #ifdef is
 * seen only when the macro is defined.
 */
#ifndef POTRI_TASKS_H
#define POTRI_TASKS_H

#ifdef __cplusplus
extern "C" {
#endif

extern int TS; /* tile size (rows = columns of every tile) */

/* Not a task: element (i, j) of the n x n test matrix, SPD with a condition
 * number near 2 (kernels_host.c). */
double potri_generate(long i, long j, long n);

/* ---------------------------------------------------------------- diagonal tiles on the host (LAPACKE) */

/* T := L with T = L L^T (lower). */
#pragma css task inout(T[TS][TS])
void potri_spotrf(float *T);
#pragma css task inout(T[TS][TS])
void potri_dpotrf(double *T);

/* T := T^-1 (lower, non-unit). */
#pragma css task inout(T[TS][TS])
void potri_strtri(float *T);
#pragma css task inout(T[TS][TS])
void potri_dtrtri(double *T);

/* T := T^T T (lower). */
#pragma css task inout(T[TS][TS])
void potri_slauum(float *T);
#pragma css task inout(T[TS][TS])
void potri_dlauum(double *T);

/* ---------------------------------------------------------------- phase 1: potrf */

/* B := B T^-T: the panel below a factored diagonal tile. */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(T[TS][TS], B[TS][TS]) copy_out(B[TS][TS])
#endif
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void potri_strsm_rlt(float *T, float *B);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(T[TS][TS], B[TS][TS]) copy_out(B[TS][TS])
#endif
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void potri_dtrsm_rlt(double *T, double *B);

/* C := C - A A^T (lower triangle of C): the update of a diagonal tile. */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS]) inout(C[TS][TS])
void potri_ssyrk_ln(float *A, float *C);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS]) inout(C[TS][TS])
void potri_dsyrk_ln(double *A, double *C);

/* C := C - A B^T: the update of an off-diagonal tile. */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], B[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void potri_sgemm_nt(float *A, float *B, float *C);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], B[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void potri_dgemm_nt(double *A, double *B, double *C);

/* ---------------------------------------------------------------- phase 2: trtri */

/* B := -B T^-1: a tile below the diagonal, against the factor's diagonal tile. */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(T[TS][TS], B[TS][TS]) copy_out(B[TS][TS])
#endif
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void potri_strsm_rln(float *T, float *B);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(T[TS][TS], B[TS][TS]) copy_out(B[TS][TS])
#endif
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void potri_dtrsm_rln(double *T, double *B);

/* C := C + A B. */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], B[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void potri_sgemm_nn(float *A, float *B, float *C);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], B[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void potri_dgemm_nn(double *A, double *B, double *C);

/* B := T^-1 B: a tile left of the diagonal. */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(T[TS][TS], B[TS][TS]) copy_out(B[TS][TS])
#endif
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void potri_strsm_lln(float *T, float *B);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(T[TS][TS], B[TS][TS]) copy_out(B[TS][TS])
#endif
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void potri_dtrsm_lln(double *T, double *B);

/* ---------------------------------------------------------------- phase 3: lauum */

/* C := C + A^T A (lower triangle of C). */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS]) inout(C[TS][TS])
void potri_ssyrk_lt(float *A, float *C);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS]) inout(C[TS][TS])
void potri_dsyrk_lt(double *A, double *C);

/* C := C + A^T B. */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], B[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void potri_sgemm_tn(float *A, float *B, float *C);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], B[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void potri_dgemm_tn(double *A, double *B, double *C);

/* B := T^T B (T lower). */
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(T[TS][TS], B[TS][TS]) copy_out(B[TS][TS])
#endif
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void potri_strmm_llt(float *T, float *B);
#ifdef GPUSS_POTRI_CUDA
#pragma css target device(cuda) copy_in(T[TS][TS], B[TS][TS]) copy_out(B[TS][TS])
#endif
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void potri_dtrmm_llt(double *T, double *B);

/* ---------------------------------------------------------------- diagonal tiles on the GPU (--gpu-diag) */

#ifdef GPUSS_POTRI_CUDA
/* The same three kernels as above, on the GPUs: potrf with cusolverDn, trtri
 * as a cuBLAS solve against the identity, lauum as a cuBLAS syrk of the
 * triangle (kernels_cuda.cu says why). They keep the diagonal tiles on the
 * GPUs, which shortens the critical path when the GPUs are much faster than
 * the host. Only the lower triangle of T is defined afterwards. */
#pragma css target device(cuda) copy_in(T[TS][TS]) copy_out(T[TS][TS])
#pragma css task inout(T[TS][TS])
void potri_spotrf_gpu(float *T);
#pragma css target device(cuda) copy_in(T[TS][TS]) copy_out(T[TS][TS])
#pragma css task inout(T[TS][TS])
void potri_dpotrf_gpu(double *T);

#pragma css target device(cuda) copy_in(T[TS][TS]) copy_out(T[TS][TS])
#pragma css task inout(T[TS][TS])
void potri_strtri_gpu(float *T);
#pragma css target device(cuda) copy_in(T[TS][TS]) copy_out(T[TS][TS])
#pragma css task inout(T[TS][TS])
void potri_dtrtri_gpu(double *T);

#pragma css target device(cuda) copy_in(T[TS][TS]) copy_out(T[TS][TS])
#pragma css task inout(T[TS][TS])
void potri_slauum_gpu(float *T);
#pragma css target device(cuda) copy_in(T[TS][TS]) copy_out(T[TS][TS])
#pragma css task inout(T[TS][TS])
void potri_dlauum_gpu(double *T);

/* Not a task: the number of CUDA devices present (0 if none or on error). */
int potri_cuda_device_count(void);

/* Not a task: before the clock starts, on every GPU, make what the GPU bodies
 * need (scratch tiles, the cusolverDn handle and workspace for --gpu-diag)
 * and run each kernel they use once, so that neither the allocations nor
 * CUDA's loading of the kernels is timed. */
void potri_gpu_prepare(char prec, int gpu_diag);
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POTRI_TASKS_H */
