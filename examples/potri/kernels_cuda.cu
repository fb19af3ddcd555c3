// kernels_cuda.cu: the GPU task bodies of the SPD inverse example.
//
// The runtime calls these on a GPU worker with device pointers to the tiles.
// Each body only enqueues work on the worker's stream (css_cuda_stream(), to
// which the worker's cuBLAS handle is bound) and returns; the runtime knows
// the task is done when that stream reaches the task's completion event. So
// nothing here synchronises.
#include "potri_tasks.h"

#include <gpuss.h> // css_cublas_handle(), css_cuda_stream()

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cusolverDn.h>
#include <memory>
#include <mutex>
#include <vector>

// Every failure is fatal and names the call, file and line and the error.
#define POTRI_CUDA_CHECK(call)                                                                               \
  do {                                                                                                       \
    cudaError_t status_ = (call);                                                                            \
    if (status_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(status_));  \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)
#define POTRI_CUBLAS_CHECK(call)                                                                             \
  do {                                                                                                       \
    cublasStatus_t status_ = (call);                                                                         \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                              \
                   cublasGetStatusName(status_));                                                            \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)
#define POTRI_CUSOLVER_CHECK(call)                                                                           \
  do {                                                                                                       \
    cusolverStatus_t status_ = (call);                                                                       \
    if (status_ != CUSOLVER_STATUS_SUCCESS) {                                                                \
      std::fprintf(stderr, "%s:%d: %s failed: cusolverStatus %d\n", __FILE__, __LINE__, #call,               \
                   (int)status_);                                                                            \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)

namespace {

// ---------------------------------------------------------------- cuBLAS, in both precisions
//
// Square TS x TS tiles, leading dimension TS. The scalars are read from host
// memory at the call (the default pointer mode), so locals are fine.

cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasOperation_t op, float alpha,
                    const float *T, float *B) {
  return cublasStrsm(h, side, CUBLAS_FILL_MODE_LOWER, op, CUBLAS_DIAG_NON_UNIT, TS, TS, &alpha, T, TS, B, TS);
}
cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasOperation_t op, double alpha,
                    const double *T, double *B) {
  return cublasDtrsm(h, side, CUBLAS_FILL_MODE_LOWER, op, CUBLAS_DIAG_NON_UNIT, TS, TS, &alpha, T, TS, B, TS);
}

cublasStatus_t syrk(cublasHandle_t h, cublasOperation_t op, float alpha, const float *A, float beta,
                    float *C) {
  return cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, op, TS, TS, &alpha, A, TS, &beta, C, TS);
}
cublasStatus_t syrk(cublasHandle_t h, cublasOperation_t op, double alpha, const double *A, double beta,
                    double *C) {
  return cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, op, TS, TS, &alpha, A, TS, &beta, C, TS);
}

cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t opa, cublasOperation_t opb, float alpha,
                    const float *A, const float *B, float *C) {
  const float one = 1;
  return cublasSgemm(h, opa, opb, TS, TS, TS, &alpha, A, TS, B, TS, &one, C, TS);
}
cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t opa, cublasOperation_t opb, double alpha,
                    const double *A, const double *B, double *C) {
  const double one = 1;
  return cublasDgemm(h, opa, opb, TS, TS, TS, &alpha, A, TS, B, TS, &one, C, TS);
}

// C := T^T B, out of place: cuBLAS's in-place trmm (C = B) runs at the
// solve's speed (the Cholesky example measured 709 us against 217 us on a
// 2048 tile of an H200), so the product goes to a scratch tile and is copied
// back.
cublasStatus_t trmm_llt(cublasHandle_t h, const float *T, const float *B, float *C) {
  const float one = 1;
  return cublasStrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, TS, TS,
                     &one, T, TS, B, TS, C, TS);
}
cublasStatus_t trmm_llt(cublasHandle_t h, const double *T, const double *B, double *C) {
  const double one = 1;
  return cublasDtrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, TS, TS,
                     &one, T, TS, B, TS, C, TS);
}

// ---------------------------------------------------------------- two element-wise kernels

template <typename Real> __global__ void set_identity(Real *T, int ts) {
  long e = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (e < (long)ts * ts) T[e] = e % ts == e / ts ? Real(1) : Real(0);
}

// Zeroes the strict upper triangle (row < column) of a column-major tile.
template <typename Real> __global__ void zero_upper(Real *T, int ts) {
  long e = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (e < (long)ts * ts && e % ts < e / ts) T[e] = Real(0);
}

