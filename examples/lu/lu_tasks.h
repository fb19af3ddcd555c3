/*
 * lu_tasks.h: the task declarations of the LU example (lu.c).
 *
 * The matrix is one column-major array with leading dimension lda, a run-time
 * value: element (r, c) is A[c * lda + r]. It is factored in tiles of NB x NB.
 * A tile is NB columns of NB consecutive elements, lda elements apart: a
 * strided region. The items name it with an OmpSs shape and sections on a
 * pointer to the tile's first element,
 *
 *     [NB][lda]T[0;NB][0;NB]
 *
 * "T seen as NB arrays of lda elements (the tile's columns and what lies
 * between them), of which the first NB of each". The panel, rows row0 .. n-1
 * of a block column, is [NB][lda]P[0;NB][0;m] with m = n - row0. (A C99
 * `double (*T)[lda]` parameter with T[0;NB][0;NB] names the same region; the
 * plain pointer keeps this header usable from the CUDA sources, which are
 * C++.)
 *
 * Pivots are LAPACK's: ipiv[r] is the 1-based global row that row r traded
 * places with, ipiv[r] - 1 >= r. Each panel writes its NB entries.
 *
 * Every kernel exists in single and double precision (lu_s..., lu_d...).
 * NB, the tile size, is chosen at run time, so it is a global (lu.c) that the
 * items read at each submit; lda and the panel's row count are parameters.
 *
 * GPUSS_LU_CUDA is defined by the CUDA build: the swaps, trsm and gemm (and
 * the inversions and products of --inverse-trsm) then run on the GPUs, and
 * the panel too with --gpu-panel (the _gpu variants).
 * Without it every task runs on the host (LAPACKE and CBLAS, kernels_host.c).
 * The translator runs the preprocessor first, so a pragma inside #ifdef is
 * seen only when the macro is defined.
 */
#ifndef LU_TASKS_H
#define LU_TASKS_H

#ifdef __cplusplus
extern "C" {
#endif

extern int NB; /* tile size: rows = columns of every tile (lu.c) */

/* The items as written: clang-format would space them out ([NB][lda] P[0; NB]). */
/* clang-format off */

/* ---------------------------------------------------------------- the panel on the host (LAPACKE) */

/* P, rows row0 .. row0+m-1 of a block column, := its LU factors with partial
 * pivoting (dgetrf of the m x NB panel); ipiv[0 .. NB-1] := the pivot rows,
 * 1-based and global (row0 added). The panel's own rows are swapped by the
 * factorisation itself; the other block columns by the swap tasks below. */
#pragma css task input(m, lda, row0) inout([NB][lda]P[0;NB][0;m]) output(ipiv[0;NB])
void lu_spanel(int m, int lda, float *P, int row0, int *ipiv);
#pragma css task input(m, lda, row0) inout([NB][lda]P[0;NB][0;m]) output(ipiv[0;NB])
void lu_dpanel(int m, int lda, double *P, int row0, int *ipiv);

/* ---------------------------------------------------------------- swaps, trsm, gemm
 *
 * The swaps of step k apply the panel's interchanges (rows row0 + r and
 * ipiv[r] - 1, for r = 0 .. NB-1 in order) to another block column. As tile
 * tasks: first those within the tile row of the panel's diagonal tile
 * (laswp_tile on tile (k, j)), then, for each tile (i, j) below, those between
 * the two tiles (swap_tiles); docs/lu.md says why that order gives LAPACK's
 * result. Or (--swaps columns) one task over rows row0 .. n-1 of the block
 * column (laswp_column). */
/* Within tile row row0 .. row0+NB-1: the interchanges whose pivot row is in it. */
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, row0, ipiv[0;NB]) inout([NB][lda]U[0;NB][0;NB])
void lu_slaswp_tile(int lda, float *U, int row0, const int *ipiv);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, row0, ipiv[0;NB]) inout([NB][lda]U[0;NB][0;NB])
void lu_dlaswp_tile(int lda, double *U, int row0, const int *ipiv);

