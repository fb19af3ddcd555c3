// kernels_cuda.cu: the GPU task bodies of the Cholesky example.
//
// The runtime calls these on a GPU worker with device pointers to the blocks.
// Each body only enqueues work on the worker's stream (css_cuda_stream()) and
// returns; the runtime knows the task is done when that stream reaches the
// task's completion event. So nothing here synchronises.
#include "cholesky_tasks.h"
#include "trsm_plan.h"

#include <gpuss.h> // css_cublas_handle(), css_cuda_stream()

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cusolverDn.h>
#include <memory>
#include <mutex>
#include <vector>

// Every failure is fatal and names the call, file and line and the error.
#define CHOL_CUDA_CHECK(call)                                                                                \
  do {                                                                                                       \
    cudaError_t status_ = (call);                                                                            \
    if (status_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(status_));  \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)
#define CHOL_CUBLAS_CHECK(call)                                                                              \
  do {                                                                                                       \
    cublasStatus_t status_ = (call);                                                                         \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                              \
                   cublasGetStatusName(status_));                                                            \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)
#define CHOL_CUSOLVER_CHECK(call)                                                                            \
  do {                                                                                                       \
    cusolverStatus_t status_ = (call);                                                                       \
    if (status_ != CUSOLVER_STATUS_SUCCESS) {                                                                \
      std::fprintf(stderr, "%s:%d: %s failed: cusolverStatus %d\n", __FILE__, __LINE__, #call,               \
                   (int)status_);                                                                            \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)

// ---------------------------------------------------------------- cuBLAS wrappers
//
// The handle is the worker's own, already bound to its stream. The scalars
// are read from host memory at the call (the default pointer mode), so
// locals are fine.

// trsm, split as trsm_plan.h describes: solves of at most TRSM_LEAF columns
// (cuBLAS trsm) and the updates between them (cuBLAS gemm). TRSM_LEAF = 0
// is the single cuBLAS trsm call.
static cublasStatus_t trsm_call(cublasHandle_t h, int m, int n, const float *one, const float *T, float *B) {
  return cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, n,
                     one, T, TS, B, TS);
}
static cublasStatus_t trsm_call(cublasHandle_t h, int m, int n, const double *one, const double *T,
                                double *B) {
  return cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, n,
                     one, T, TS, B, TS);
}
static cublasStatus_t gemm_nt_call(cublasHandle_t h, int m, int n, int k, const float *alpha, const float *A,
                                   const float *B, const float *beta, float *C) {
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, alpha, A, TS, B, TS, beta, C, TS);
}
static cublasStatus_t gemm_nt_call(cublasHandle_t h, int m, int n, int k, const double *alpha,
                                   const double *A, const double *B, const double *beta, double *C) {
  return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, alpha, A, TS, B, TS, beta, C, TS);
}

static cublasStatus_t syrk_call(cublasHandle_t h, const float *minus_one, const float *A, const float *one,
                                float *C) {
  return cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, TS, TS, minus_one, A, TS, one, C, TS);
}
static cublasStatus_t syrk_call(cublasHandle_t h, const double *minus_one, const double *A, const double *one,
                                double *C) {
  return cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, TS, TS, minus_one, A, TS, one, C, TS);
}

template <typename Real> static void trsm_by_plan(const Real *T, Real *B) {
  const Real one = 1, minus_one = -1;
  chol_trsm_step steps[256];
  int count = chol_trsm_plan(TS, TRSM_LEAF, steps, 256);
  if (count == 0) { // a leaf too small for the block: one call is always right
    steps[0] = chol_trsm_step{CHOL_TRSM_SOLVE, 0, TS, 0, 0};
    count = 1;
  }
  cublasHandle_t handle = css_cublas_handle();
  const long ld = TS;
  for (int s = 0; s < count; ++s) {
    const chol_trsm_step &step = steps[s];
    Real *columns = B + step.col * ld;
    if (step.op == CHOL_TRSM_SOLVE)
      CHOL_CUBLAS_CHECK(trsm_call(handle, TS, step.width, &one, T + step.col * ld + step.col, columns));
    else
      CHOL_CUBLAS_CHECK(gemm_nt_call(handle, TS, step.width, step.kwidth, &minus_one, B + step.k * ld,
                                     T + step.k * ld + step.col, &one, columns));
  }
}

extern "C" void chol_strsm(float *T, float *B) {
  trsm_by_plan(T, B);
}

extern "C" void chol_dtrsm(double *T, double *B) {
  trsm_by_plan(T, B);
}

