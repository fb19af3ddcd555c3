/*
 * kernels_host.c: the host bodies of the GEMM example's task, thin wrappers
 * over CBLAS on one TS x TS tile. They run in the sequential build and in the
 * host-only GPUSs build; the CUDA build takes the bodies from kernels_cuda.cu.
 */
#include "gemm_tasks.h"

#include <cblas.h>

#ifndef GPUSS_GEMM_CUDA

void gemm_stile(float *A, float *B, float *C) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, TS, TS, TS, 1.0f, A, TS, B, TS, 1.0f, C, TS);
}

void gemm_dtile(double *A, double *B, double *C) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, TS, TS, TS, 1.0, A, TS, B, TS, 1.0, C, TS);
}

#endif /* !GPUSS_GEMM_CUDA */