/* Between tile U (rows row0 ..) and tile B (rows brow0 .., below it, in the
 * same block column): the interchanges whose pivot row lies in B. */
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, row0, brow0, ipiv[0;NB]) inout([NB][lda]U[0;NB][0;NB], [NB][lda]B[0;NB][0;NB])
void lu_sswap_tiles(int lda, float *U, float *B, int row0, int brow0, const int *ipiv);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, row0, brow0, ipiv[0;NB]) inout([NB][lda]U[0;NB][0;NB], [NB][lda]B[0;NB][0;NB])
void lu_dswap_tiles(int lda, double *U, double *B, int row0, int brow0, const int *ipiv);

/* Between tile U and the `count` tiles B0, B1, ... below it (rows brow0,
 * brow0 + NB, ...; count <= LU_SWAP_GROUP, and the parameters after the
 * count-th repeat the last of them, which names it once more): what
 * swap_tiles does for each, after, if `within`, what laswp_tile does on U
 * (--swaps groups, the default). A block column's swaps of one step are a
 * chain through tile (k, j); in groups the chain has 3 links instead of 24
 * at NT = 24, and on a busy GPU each link waits behind the tasks staged
 * before it (docs/lu.md, "The interchanges as tile tasks"). */
#define LU_SWAP_GROUP 8
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, row0, brow0, count, within, ipiv[0;NB]) \
    inout([NB][lda]U[0;NB][0;NB], [NB][lda]B0[0;NB][0;NB], [NB][lda]B1[0;NB][0;NB], [NB][lda]B2[0;NB][0;NB], \
          [NB][lda]B3[0;NB][0;NB], [NB][lda]B4[0;NB][0;NB], [NB][lda]B5[0;NB][0;NB], \
          [NB][lda]B6[0;NB][0;NB], [NB][lda]B7[0;NB][0;NB])
void lu_sswap_group(int lda, float *U, float *B0, float *B1, float *B2, float *B3, float *B4, float *B5, float *B6, float *B7,
                    int row0, int brow0, int count, int within, const int *ipiv);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, row0, brow0, count, within, ipiv[0;NB]) \
    inout([NB][lda]U[0;NB][0;NB], [NB][lda]B0[0;NB][0;NB], [NB][lda]B1[0;NB][0;NB], [NB][lda]B2[0;NB][0;NB], \
          [NB][lda]B3[0;NB][0;NB], [NB][lda]B4[0;NB][0;NB], [NB][lda]B5[0;NB][0;NB], \
          [NB][lda]B6[0;NB][0;NB], [NB][lda]B7[0;NB][0;NB])
void lu_dswap_group(int lda, double *U, double *B0, double *B1, double *B2, double *B3, double *B4, double *B5, double *B6, double *B7,
                    int row0, int brow0, int count, int within, const int *ipiv);

/* All of them, on rows row0 .. row0+m-1 of a block column (C points to row0). */
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(m, lda, row0, ipiv[0;NB]) inout([NB][lda]C[0;NB][0;m])
void lu_slaswp_column(int m, int lda, float *C, int row0, const int *ipiv);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(m, lda, row0, ipiv[0;NB]) inout([NB][lda]C[0;NB][0;m])
void lu_dlaswp_column(int m, int lda, double *C, int row0, const int *ipiv);

/* The interchanges of every later step on the computed L of block column j:
 * P is the panel's diagonal tile (j, j), the region the panel task factored
 * (rows row0 .. row0+m-1), and ipiv the pivots of rows row0 .. row0+m-1 (the
 * first NB, the panel's own, are not applied again). Step k's interchanges,
 * k = j+1, ..., in order, as laswp_column applies them. Nothing in the
 * factorisation reads L(., j) after step j, so they can all wait until the end
 * (--left-swaps end, the default), and one task over the panel's own region
 * is a region the panel task named already: no tile of it is written inside
 * the panel's copy while that copy is newer than host memory (docs/lu.md). */
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(m, lda, row0, ipiv[0;m]) inout([NB][lda]P[0;NB][0;m])
void lu_slaswp_left(int m, int lda, float *P, int row0, const int *ipiv);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(m, lda, row0, ipiv[0;m]) inout([NB][lda]P[0;NB][0;m])
void lu_dlaswp_left(int m, int lda, double *P, int row0, const int *ipiv);

