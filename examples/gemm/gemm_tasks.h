/*
 * gemm_tasks.h: the task declarations of the tiled GEMM example.
 *
 * One task: C += A B on one tile of C, in single or double precision. The
 * wrappers are plain functions (kernels_host.c: CBLAS; kernels_cuda.cu:
 * cuBLAS); annotating their declarations here turns every call into a task.
 * A plain C compiler ignores the pragmas and the program runs sequentially.
 *
 * Every tile is TS x TS, column-major in TS*TS consecutive elements. TS is
 * chosen at run time, so it is a global (defined in gemm.c) that the items
 * `A[TS][TS]` read when each task is submitted.
 *
 * GPUSS_GEMM_CUDA is defined by the CUDA build: the tile products then run on
 * the GPUs. Without it they are host tasks. The translator runs the
 * preprocessor first, so the target line inside #ifdef is seen only when the
 * macro is defined.
 */
#ifndef GEMM_TASKS_H
#define GEMM_TASKS_H

#ifdef __cplusplus
extern "C" {
#endif

extern int TS; /* tile size (rows = columns of every tile) */

/* C := C + A B on one tile. */
#ifdef GPUSS_GEMM_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], B[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void gemm_stile(float *A, float *B, float *C);

#ifdef GPUSS_GEMM_CUDA
#pragma css target device(cuda) copy_in(A[TS][TS], B[TS][TS], C[TS][TS]) copy_out(C[TS][TS])
#endif
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void gemm_dtile(double *A, double *B, double *C);

#ifdef GPUSS_GEMM_CUDA
/* Not a task: the number of CUDA devices present (0 if none or on error). */
int gemm_cuda_device_count(void);

/* Not a task: before the clock starts, run the tile product once on every
 * GPU, so that CUDA's loading of the cuBLAS kernel is not timed. */
void gemm_gpu_prepare(char prec);
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GEMM_TASKS_H */