template <typename Real> void fill_identity(Real *T, cudaStream_t stream) {
  const long elements = (long)TS * TS;
  set_identity<<<(elements + 255) / 256, 256, 0, stream>>>(T, TS);
  POTRI_CUDA_CHECK(cudaGetLastError());
}

template <typename Real> void clear_upper(Real *T, cudaStream_t stream) {
  const long elements = (long)TS * TS;
  zero_upper<<<(elements + 255) / 256, 256, 0, stream>>>(T, TS);
  POTRI_CUDA_CHECK(cudaGetLastError());
}

// ---------------------------------------------------------------- scratch tiles
//
// One scratch tile for each stream of the calling worker thread. A GPU worker
// runs its tasks on several streams at once (CSS_GPU_STREAMS), so tasks on
// different streams need different tiles; on one stream, the next task's use
// of the tile is ordered after this one's. potri_gpu_prepare() makes a few per
// GPU before the clock starts; a stream takes one at its first use, or makes
// its own when none is left. Never freed: the process ends with the runtime.

constexpr int max_devices = 64;

struct Scratch {
  cudaStream_t stream;
  void *tile;
  std::size_t bytes;
};
std::mutex spare_scratch_mutex;
std::vector<Scratch> spare_scratch[max_devices]; // guarded by spare_scratch_mutex; no stream yet

void *stream_scratch(std::size_t bytes) {
  thread_local std::vector<Scratch> scratch;
  cudaStream_t stream = css_cuda_stream();
  for (Scratch &s : scratch)
    if (s.stream == stream && s.bytes >= bytes) return s.tile;
  Scratch taken{stream, nullptr, bytes};
  int device = 0;
  POTRI_CUDA_CHECK(cudaGetDevice(&device));
  {
    std::lock_guard lock(spare_scratch_mutex);
    auto &spares = spare_scratch[device % max_devices];
    if (!spares.empty() && spares.back().bytes >= bytes) {
      taken.tile = spares.back().tile;
      taken.bytes = spares.back().bytes;
      spares.pop_back();
    }
  }
  if (taken.tile == nullptr) POTRI_CUDA_CHECK(cudaMalloc(&taken.tile, bytes));
  scratch.push_back(taken);
  return taken.tile;
}

// ---------------------------------------------------------------- cusolverDn potrf (--gpu-diag)
//
// What cusolverDn potrf needs besides the tile: a handle, a workspace and a
// device word for `info`, one set per worker thread (the runtime drives each
// GPU, or each partition of one, from its own thread). potri_gpu_prepare()
// makes one set per GPU before the clock starts (cusolverDnCreate alone takes
// tens of milliseconds); a thread that finds none makes its own. Two potrf
// tasks never run at once on one worker: each depends on the one before it.

struct PotrfWorkspace {
  int ts = 0;
  cusolverDnHandle_t handle = nullptr;
  void *work = nullptr; // large enough for both precisions
  int work_bytes = 0;
  int *info = nullptr; // written by potrf, never read: the check finds a failed factorisation
};

std::mutex prepared_mutex;
std::vector<std::unique_ptr<PotrfWorkspace>> prepared[max_devices]; // guarded by prepared_mutex
thread_local std::unique_ptr<PotrfWorkspace> thread_workspace;

std::unique_ptr<PotrfWorkspace> make_workspace() {
  auto ws = std::make_unique<PotrfWorkspace>();
  POTRI_CUSOLVER_CHECK(cusolverDnCreate(&ws->handle));
  int lwork_s = 0, lwork_d = 0;
  POTRI_CUSOLVER_CHECK(
      cusolverDnSpotrf_bufferSize(ws->handle, CUBLAS_FILL_MODE_LOWER, TS, nullptr, TS, &lwork_s));
  POTRI_CUSOLVER_CHECK(
      cusolverDnDpotrf_bufferSize(ws->handle, CUBLAS_FILL_MODE_LOWER, TS, nullptr, TS, &lwork_d));
  ws->work_bytes = std::max(lwork_s * (int)sizeof(float), lwork_d * (int)sizeof(double));
  POTRI_CUDA_CHECK(cudaMalloc(&ws->work, ws->work_bytes));
  POTRI_CUDA_CHECK(cudaMalloc(&ws->info, sizeof(int)));
  ws->ts = TS;
  return ws;
}