// C := C - A A^T (lower triangle).
template <typename Real> static void syrk_update(const Real *A, Real *C) {
  const Real one = 1, minus_one = -1;
  CHOL_CUBLAS_CHECK(syrk_call(css_cublas_handle(), &minus_one, A, &one, C));
}

// C := C - A B^T.
template <typename Real> static void gemm_update(const Real *A, const Real *B, Real *C) {
  const Real one = 1, minus_one = -1;
  CHOL_CUBLAS_CHECK(gemm_nt_call(css_cublas_handle(), TS, TS, TS, &minus_one, A, B, &one, C));
}

extern "C" void chol_ssyrk(float *A, float *C) {
  syrk_update(A, C);
}

extern "C" void chol_dsyrk(double *A, double *C) {
  syrk_update(A, C);
}

extern "C" void chol_sgemm(float *A, float *B, float *C) {
  gemm_update(A, B, C);
}

extern "C" void chol_dgemm(double *A, double *B, double *C) {
  gemm_update(A, B, C);
}

constexpr int max_devices = 64; // GPUs, for the resources made per GPU ahead of the run

// ---------------------------------------------------------------- the panel by inverse (--inverse-trsm)
//
// cuBLAS trsm on a 2048 block runs at 10 TFLOP/s on an H200, trmm at 40
// (bench/cholesky/block_kernels). So each panel inverts its diagonal factor
// once, W := T^-1 as a solve against the identity (cusolverDnXtrtri takes
// 2.5 times longer), and every block of the panel is then multiplied by W^T.

namespace {

template <typename Real> __global__ void set_identity(Real *W, int ts) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < (long)ts * ts) W[i] = i % ts == i / ts ? Real(1) : Real(0);
}

// W := I, a TS x TS block, on `stream`.
template <typename Real> void fill_identity(Real *W, cudaStream_t stream) {
  const long elements = (long)TS * TS;
  set_identity<<<(elements + 255) / 256, 256, 0, stream>>>(W, TS);
  CHOL_CUDA_CHECK(cudaGetLastError());
}

cublasStatus_t solve_left_call(cublasHandle_t h, const float *one, const float *T, float *W) {
  return cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, TS, TS,
                     one, T, TS, W, TS);
}
cublasStatus_t solve_left_call(cublasHandle_t h, const double *one, const double *T, double *W) {
  return cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, TS, TS,
                     one, T, TS, W, TS);
}
// cuBLAS trmm writes to C. Passing B as C is its documented in-place form,
// but that runs at the solve's speed (709 us against 217 on a 2048 block,
// H200): the product goes to a scratch block and is copied back instead.
cublasStatus_t trmm_call(cublasHandle_t h, const float *one, const float *W, const float *B, float *C) {
  return cublasStrmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, TS, TS,
                     one, W, TS, B, TS, C, TS);
}
cublasStatus_t trmm_call(cublasHandle_t h, const double *one, const double *W, const double *B, double *C) {
  return cublasDtrmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, TS, TS,
                     one, W, TS, B, TS, C, TS);
}

// A scratch block for each stream of the calling worker thread. A GPU worker
// runs its tasks on several streams at once (CSS_GPU_STREAMS), so tasks on
// different streams need different blocks; on one stream, the next task's
// use of the block is ordered after this one's copy. chol_gpu_prepare()
// makes a few per GPU before the clock starts; a stream takes one at its
// first multiply, or makes its own when none is left. Never freed: the
// process ends with the runtime.
struct Scratch {
  cudaStream_t stream;
  void *block;
  std::size_t bytes;
};
std::mutex spare_scratch_mutex;
std::vector<Scratch> spare_scratch[max_devices]; // guarded by spare_scratch_mutex; no stream yet

void *stream_scratch(std::size_t bytes) {
  thread_local std::vector<Scratch> scratch;
  cudaStream_t stream = css_cuda_stream();
  for (Scratch &s : scratch)
    if (s.stream == stream && s.bytes >= bytes) return s.block;
  Scratch taken{stream, nullptr, bytes};
  int device = 0;
  CHOL_CUDA_CHECK(cudaGetDevice(&device));
  {
    std::lock_guard lock(spare_scratch_mutex);
    auto &spares = spare_scratch[device % max_devices];
    if (!spares.empty() && spares.back().bytes >= bytes) {
      taken.block = spares.back().block;
      taken.bytes = spares.back().bytes;
      spares.pop_back();
    }
  }
  if (taken.block == nullptr) CHOL_CUDA_CHECK(cudaMalloc(&taken.block, bytes));
  scratch.push_back(taken);
  return taken.block;
}

template <typename Real> void invert_lower(const Real *T, Real *W) {
  const Real one = 1;
  fill_identity(W, css_cuda_stream());
  CHOL_CUBLAS_CHECK(solve_left_call(css_cublas_handle(), &one, T, W));
}