/* U := L^-1 U, L the unit lower triangle of the panel's diagonal tile: a tile
 * of the block row of U. */
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, [NB][lda]L[0;NB][0;NB]) inout([NB][lda]U[0;NB][0;NB])
void lu_strsm(int lda, const float *L, float *U);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, [NB][lda]L[0;NB][0;NB]) inout([NB][lda]U[0;NB][0;NB])
void lu_dtrsm(int lda, const double *L, double *U);

/* --inverse-trsm: the solves of step k as products with one inverse.
 *
 * Linv := L^-1, L the unit lower triangle of the panel's diagonal tile (k, k):
 * a dense NB x NB column-major matrix, leading dimension NB, in a buffer of
 * the program's (one per step, lu.c), with its diagonal 1 and its strict
 * upper part 0, so that the products below may read it as a plain matrix.
 * One task per step, after the panel. */
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, [NB][lda]L[0;NB][0;NB]) output(Linv[0;NB*NB])
void lu_sinvert_diag(int lda, const float *L, float *Linv);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, [NB][lda]L[0;NB][0;NB]) output(Linv[0;NB*NB])
void lu_dinvert_diag(int lda, const double *L, double *Linv);

/* U := Linv U, what lu_?trsm(lda, L, U) computes: a gemm where trsm was
 * (cuBLAS's trsm on a 2048 tile takes about 4 times its gemm, docs/lu.md). */
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, Linv[0;NB*NB]) inout([NB][lda]U[0;NB][0;NB])
void lu_strsm_inv(int lda, const float *Linv, float *U);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, Linv[0;NB*NB]) inout([NB][lda]U[0;NB][0;NB])
void lu_dtrsm_inv(int lda, const double *Linv, double *U);

/* C := C - L U: the trailing update of tile (i, j) from tiles (i, k) and (k, j). */
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, [NB][lda]L[0;NB][0;NB], [NB][lda]U[0;NB][0;NB]) inout([NB][lda]C[0;NB][0;NB])
void lu_sgemm(int lda, const float *L, const float *U, float *C);
#ifdef GPUSS_LU_CUDA
#pragma css target device(cuda)
#endif
#pragma css task input(lda, [NB][lda]L[0;NB][0;NB], [NB][lda]U[0;NB][0;NB]) inout([NB][lda]C[0;NB][0;NB])
void lu_dgemm(int lda, const double *L, const double *U, double *C);

/* ---------------------------------------------------------------- the panel on the GPU (--gpu-panel) */

#ifdef GPUSS_LU_CUDA
/* The panel task with cusolverDn getrf on the GPU's stream (kernels_cuda.cu). */
#pragma css target device(cuda)
#pragma css task input(m, lda, row0) inout([NB][lda]P[0;NB][0;m]) output(ipiv[0;NB])
void lu_spanel_gpu(int m, int lda, float *P, int row0, int *ipiv);
#pragma css target device(cuda)
#pragma css task input(m, lda, row0) inout([NB][lda]P[0;NB][0;m]) output(ipiv[0;NB])
void lu_dpanel_gpu(int m, int lda, double *P, int row0, int *ipiv);

/* clang-format on */

/* Not a task: the number of CUDA devices present (0 if none or on error). */
int lu_cuda_device_count(void);

/* Not a task: before the clock starts, on every GPU (and for every partition
 * of one, CSS_GPU_PARTITIONS), make what the GPU bodies need (the plan
 * buffers of the swaps, for --gpu-panel the cusolverDn handle and a workspace
 * for the tallest panel, n rows, for --inverse-trsm a cusolverDn handle and
 * trtri's workspace and a product buffer per compute stream) and run each
 * kernel once, so that neither the allocations nor CUDA's loading of the
 * kernels is timed. */
void lu_gpu_prepare(char prec, int n, int lda, int gpu_panel, int inverse_trsm);
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LU_TASKS_H */