PotrfWorkspace &potrf_workspace() {
  if (!thread_workspace || thread_workspace->ts != TS) {
    int device = 0;
    POTRI_CUDA_CHECK(cudaGetDevice(&device));
    {
      std::lock_guard lock(prepared_mutex);
      auto &ready = prepared[device % max_devices];
      if (!ready.empty() && ready.back()->ts == TS) {
        thread_workspace = std::move(ready.back());
        ready.pop_back();
      }
    }
    if (!thread_workspace || thread_workspace->ts != TS) thread_workspace = make_workspace();
  }
  // The worker's streams change from task to task (CSS_GPU_STREAMS), so the
  // handle follows the stream of the task at hand.
  POTRI_CUSOLVER_CHECK(cusolverDnSetStream(thread_workspace->handle, css_cuda_stream()));
  return *thread_workspace;
}

cusolverStatus_t potrf_call(PotrfWorkspace &ws, float *T) {
  return cusolverDnSpotrf(ws.handle, CUBLAS_FILL_MODE_LOWER, TS, T, TS, static_cast<float *>(ws.work),
                          ws.work_bytes / (int)sizeof(float), ws.info);
}
cusolverStatus_t potrf_call(PotrfWorkspace &ws, double *T) {
  return cusolverDnDpotrf(ws.handle, CUBLAS_FILL_MODE_LOWER, TS, T, TS, static_cast<double *>(ws.work),
                          ws.work_bytes / (int)sizeof(double), ws.info);
}

// ---------------------------------------------------------------- the diagonal kernels without cuSOLVER
//
// trtri: T := T^-1 as the solve T W = I, with T's copy in a scratch tile and
// the identity written over T. The Cholesky example measured this at 1164 us
// on a 2048 tile of an H200, against 2970 us for cusolverDnXtrtri. The strict
// upper triangle of T comes out zero.
template <typename Real>
void invert_lower(Real *T, cudaStream_t stream, cublasHandle_t handle, Real *scratch) {
  const std::size_t bytes = sizeof(Real) * TS * TS;
  POTRI_CUDA_CHECK(cudaMemcpyAsync(scratch, T, bytes, cudaMemcpyDeviceToDevice, stream));
  fill_identity(T, stream);
  POTRI_CUBLAS_CHECK(trsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_OP_N, Real(1), scratch, T));
}

// lauum: T := T^T T (lower). cuSOLVER documents no lauum (cusolverDn.h
// declares an undocumented cusolverDn?lauum, left alone here), so it is one
// cuBLAS syrk, C := L^T L with beta = 0, of the triangle copied to a scratch
// tile with its strict upper part zeroed. That does the full TS^3 flops of a
// syrk where lauum needs TS^3 / 3, but in one call that cuBLAS runs near gemm
// speed; it is NT tasks out of NT^3 / 2 (docs/potri.md). The strict upper
// triangle of T is left as it was, as LAPACK's lauum leaves it.
template <typename Real> void lower_gram(Real *T, cudaStream_t stream, cublasHandle_t handle, Real *scratch) {
  const std::size_t bytes = sizeof(Real) * TS * TS;
  POTRI_CUDA_CHECK(cudaMemcpyAsync(scratch, T, bytes, cudaMemcpyDeviceToDevice, stream));
  clear_upper(scratch, stream);
  POTRI_CUBLAS_CHECK(syrk(handle, CUBLAS_OP_T, Real(1), scratch, Real(0), T));
}

template <typename Real>
void multiply_llt(const Real *T, Real *B, cudaStream_t stream, cublasHandle_t handle, Real *scratch) {
  const std::size_t bytes = sizeof(Real) * TS * TS;
  POTRI_CUBLAS_CHECK(trmm_llt(handle, T, B, scratch));
  POTRI_CUDA_CHECK(cudaMemcpyAsync(B, scratch, bytes, cudaMemcpyDeviceToDevice, stream));
}

template <typename Real> Real *task_scratch() {
  return static_cast<Real *>(stream_scratch(sizeof(Real) * TS * TS));
}

} // namespace

// ---------------------------------------------------------------- the task bodies

