// cuda_check.h: the failure checks of the benchmark's CUDA programs
// (vendor_cholesky, block_kernels). Any failed call ends the run with the
// call, its file and line, and the error; a benchmark has nothing to recover.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                                     \
  do {                                                                                                       \
    cudaError_t status_ = (call);                                                                            \
    if (status_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(status_));  \
      std::exit(1);                                                                                          \
    }                                                                                                        \
  } while (0)
#define CUBLAS_CHECK(call)                                                                                   \
  do {                                                                                                       \
    cublasStatus_t status_ = (call);                                                                         \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                              \
                   cublasGetStatusName(status_));                                                            \
      std::exit(1);                                                                                          \
    }                                                                                                        \
  } while (0)
#define CUSOLVER_CHECK(call)                                                                                 \
  do {                                                                                                       \
    cusolverStatus_t status_ = (call);                                                                       \
    if (status_ != CUSOLVER_STATUS_SUCCESS) {                                                                \
      std::fprintf(stderr, "%s:%d: %s failed: cusolverStatus %d\n", __FILE__, __LINE__, #call,               \
                   (int)status_);                                                                            \
      std::exit(1);                                                                                          \
    }                                                                                                        \
  } while (0)