template <typename Real> void multiply_by_inverse(const Real *W, Real *B) {
  const Real one = 1;
  const std::size_t bytes = sizeof(Real) * TS * TS;
  Real *product = static_cast<Real *>(stream_scratch(bytes));
  CHOL_CUBLAS_CHECK(trmm_call(css_cublas_handle(), &one, W, B, product));
  CHOL_CUDA_CHECK(cudaMemcpyAsync(B, product, bytes, cudaMemcpyDeviceToDevice, css_cuda_stream()));
}

} // namespace

extern "C" void chol_strtri(float *T, float *W) {
  invert_lower(T, W);
}

extern "C" void chol_dtrtri(double *T, double *W) {
  invert_lower(T, W);
}

extern "C" void chol_strmm(float *W, float *B) {
  multiply_by_inverse(W, B);
}

extern "C" void chol_dtrmm(double *W, double *B) {
  multiply_by_inverse(W, B);
}

// ---------------------------------------------------------------- cusolverDn potrf (--gpu-potrf)

namespace {

// What cusolverDn potrf needs besides the block: a handle, a workspace and a
// device word for `info`, one set per worker thread (the runtime drives each
// GPU, or each partition of one, from its own thread). chol_gpu_prepare()
// makes one set per GPU before the factorisation is timed (cusolverDnCreate
// alone takes tens of milliseconds), and the first potrf on a worker thread
// takes its GPU's set; a thread that finds none makes its own.
//
// They are never freed: the process ends right after the runtime does.
// A GPU runs tasks on several streams (CSS_GPU_STREAMS), but never two potrf
// tasks at once here: each potrf depends on the one before it.
struct PotrfWorkspace {
  int ts = 0;
  cusolverDnHandle_t handle = nullptr;
  void *work = nullptr; // large enough for both precisions
  int work_bytes = 0;
  int *info = nullptr; // written by potrf, never read: the residual check
                       // finds a failed factorisation without a blocking copy
};

std::mutex prepared_mutex;
std::vector<std::unique_ptr<PotrfWorkspace>> prepared[max_devices]; // guarded by prepared_mutex
thread_local std::unique_ptr<PotrfWorkspace> thread_workspace;

std::unique_ptr<PotrfWorkspace> make_workspace() {
  auto ws = std::make_unique<PotrfWorkspace>();
  CHOL_CUSOLVER_CHECK(cusolverDnCreate(&ws->handle));
  int lwork_s = 0, lwork_d = 0;
  CHOL_CUSOLVER_CHECK(
      cusolverDnSpotrf_bufferSize(ws->handle, CUBLAS_FILL_MODE_LOWER, TS, nullptr, TS, &lwork_s));
  CHOL_CUSOLVER_CHECK(
      cusolverDnDpotrf_bufferSize(ws->handle, CUBLAS_FILL_MODE_LOWER, TS, nullptr, TS, &lwork_d));
  ws->work_bytes = std::max(lwork_s * (int)sizeof(float), lwork_d * (int)sizeof(double));
  CHOL_CUDA_CHECK(cudaMalloc(&ws->work, ws->work_bytes));
  CHOL_CUDA_CHECK(cudaMalloc(&ws->info, sizeof(int)));
  ws->ts = TS;
  return ws;
}

PotrfWorkspace &potrf_workspace() {
  if (!thread_workspace || thread_workspace->ts != TS) {
    int device = 0;
    CHOL_CUDA_CHECK(cudaGetDevice(&device));
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
  CHOL_CUSOLVER_CHECK(cusolverDnSetStream(thread_workspace->handle, css_cuda_stream()));
  return *thread_workspace;
}

cusolverStatus_t potrf_call(PotrfWorkspace &ws, float *A) {
  return cusolverDnSpotrf(ws.handle, CUBLAS_FILL_MODE_LOWER, TS, A, TS, static_cast<float *>(ws.work),
                          ws.work_bytes / (int)sizeof(float), ws.info);
}
cusolverStatus_t potrf_call(PotrfWorkspace &ws, double *A) {
  return cusolverDnDpotrf(ws.handle, CUBLAS_FILL_MODE_LOWER, TS, A, TS, static_cast<double *>(ws.work),
                          ws.work_bytes / (int)sizeof(double), ws.info);
}

} // namespace

extern "C" void chol_spotrf_gpu(float *A) {
  CHOL_CUSOLVER_CHECK(potrf_call(potrf_workspace(), A));
}

extern "C" void chol_dpotrf_gpu(double *A) {
  CHOL_CUSOLVER_CHECK(potrf_call(potrf_workspace(), A));
}

// ---------------------------------------------------------------- before the clock starts

namespace {

// Runs once, on the current GPU and on blocks of the run's size, every kernel
// the run will use, so that their modules are loaded before the clock starts:
// CUDA loads a kernel's module at its first launch (lazy loading, the default
// since CUDA 12.2), which takes milliseconds for cuBLAS's and cuSOLVER's. The
// blocks hold the identity, which every kernel here keeps finite.
template <typename Real> void warm_up(PotrfWorkspace *potrf, bool inverse_trsm, void *scratch) {
  const std::size_t bytes = sizeof(Real) * TS * TS;
  const Real one = 1, minus_one = -1;
  Real *blocks[3];
  for (Real *&block : blocks) {
    CHOL_CUDA_CHECK(cudaMalloc(&block, bytes));
    fill_identity(block, nullptr);
  }
  cublasHandle_t handle = nullptr;
  CHOL_CUBLAS_CHECK(cublasCreate(&handle));
  CHOL_CUBLAS_CHECK(gemm_nt_call(handle, TS, TS, TS, &minus_one, blocks[0], blocks[1], &one, blocks[2]));
  CHOL_CUBLAS_CHECK(syrk_call(handle, &minus_one, blocks[0], &one, blocks[2]));
  if (inverse_trsm) {
    CHOL_CUBLAS_CHECK(solve_left_call(handle, &one, blocks[0], blocks[1]));
    CHOL_CUBLAS_CHECK(trmm_call(handle, &one, blocks[0], blocks[1], static_cast<Real *>(scratch)));
  } else {
    CHOL_CUBLAS_CHECK(trsm_call(handle, TS, TS, &one, blocks[0], blocks[1]));
  }
  if (potrf) {
    CHOL_CUSOLVER_CHECK(cusolverDnSetStream(potrf->handle, nullptr));
    CHOL_CUSOLVER_CHECK(potrf_call(*potrf, blocks[0]));
  }
  CHOL_CUDA_CHECK(cudaDeviceSynchronize());
  CHOL_CUBLAS_CHECK(cublasDestroy(handle));
  for (Real *block : blocks)
    CHOL_CUDA_CHECK(cudaFree(block));
}

} // namespace

extern "C" void chol_gpu_prepare(char prec, int gpu_potrf, int inverse_trsm) {
  // Compute streams per GPU, by default; a stream beyond these makes its own scratch block.
  constexpr int scratch_blocks_per_gpu = 3;
  const std::size_t block_bytes = (prec == 'd' ? sizeof(double) : sizeof(float)) * (std::size_t)TS * TS;
  int count = chol_cuda_device_count(), current = 0;
  CHOL_CUDA_CHECK(cudaGetDevice(&current));
  for (int device = 0; device < count && device < max_devices; ++device) {
    CHOL_CUDA_CHECK(cudaSetDevice(device));
    std::unique_ptr<PotrfWorkspace> ws = gpu_potrf ? make_workspace() : nullptr;
    std::vector<Scratch> scratch;
    for (int b = 0; inverse_trsm && b < scratch_blocks_per_gpu; ++b) {
      scratch.push_back(Scratch{nullptr, nullptr, block_bytes});
      CHOL_CUDA_CHECK(cudaMalloc(&scratch.back().block, block_bytes));
    }
    void *warm_up_scratch = inverse_trsm ? scratch.front().block : nullptr;
    if (prec == 'd')
      warm_up<double>(ws.get(), inverse_trsm, warm_up_scratch);
    else
      warm_up<float>(ws.get(), inverse_trsm, warm_up_scratch);
    std::lock_guard lock(prepared_mutex);
    if (ws) prepared[device].push_back(std::move(ws));
    std::lock_guard scratch_lock(spare_scratch_mutex);
    for (Scratch &block : scratch)
      spare_scratch[device].push_back(block);
  }
  CHOL_CUDA_CHECK(cudaSetDevice(current));
}

extern "C" int chol_cuda_device_count(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError(); // clear the sticky error of a machine without a driver
    return 0;
  }
  return count;
}

extern "C" double chol_page_lock_rate(void) {
  // 256 MiB written first (locking memory never touched costs the kernel
  // making its pages as well), locked, timed, unlocked.
  const std::size_t bytes = std::size_t{256} << 20;
  std::vector<char> memory(bytes, 1);
  const auto start = std::chrono::steady_clock::now();
  CHOL_CUDA_CHECK(cudaHostRegister(memory.data(), bytes, cudaHostRegisterDefault));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHOL_CUDA_CHECK(cudaHostUnregister(memory.data()));
  return bytes / seconds;
}