// Phase 1: B := B T^-T, C := C - A A^T, C := C - A B^T.
extern "C" void potri_strsm_rlt(float *T, float *B) {
  POTRI_CUBLAS_CHECK(trsm(css_cublas_handle(), CUBLAS_SIDE_RIGHT, CUBLAS_OP_T, 1.0f, T, B));
}
extern "C" void potri_dtrsm_rlt(double *T, double *B) {
  POTRI_CUBLAS_CHECK(trsm(css_cublas_handle(), CUBLAS_SIDE_RIGHT, CUBLAS_OP_T, 1.0, T, B));
}
extern "C" void potri_ssyrk_ln(float *A, float *C) {
  POTRI_CUBLAS_CHECK(syrk(css_cublas_handle(), CUBLAS_OP_N, -1.0f, A, 1.0f, C));
}
extern "C" void potri_dsyrk_ln(double *A, double *C) {
  POTRI_CUBLAS_CHECK(syrk(css_cublas_handle(), CUBLAS_OP_N, -1.0, A, 1.0, C));
}
extern "C" void potri_sgemm_nt(float *A, float *B, float *C) {
  POTRI_CUBLAS_CHECK(gemm(css_cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_T, -1.0f, A, B, C));
}
extern "C" void potri_dgemm_nt(double *A, double *B, double *C) {
  POTRI_CUBLAS_CHECK(gemm(css_cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_T, -1.0, A, B, C));
}

// Phase 2: B := -B T^-1, C := C + A B, B := T^-1 B.
extern "C" void potri_strsm_rln(float *T, float *B) {
  POTRI_CUBLAS_CHECK(trsm(css_cublas_handle(), CUBLAS_SIDE_RIGHT, CUBLAS_OP_N, -1.0f, T, B));
}
extern "C" void potri_dtrsm_rln(double *T, double *B) {
  POTRI_CUBLAS_CHECK(trsm(css_cublas_handle(), CUBLAS_SIDE_RIGHT, CUBLAS_OP_N, -1.0, T, B));
}
extern "C" void potri_sgemm_nn(float *A, float *B, float *C) {
  POTRI_CUBLAS_CHECK(gemm(css_cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, 1.0f, A, B, C));
}
extern "C" void potri_dgemm_nn(double *A, double *B, double *C) {
  POTRI_CUBLAS_CHECK(gemm(css_cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, 1.0, A, B, C));
}
extern "C" void potri_strsm_lln(float *T, float *B) {
  POTRI_CUBLAS_CHECK(trsm(css_cublas_handle(), CUBLAS_SIDE_LEFT, CUBLAS_OP_N, 1.0f, T, B));
}
extern "C" void potri_dtrsm_lln(double *T, double *B) {
  POTRI_CUBLAS_CHECK(trsm(css_cublas_handle(), CUBLAS_SIDE_LEFT, CUBLAS_OP_N, 1.0, T, B));
}

// Phase 3: C := C + A^T A, C := C + A^T B, B := T^T B.
extern "C" void potri_ssyrk_lt(float *A, float *C) {
  POTRI_CUBLAS_CHECK(syrk(css_cublas_handle(), CUBLAS_OP_T, 1.0f, A, 1.0f, C));
}
extern "C" void potri_dsyrk_lt(double *A, double *C) {
  POTRI_CUBLAS_CHECK(syrk(css_cublas_handle(), CUBLAS_OP_T, 1.0, A, 1.0, C));
}
extern "C" void potri_sgemm_tn(float *A, float *B, float *C) {
  POTRI_CUBLAS_CHECK(gemm(css_cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, 1.0f, A, B, C));
}
extern "C" void potri_dgemm_tn(double *A, double *B, double *C) {
  POTRI_CUBLAS_CHECK(gemm(css_cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, 1.0, A, B, C));
}
extern "C" void potri_strmm_llt(float *T, float *B) {
  multiply_llt(T, B, css_cuda_stream(), css_cublas_handle(), task_scratch<float>());
}
extern "C" void potri_dtrmm_llt(double *T, double *B) {
  multiply_llt(T, B, css_cuda_stream(), css_cublas_handle(), task_scratch<double>());
}

// Diagonal tiles (--gpu-diag).
extern "C" void potri_spotrf_gpu(float *T) {
  POTRI_CUSOLVER_CHECK(potrf_call(potrf_workspace(), T));
}
extern "C" void potri_dpotrf_gpu(double *T) {
  POTRI_CUSOLVER_CHECK(potrf_call(potrf_workspace(), T));
}
extern "C" void potri_strtri_gpu(float *T) {
  invert_lower(T, css_cuda_stream(), css_cublas_handle(), task_scratch<float>());
}
extern "C" void potri_dtrtri_gpu(double *T) {
  invert_lower(T, css_cuda_stream(), css_cublas_handle(), task_scratch<double>());
}
extern "C" void potri_slauum_gpu(float *T) {
  lower_gram(T, css_cuda_stream(), css_cublas_handle(), task_scratch<float>());
}
extern "C" void potri_dlauum_gpu(double *T) {
  lower_gram(T, css_cuda_stream(), css_cublas_handle(), task_scratch<double>());
}

