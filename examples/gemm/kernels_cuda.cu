// kernels_cuda.cu: the GPU body of the GEMM example's task.
//
// The runtime calls it on a GPU worker with device pointers to the tiles. It
// only enqueues cuBLAS work with the worker's handle, which is bound to the
// task's stream; the runtime knows the task is done when that stream reaches
// the task's completion event. So nothing here synchronises.
#include "gemm_tasks.h"

#include <gpuss.h> // css_cublas_handle()

#include <cstdio>
#include <cstdlib>

// Every failure is fatal and names the call, file and line and the error.
#define GEMM_CUDA_CHECK(call)                                                                                \
  do {                                                                                                       \
    cudaError_t status_ = (call);                                                                            \
    if (status_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(status_));  \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)
#define GEMM_CUBLAS_CHECK(call)                                                                              \
  do {                                                                                                       \
    cublasStatus_t status_ = (call);                                                                         \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                              \
                   cublasGetStatusName(status_));                                                            \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)

namespace {

// C := C + A B. The scalars are read from host memory at the call (the
// default pointer mode), so locals are fine.
cublasStatus_t gemm_call(cublasHandle_t h, const float *A, const float *B, float *C) {
  const float one = 1;
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, TS, TS, TS, &one, A, TS, B, TS, &one, C, TS);
}
cublasStatus_t gemm_call(cublasHandle_t h, const double *A, const double *B, double *C) {
  const double one = 1;
  return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, TS, TS, TS, &one, A, TS, B, TS, &one, C, TS);
}

// Runs the tile product once on the current GPU, on tiles of the run's size,
// so that CUDA loads cuBLAS's kernel (lazy loading, the default since CUDA
// 12.2: milliseconds at the first launch) before the clock starts. The tiles
// are zero; the product stays zero.
template <typename Real> void warm_up() {
  const std::size_t bytes = sizeof(Real) * TS * TS;
  Real *tiles[3];
  for (Real *&tile : tiles) {
    GEMM_CUDA_CHECK(cudaMalloc(&tile, bytes));
    GEMM_CUDA_CHECK(cudaMemset(tile, 0, bytes));
  }
  cublasHandle_t handle = nullptr;
  GEMM_CUBLAS_CHECK(cublasCreate(&handle));
  GEMM_CUBLAS_CHECK(gemm_call(handle, tiles[0], tiles[1], tiles[2]));
  GEMM_CUDA_CHECK(cudaDeviceSynchronize());
  GEMM_CUBLAS_CHECK(cublasDestroy(handle));
  for (Real *tile : tiles)
    GEMM_CUDA_CHECK(cudaFree(tile));
}

} // namespace

extern "C" void gemm_stile(float *A, float *B, float *C) {
  GEMM_CUBLAS_CHECK(gemm_call(css_cublas_handle(), A, B, C));
}

extern "C" void gemm_dtile(double *A, double *B, double *C) {
  GEMM_CUBLAS_CHECK(gemm_call(css_cublas_handle(), A, B, C));
}

extern "C" void gemm_gpu_prepare(char prec) {
  int count = gemm_cuda_device_count(), current = 0;
  GEMM_CUDA_CHECK(cudaGetDevice(&current));
  for (int device = 0; device < count; ++device) {
    GEMM_CUDA_CHECK(cudaSetDevice(device));
    if (prec == 'd')
      warm_up<double>();
    else
      warm_up<float>();
  }
  GEMM_CUDA_CHECK(cudaSetDevice(current));
}

extern "C" int gemm_cuda_device_count(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError(); // clear the sticky error of a machine without a driver
    return 0;
  }
  return count;
}