// ---------------------------------------------------------------- before the clock starts

namespace {

// Runs once, on the current GPU and on tiles of the run's size, every kernel
// the run will use, so that their modules are loaded before the clock starts:
// CUDA loads a kernel's module at its first launch (lazy loading, the default
// since CUDA 12.2), which takes milliseconds for cuBLAS's and cuSOLVER's. The
// tiles hold the identity, which every kernel here keeps finite.
template <typename Real> void warm_up(PotrfWorkspace *potrf, Real *scratch) {
  const std::size_t bytes = sizeof(Real) * TS * TS;
  Real *tiles[3];
  for (Real *&tile : tiles) {
    POTRI_CUDA_CHECK(cudaMalloc(&tile, bytes));
    fill_identity(tile, nullptr);
  }
  cublasHandle_t handle = nullptr;
  POTRI_CUBLAS_CHECK(cublasCreate(&handle));
  const Real one = 1;
  POTRI_CUBLAS_CHECK(trsm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_OP_T, one, tiles[0], tiles[1]));
  POTRI_CUBLAS_CHECK(trsm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_OP_N, -one, tiles[0], tiles[1]));
  POTRI_CUBLAS_CHECK(trsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_OP_N, one, tiles[0], tiles[1]));
  POTRI_CUBLAS_CHECK(syrk(handle, CUBLAS_OP_N, -one, tiles[0], one, tiles[2]));
  POTRI_CUBLAS_CHECK(syrk(handle, CUBLAS_OP_T, one, tiles[0], one, tiles[2]));
  POTRI_CUBLAS_CHECK(gemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, -one, tiles[0], tiles[1], tiles[2]));
  POTRI_CUBLAS_CHECK(gemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, one, tiles[0], tiles[1], tiles[2]));
  POTRI_CUBLAS_CHECK(gemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, one, tiles[0], tiles[1], tiles[2]));
  multiply_llt<Real>(tiles[0], tiles[1], nullptr, handle, scratch);
  if (potrf) {
    fill_identity(tiles[2], nullptr);
    POTRI_CUSOLVER_CHECK(cusolverDnSetStream(potrf->handle, nullptr));
    POTRI_CUSOLVER_CHECK(potrf_call(*potrf, tiles[2]));
    invert_lower(tiles[2], nullptr, handle, scratch);
    lower_gram(tiles[2], nullptr, handle, scratch);
  }
  POTRI_CUDA_CHECK(cudaDeviceSynchronize());
  POTRI_CUBLAS_CHECK(cublasDestroy(handle));
  for (Real *tile : tiles)
    POTRI_CUDA_CHECK(cudaFree(tile));
}

} // namespace

extern "C" void potri_gpu_prepare(char prec, int gpu_diag) {
  // One scratch tile per compute stream by default (CSS_GPU_STREAMS = 3); a
  // stream beyond these makes its own.
  constexpr int scratch_tiles_per_gpu = 3;
  const std::size_t tile_bytes = (prec == 'd' ? sizeof(double) : sizeof(float)) * (std::size_t)TS * TS;
  int count = potri_cuda_device_count(), current = 0;
  POTRI_CUDA_CHECK(cudaGetDevice(&current));
  for (int device = 0; device < count && device < max_devices; ++device) {
    POTRI_CUDA_CHECK(cudaSetDevice(device));
    std::unique_ptr<PotrfWorkspace> ws = gpu_diag ? make_workspace() : nullptr;
    std::vector<Scratch> scratch;
    for (int t = 0; t < scratch_tiles_per_gpu; ++t) {
      scratch.push_back(Scratch{nullptr, nullptr, tile_bytes});
      POTRI_CUDA_CHECK(cudaMalloc(&scratch.back().tile, tile_bytes));
    }
    if (prec == 'd')
      warm_up<double>(ws.get(), static_cast<double *>(scratch.front().tile));
    else
      warm_up<float>(ws.get(), static_cast<float *>(scratch.front().tile));
    std::lock_guard lock(prepared_mutex);
    if (ws) prepared[device].push_back(std::move(ws));
    std::lock_guard scratch_lock(spare_scratch_mutex);
    for (Scratch &tile : scratch)
      spare_scratch[device].push_back(tile);
  }
  POTRI_CUDA_CHECK(cudaSetDevice(current));
}

extern "C" int potri_cuda_device_count(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError(); // clear the sticky error of a machine without a driver
    return 0;
  }
  return count;
}
