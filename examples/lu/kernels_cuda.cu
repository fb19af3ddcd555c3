// kernels_cuda.cu: the GPU task bodies of the LU example.
//
// The runtime calls these on a GPU worker with device pointers into its
// copies of the tasks' regions. A strided region's device copy keeps the
// layout of user memory over the region's extent (docs/language.md), so a
// tile's columns are still lda elements apart there and every call below
// passes the matrix's own lda. Each body only enqueues work on the worker's
// stream (css_cuda_stream(), to which the worker's cuBLAS handle is bound)
// and returns; the runtime knows the task is done when that stream reaches
// the task's completion event. So nothing here synchronises.
#include "lu_tasks.h"
#include "swap_plan.h"

#include <gpuss.h> // css_cublas_handle(), css_cuda_stream()

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cusolverDn.h>
#include <memory>
#include <mutex>
#include <vector>

// Every failure is fatal and names the call, file and line and the error.
#define LU_CUDA_CHECK(call)                                                                                  \
  do {                                                                                                       \
    cudaError_t status_ = (call);                                                                            \
    if (status_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(status_));  \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)
#define LU_CUBLAS_CHECK(call)                                                                                \
  do {                                                                                                       \
    cublasStatus_t status_ = (call);                                                                         \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                              \
                   cublasGetStatusName(status_));                                                            \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)
#define LU_CUSOLVER_CHECK(call)                                                                              \
  do {                                                                                                       \
    cusolverStatus_t status_ = (call);                                                                       \
    if (status_ != CUSOLVER_STATUS_SUCCESS) {                                                                \
      std::fprintf(stderr, "%s:%d: %s failed: cusolverStatus %d\n", __FILE__, __LINE__, #call,               \
                   (int)status_);                                                                            \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (0)

namespace {

constexpr int max_devices = 64;

// ---------------------------------------------------------------- cuBLAS, in both precisions
//
// NB x NB tiles of the matrix, leading dimension lda. The scalars are read
// from host memory at the call (the default pointer mode), so locals are fine.

// U := L^-1 U, L unit lower triangular.
cublasStatus_t trsm(cublasHandle_t h, int lda, const float *L, float *U) {
  const float one = 1;
  return cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, NB, NB, &one,
                     L, lda, U, lda);
}
cublasStatus_t trsm(cublasHandle_t h, int lda, const double *L, double *U) {
  const double one = 1;
  return cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, NB, NB, &one,
                     L, lda, U, lda);
}

// C := C - L U.
cublasStatus_t gemm(cublasHandle_t h, int lda, const float *L, const float *U, float *C) {
  const float minus_one = -1, one = 1;
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, NB, NB, NB, &minus_one, L, lda, U, lda, &one, C, lda);
}
cublasStatus_t gemm(cublasHandle_t h, int lda, const double *L, const double *U, double *C) {
  const double minus_one = -1, one = 1;
  return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, NB, NB, NB, &minus_one, L, lda, U, lda, &one, C, lda);
}

// ---------------------------------------------------------------- row interchanges
//
// Two kernels per swap task (swap_plan.h says why): one block turns the
// panel's pivots into a list of independent row moves, in a small buffer of
// the stream's, then one block per column reads every source row's element
// and, once all are read, writes every destination. A column's elements are
// consecutive in memory, so the moves of one column touch a few cache lines.

// The plan's layout: count, then 2 NB sources, then 2 NB destinations.
int plan_ints(int nb) {
  return 1 + 4 * nb;
}

__global__ void plan_swaps(const int *ipiv, int nb, int row0, int lo, int hi, int *plan) {
  extern __shared__ int shared[]; // 4 nb ints
  int *piv = shared, *prev = piv + nb, *cur = prev + nb, *dep = cur + nb;
  for (int r = threadIdx.x; r < nb; r += blockDim.x)
    piv[r] = ipiv[r];
  __syncthreads();
  // The only O(nb^2) part, spread over the threads; needed for pivots below
  // the diagonal tile row that this plan applies.
  for (int r = threadIdx.x; r < nb; r += blockDim.x) {
    const int p = piv[r] - 1;
    prev[r] = p >= row0 + nb && p >= lo && p < hi ? lu_swap_previous(piv, r) : -1;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    plan[0] = lu_swap_plan(piv, nb, row0, lo, hi, prev, cur, dep, plan + 1, plan + 1 + 2 * nb);
}

// The plan of a range below the diagonal tile row and at most nb rows wide
// (lu_?swap_tiles, most of the swap tasks): threads find each pivot row's
// first and last interchange with shared-memory atomics, then each plans its
// interchanges' moves on its own (lu_swap_moves_below) and takes their places
// in the plan from a counter. plan_swaps took about 0.2 ms per task on an
// H100 (thread 0 replays nb interchanges), some 1.3 s of GPU time at
// n = 49152 (docs/lu.md).
__global__ void plan_swaps_below(const int *ipiv, int nb, int row0, int lo, int hi, int *plan) {
  extern __shared__ int shared[]; // 3 nb ints
  int *piv = shared, *first = piv + nb, *last = first + nb;
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  for (int r = threadIdx.x; r < nb; r += blockDim.x) {
    piv[r] = ipiv[r];
    first[r] = nb;
    last[r] = -1;
  }
  __syncthreads();
  for (int r = threadIdx.x; r < nb; r += blockDim.x) {
    const int p = piv[r] - 1;
    if (p >= lo && p < hi) {
      atomicMin(&first[p - lo], r);
      atomicMax(&last[p - lo], r);
    }
  }
  __syncthreads();
  int *src = plan + 1, *dst = plan + 1 + 2 * nb;
  for (int r = threadIdx.x; r < nb; r += blockDim.x) {
    int move_src[2], move_dst[2];
    const int moves = lu_swap_moves_below(piv, nb, row0, lo, hi, first, last, r, move_src, move_dst);
    if (moves == 0) continue;
    const int at = atomicAdd(&count, moves);
    for (int i = 0; i < moves; i++) {
      src[at + i] = move_src[i];
      dst[at + i] = move_dst[i];
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) plan[0] = count;
}

// Moves held per thread: a column has at most 2 NB moves, so blockDim must
// be at least 2 NB / moves_per_thread.
constexpr int moves_per_thread = 8;

int move_threads(int nb) {
  int threads = (2 * nb + moves_per_thread - 1) / moves_per_thread;
  return std::max(32, (threads + 31) / 32 * 32);
}

// Column c's global row g is top[c lda + g - row0] for the rows of the
// diagonal tile row (row0 .. row0 + nb - 1), other[c lda + g - other_row0]
// below them.
template <typename Real>
__global__ void move_rows(Real *top, int row0, Real *other, int other_row0, int nb, long lda,
                          const int *plan) {
  const int count = plan[0];
  if (count == 0) return;
  const int *src = plan + 1, *dst = plan + 1 + 2 * nb;
  const long column = (long)blockIdx.x * lda;
  auto at = [&](int g) {
    return g < row0 + nb ? top + column + (g - row0) : other + column + (g - other_row0);
  };
  Real values[moves_per_thread];
#pragma unroll
  for (int k = 0; k < moves_per_thread; k++) {
    int i = threadIdx.x + k * blockDim.x;
    if (i < count) values[k] = *at(src[i]);
  }
  __syncthreads(); // every source read before any destination is written
#pragma unroll
  for (int k = 0; k < moves_per_thread; k++) {
    int i = threadIdx.x + k * blockDim.x;
    if (i < count) *at(dst[i]) = values[k];
  }
}

// Device buffers, one per stream of the calling worker thread: a GPU worker
// runs tasks on several streams at once (CSS_GPU_STREAMS), and on one stream
// the next task's use of the buffer is ordered after this one's. Two pools:
// the swaps' plans and the products by an inverse (--inverse-trsm).
// lu_gpu_prepare() gives each a few per GPU before the clock starts; a
// stream takes one at its first use, or makes its own when none is left.
// Never freed: the process ends with the runtime.
class StreamBuffers {
public:
  // Before the clock (lu_gpu_prepare): a buffer of `bytes` for device
  // `device`'s streams to take.
  void add_spare(int device, void *buffer, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    spares_[device].push_back(Held{this, nullptr, buffer, bytes});
  }

  // The calling thread's buffer of at least `bytes` for its current stream.
  void *for_stream(std::size_t bytes) {
    thread_local std::vector<Held> held; // every pool's, told apart by `pool`
    cudaStream_t stream = css_cuda_stream();
    for (const Held &h : held)
      if (h.pool == this && h.stream == stream && h.bytes >= bytes) return h.buffer;
    Held taken{this, stream, nullptr, bytes};
    int device = 0;
    LU_CUDA_CHECK(cudaGetDevice(&device));
    {
      std::lock_guard lock(mutex_);
      auto &spares = spares_[device % max_devices];
      if (!spares.empty() && spares.back().bytes >= bytes) {
        taken.buffer = spares.back().buffer;
        taken.bytes = spares.back().bytes;
        spares.pop_back();
      }
    }
    if (taken.buffer == nullptr) LU_CUDA_CHECK(cudaMalloc(&taken.buffer, bytes));
    held.push_back(taken);
    return taken.buffer;
  }

private:
  struct Held {
    const StreamBuffers *pool;
    cudaStream_t stream; // null while spare
    void *buffer;
    std::size_t bytes;
  };
  std::mutex mutex_;
  std::vector<Held> spares_[max_devices]; // guarded by mutex_
};

StreamBuffers plan_buffers, product_buffers;

int *stream_plan() {
  return static_cast<int *>(plan_buffers.for_stream(sizeof(int) * plan_ints(NB)));
}

// Applies the interchanges of ipiv[0 .. NB-1] (rows row0 + r and ipiv[r] - 1)
// whose pivot row lies in [lo, hi) to NB columns, on `stream`.
template <typename Real>
void apply_swaps(Real *top, int row0, Real *other, int other_row0, int lda, const int *ipiv, int lo, int hi,
                 int *plan, cudaStream_t stream) {
  const int plan_threads = std::min(NB, 1024);
  if (lo >= row0 + NB && hi - lo <= NB)
    plan_swaps_below<<<1, plan_threads, sizeof(int) * 3 * NB, stream>>>(ipiv, NB, row0, lo, hi, plan);
  else
    plan_swaps<<<1, plan_threads, sizeof(int) * 4 * NB, stream>>>(ipiv, NB, row0, lo, hi, plan);
  LU_CUDA_CHECK(cudaGetLastError());
  move_rows<Real><<<NB, move_threads(NB), 0, stream>>>(top, row0, other, other_row0, NB, lda, plan);
  LU_CUDA_CHECK(cudaGetLastError());
}

// ---------------------------------------------------------------- cusolverDn getrf (--gpu-panel)
//
// What cusolverDn getrf needs besides the panel: a handle, a workspace and a
// device word for `info`, one set per worker thread (the runtime drives each
// GPU, or each partition of one, from its own thread). lu_gpu_prepare()
// makes them before the clock starts (cusolverDnCreate alone takes tens of
// milliseconds), with the workspace of the tallest panel; a thread that finds
// none makes its own, and a panel that needs more workspace grows it. Two
// panel tasks never run at once on one worker: each depends on the one
// before it.
struct GetrfWorkspace {
  cusolverDnHandle_t handle = nullptr;
  void *work = nullptr;
  std::size_t work_bytes = 0;
  int *info = nullptr; // written by getrf, never read: the check finds a failed factorisation
};

// A cuSOLVER set (a handle and its workspaces: GetrfWorkspace, and
// TrtriWorkspace below) for each worker thread. lu_gpu_prepare() makes them
// per GPU before the clock starts; a thread takes one at its first use, or
// makes its own with `make` when none is left, and keeps it.
template <typename Set> class PreparedSets {
public:
  void add(int device, std::unique_ptr<Set> set) {
    std::lock_guard lock(mutex_);
    ready_[device].push_back(std::move(set));
  }

  // The calling thread's set, its handle on the stream of the task at hand
  // (the worker's streams change from task to task, CSS_GPU_STREAMS). One
  // pool per Set type: the thread's set is a thread_local of the type's.
  Set &for_this_thread(std::unique_ptr<Set> (*make)()) {
    thread_local std::unique_ptr<Set> mine;
    if (!mine) {
      int device = 0;
      LU_CUDA_CHECK(cudaGetDevice(&device));
      {
        std::lock_guard lock(mutex_);
        auto &ready = ready_[device % max_devices];
        if (!ready.empty()) {
          mine = std::move(ready.back());
          ready.pop_back();
        }
      }
      if (!mine) mine = make();
    }
    LU_CUSOLVER_CHECK(cusolverDnSetStream(mine->handle, css_cuda_stream()));
    return *mine;
  }

private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Set>> ready_[max_devices]; // guarded by mutex_
};

PreparedSets<GetrfWorkspace> getrf_sets;

cusolverStatus_t getrf_size(cusolverDnHandle_t h, int m, int lda, float *P, int *lwork) {
  return cusolverDnSgetrf_bufferSize(h, m, NB, P, lda, lwork);
}
cusolverStatus_t getrf_size(cusolverDnHandle_t h, int m, int lda, double *P, int *lwork) {
  return cusolverDnDgetrf_bufferSize(h, m, NB, P, lda, lwork);
}
cusolverStatus_t getrf(GetrfWorkspace &ws, int m, int lda, float *P, int *ipiv) {
  return cusolverDnSgetrf(ws.handle, m, NB, P, lda, static_cast<float *>(ws.work), ipiv, ws.info);
}
cusolverStatus_t getrf(GetrfWorkspace &ws, int m, int lda, double *P, int *ipiv) {
  return cusolverDnDgetrf(ws.handle, m, NB, P, lda, static_cast<double *>(ws.work), ipiv, ws.info);
}

// Workspace for a panel of m rows (leading dimension lda) in this precision;
// P may be null (the size depends on the shape alone; the Cholesky example
// asks potrf's the same way).
template <typename Real> void reserve(GetrfWorkspace &ws, int m, int lda, Real *P) {
  int lwork = 0;
  LU_CUSOLVER_CHECK(getrf_size(ws.handle, m, lda, P, &lwork));
  const std::size_t bytes = sizeof(Real) * (std::size_t)std::max(lwork, 1);
  if (bytes <= ws.work_bytes) return;
  if (ws.work != nullptr) {
    // Only when lu_gpu_prepare() did not size it (a thread without a
    // prepared set): the free waits for the GPU, which costs time, not results.
    LU_CUDA_CHECK(cudaFree(ws.work));
  }
  LU_CUDA_CHECK(cudaMalloc(&ws.work, bytes));
  ws.work_bytes = bytes;
}

std::unique_ptr<GetrfWorkspace> make_workspace() {
  auto ws = std::make_unique<GetrfWorkspace>();
  LU_CUSOLVER_CHECK(cusolverDnCreate(&ws->handle));
  LU_CUDA_CHECK(cudaMalloc(&ws->info, sizeof(int)));
  return ws;
}

GetrfWorkspace &getrf_workspace() {
  return getrf_sets.for_this_thread(make_workspace);
}

// cuSOLVER's pivots are 1-based rows of the panel; the example keeps LAPACK's
// dgetrf convention, rows of the matrix.
__global__ void offset_pivots(int *ipiv, int nb, int row0) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < nb) ipiv[r] += row0;
}

template <typename Real> void panel(int m, int lda, Real *P, int row0, int *ipiv) {
  GetrfWorkspace &ws = getrf_workspace();
  reserve(ws, m, lda, P);
  LU_CUSOLVER_CHECK(getrf(ws, m, lda, P, ipiv));
  offset_pivots<<<(NB + 255) / 256, 256, 0, css_cuda_stream()>>>(ipiv, NB, row0);
  LU_CUDA_CHECK(cudaGetLastError());
}

// ---------------------------------------------------------------- the solves by inverse (--inverse-trsm)
//
// cuBLAS's trsm on a 2048 tile takes about 4 times its gemm on an H200 (3.3
// ms against 0.85). So each step inverts its diagonal tile's unit lower
// triangle once, into a dense NB x NB matrix Linv (leading dimension NB), and
// each solve of the step becomes a gemm by Linv.
//
// The inverse: the tile copied into Linv, cusolverDnXtrtri (lower, unit) in
// place, then a kernel sets the diagonal to 1 and the strict upper part to 0:
// trtri with a unit diagonal reads and writes neither, so they hold the
// tile's U, and the gemm reads all of Linv. trtri needs a cusolverDn handle,
// device and host workspaces and an info word: one set per worker thread, as
// getrf's (above), made by lu_gpu_prepare() before the clock starts; a thread
// that finds none makes its own. Two inversions never run at once on one
// worker: step k+1's needs its panel, which needs a product of step k's.
struct TrtriWorkspace {
  cusolverDnHandle_t handle = nullptr;
  void *work = nullptr;
  std::size_t work_bytes = 0;
  std::vector<char> host; // trtri's host workspace, often none
  int *info = nullptr;    // written by trtri, never read: a singular L cannot be (its diagonal is 1)
};

PreparedSets<TrtriWorkspace> trtri_sets;

template <typename Real> constexpr cudaDataType data_type();
template <> constexpr cudaDataType data_type<float>() {
  return CUDA_R_32F;
}
template <> constexpr cudaDataType data_type<double>() {
  return CUDA_R_64F;
}

// Workspaces for inverting Linv, NB x NB with leading dimension NB, on
// ws.handle's stream; only grows them.
template <typename Real> void reserve_trtri(TrtriWorkspace &ws, Real *Linv) {
  std::size_t device_bytes = 0, host_bytes = 0;
  LU_CUSOLVER_CHECK(cusolverDnXtrtri_bufferSize(ws.handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, NB,
                                                data_type<Real>(), Linv, NB, &device_bytes, &host_bytes));
  device_bytes = std::max<std::size_t>(device_bytes, 1);
  if (device_bytes > ws.work_bytes) {
    // Only when lu_gpu_prepare() did not size it: the free waits for the GPU.
    if (ws.work != nullptr) LU_CUDA_CHECK(cudaFree(ws.work));
    LU_CUDA_CHECK(cudaMalloc(&ws.work, device_bytes));
    ws.work_bytes = device_bytes;
  }
  // The previous inversion on this worker has finished (above), so its host
  // workspace is free to move.
  if (host_bytes > ws.host.size()) ws.host.resize(host_bytes);
}

std::unique_ptr<TrtriWorkspace> make_trtri_workspace() {
  auto ws = std::make_unique<TrtriWorkspace>();
  LU_CUSOLVER_CHECK(cusolverDnCreate(&ws->handle));
  LU_CUDA_CHECK(cudaMalloc(&ws->info, sizeof(int)));
  return ws;
}

TrtriWorkspace &trtri_workspace() {
  return trtri_sets.for_this_thread(make_trtri_workspace);
}

// Linv (NB x NB, leading dimension NB): 1 on the diagonal, 0 above it.
template <typename Real> __global__ void unit_lower_cleanup(Real *Linv, int nb) {
  long e = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (e >= (long)nb * nb) return;
  const long r = e % nb, c = e / nb;
  if (r < c)
    Linv[e] = Real(0);
  else if (r == c)
    Linv[e] = Real(1);
}

// Linv := the inverse of the unit lower triangle of L (NB x NB, leading
// dimension lda), on ws.handle's stream, `stream`.
template <typename Real> void invert_unit_lower(TrtriWorkspace &ws, cudaStream_t stream, int lda, const Real *L,
                                                Real *Linv) {
  LU_CUDA_CHECK(cudaMemcpy2DAsync(Linv, sizeof(Real) * NB, L, sizeof(Real) * lda, sizeof(Real) * NB, NB,
                                  cudaMemcpyDeviceToDevice, stream));
  reserve_trtri(ws, Linv);
  LU_CUSOLVER_CHECK(cusolverDnXtrtri(ws.handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, NB, data_type<Real>(),
                                     Linv, NB, ws.work, ws.work_bytes, ws.host.empty() ? nullptr : ws.host.data(),
                                     ws.host.size(), ws.info));
  const long elements = (long)NB * NB;
  unit_lower_cleanup<<<(elements + 255) / 256, 256, 0, stream>>>(Linv, NB);
  LU_CUDA_CHECK(cudaGetLastError());
}

// P := Linv U (Linv and P leading dimension NB, U lda).
cublasStatus_t product(cublasHandle_t h, int lda, const float *Linv, const float *U, float *P) {
  const float one = 1, zero = 0;
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, NB, NB, NB, &one, Linv, NB, U, lda, &zero, P, NB);
}
cublasStatus_t product(cublasHandle_t h, int lda, const double *Linv, const double *U, double *P) {
  const double one = 1, zero = 0;
  return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, NB, NB, NB, &one, Linv, NB, U, lda, &zero, P, NB);
}

// The product cannot overwrite U as it forms (cuBLAS's in-place trmm runs at
// the solve's speed: the Cholesky example, kernels_cuda.cu), so it goes to a
// buffer of the stream's (product_buffers) and is copied back.
// U := Linv U, by way of P (NB x NB, leading dimension NB), on the handle's
// stream, `stream`.
template <typename Real> void multiply_by_inverse(cublasHandle_t h, cudaStream_t stream, int lda,
                                                  const Real *Linv, Real *U, Real *P) {
  LU_CUBLAS_CHECK(product(h, lda, Linv, U, P));
  LU_CUDA_CHECK(cudaMemcpy2DAsync(U, sizeof(Real) * lda, P, sizeof(Real) * NB, sizeof(Real) * NB, NB,
                                  cudaMemcpyDeviceToDevice, stream));
}

} // namespace

// ---------------------------------------------------------------- the task bodies

extern "C" void lu_slaswp_tile(int lda, float *U, int row0, const int *ipiv) {
  apply_swaps(U, row0, U, row0, lda, ipiv, row0, row0 + NB, stream_plan(), css_cuda_stream());
}
extern "C" void lu_dlaswp_tile(int lda, double *U, int row0, const int *ipiv) {
  apply_swaps(U, row0, U, row0, lda, ipiv, row0, row0 + NB, stream_plan(), css_cuda_stream());
}
extern "C" void lu_sswap_tiles(int lda, float *U, float *B, int row0, int brow0, const int *ipiv) {
  apply_swaps(U, row0, B, brow0, lda, ipiv, brow0, brow0 + NB, stream_plan(), css_cuda_stream());
}
extern "C" void lu_dswap_tiles(int lda, double *U, double *B, int row0, int brow0, const int *ipiv) {
  apply_swaps(U, row0, B, brow0, lda, ipiv, brow0, brow0 + NB, stream_plan(), css_cuda_stream());
}
namespace {
template <typename Real>
void swap_group(int lda, Real *U, Real *const *below, int row0, int brow0, int count, int within,
                const int *ipiv) {
  // In order on the task's stream, which also orders the uses of its plan buffer.
  int *plan = stream_plan();
  cudaStream_t stream = css_cuda_stream();
  if (within) apply_swaps(U, row0, U, row0, lda, ipiv, row0, row0 + NB, plan, stream);
  for (int t = 0; t < count; t++) {
    const int lo = brow0 + t * NB;
    apply_swaps(U, row0, below[t], lo, lda, ipiv, lo, lo + NB, plan, stream);
  }
}
} // namespace
extern "C" void lu_sswap_group(int lda, float *U, float *B0, float *B1, float *B2, float *B3, float *B4,
                               float *B5, float *B6, float *B7, int row0, int brow0, int count, int within,
                               const int *ipiv) {
  float *const below[LU_SWAP_GROUP] = {B0, B1, B2, B3, B4, B5, B6, B7};
  swap_group(lda, U, below, row0, brow0, count, within, ipiv);
}
extern "C" void lu_dswap_group(int lda, double *U, double *B0, double *B1, double *B2, double *B3, double *B4,
                               double *B5, double *B6, double *B7, int row0, int brow0, int count, int within,
                               const int *ipiv) {
  double *const below[LU_SWAP_GROUP] = {B0, B1, B2, B3, B4, B5, B6, B7};
  swap_group(lda, U, below, row0, brow0, count, within, ipiv);
}
extern "C" void lu_slaswp_column(int m, int lda, float *C, int row0, const int *ipiv) {
  apply_swaps(C, row0, C, row0, lda, ipiv, row0, row0 + m, stream_plan(), css_cuda_stream());
}
extern "C" void lu_dlaswp_column(int m, int lda, double *C, int row0, const int *ipiv) {
  apply_swaps(C, row0, C, row0, lda, ipiv, row0, row0 + m, stream_plan(), css_cuda_stream());
}

namespace {
// One step after another on the task's stream, which orders them (and the
// plan buffer they share); each as lu_?laswp_column's body, not a call of it,
// which the translator would make a task.
template <typename Real> void laswp_left(int m, int lda, Real *P, int row0, const int *ipiv) {
  for (int k0 = NB; k0 < m; k0 += NB)
    apply_swaps(P + k0, row0 + k0, P + k0, row0 + k0, lda, ipiv + k0, row0 + k0, row0 + m, stream_plan(),
                css_cuda_stream());
}
} // namespace
extern "C" void lu_slaswp_left(int m, int lda, float *P, int row0, const int *ipiv) {
  laswp_left(m, lda, P, row0, ipiv);
}
extern "C" void lu_dlaswp_left(int m, int lda, double *P, int row0, const int *ipiv) {
  laswp_left(m, lda, P, row0, ipiv);
}

extern "C" void lu_strsm(int lda, const float *L, float *U) {
  LU_CUBLAS_CHECK(trsm(css_cublas_handle(), lda, L, U));
}
extern "C" void lu_dtrsm(int lda, const double *L, double *U) {
  LU_CUBLAS_CHECK(trsm(css_cublas_handle(), lda, L, U));
}
extern "C" void lu_sgemm(int lda, const float *L, const float *U, float *C) {
  LU_CUBLAS_CHECK(gemm(css_cublas_handle(), lda, L, U, C));
}
extern "C" void lu_dgemm(int lda, const double *L, const double *U, double *C) {
  LU_CUBLAS_CHECK(gemm(css_cublas_handle(), lda, L, U, C));
}

extern "C" void lu_sinvert_diag(int lda, const float *L, float *Linv) {
  invert_unit_lower(trtri_workspace(), css_cuda_stream(), lda, L, Linv);
}
extern "C" void lu_dinvert_diag(int lda, const double *L, double *Linv) {
  invert_unit_lower(trtri_workspace(), css_cuda_stream(), lda, L, Linv);
}
extern "C" void lu_strsm_inv(int lda, const float *Linv, float *U) {
  float *P = static_cast<float *>(product_buffers.for_stream(sizeof(float) * NB * NB));
  multiply_by_inverse(css_cublas_handle(), css_cuda_stream(), lda, Linv, U, P);
}
extern "C" void lu_dtrsm_inv(int lda, const double *Linv, double *U) {
  double *P = static_cast<double *>(product_buffers.for_stream(sizeof(double) * NB * NB));
  multiply_by_inverse(css_cublas_handle(), css_cuda_stream(), lda, Linv, U, P);
}

extern "C" void lu_spanel_gpu(int m, int lda, float *P, int row0, int *ipiv) {
  panel(m, lda, P, row0, ipiv);
}
extern "C" void lu_dpanel_gpu(int m, int lda, double *P, int row0, int *ipiv) {
  panel(m, lda, P, row0, ipiv);
}

// ---------------------------------------------------------------- before the clock starts

namespace {

template <typename Real> __global__ void set_identity(Real *A, int rows, int cols, int ld) {
  long e = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (e < (long)rows * cols) A[e / rows * ld + e % rows] = e % rows == e / rows ? Real(1) : Real(0);
}

// Runs once, on the current GPU and on tiles of the run's size, every kernel
// the run will use, so that their modules are loaded before the clock starts:
// CUDA loads a kernel's module at its first launch (lazy loading, the default
// since CUDA 12.2), which takes milliseconds for cuBLAS's and cuSOLVER's. A
// 2 NB x NB identity panel (leading dimension 2 NB) keeps every kernel finite.
// With --inverse-trsm, trtri is sized there for the run's Linv and inverts
// the top tile, and product_buffer (NB x NB) takes the product by that
// inverse.
template <typename Real>
void warm_up(GetrfWorkspace *ws, int *plan, TrtriWorkspace *trtri, Real *product_buffer) {
  const int ld = 2 * NB;
  Real *panel_buffer = nullptr;
  int *ipiv = nullptr;
  LU_CUDA_CHECK(cudaMalloc(&panel_buffer, sizeof(Real) * ld * NB));
  LU_CUDA_CHECK(cudaMalloc(&ipiv, sizeof(int) * NB));
  set_identity<<<(ld * NB + 255) / 256, 256>>>(panel_buffer, ld, NB, ld);
  LU_CUDA_CHECK(cudaGetLastError());
  cublasHandle_t handle = nullptr;
  LU_CUBLAS_CHECK(cublasCreate(&handle));
  Real *top = panel_buffer, *below = panel_buffer + NB;
  if (ws != nullptr) {
    LU_CUSOLVER_CHECK(cusolverDnSetStream(ws->handle, nullptr));
    reserve(*ws, ld, ld, panel_buffer);
    LU_CUSOLVER_CHECK(getrf(*ws, ld, ld, panel_buffer, ipiv));
    offset_pivots<<<(NB + 255) / 256, 256>>>(ipiv, NB, 0);
    LU_CUDA_CHECK(cudaGetLastError());
  } else {
    std::vector<int> identity(NB);
    for (int r = 0; r < NB; r++)
      identity[r] = r + 1;
    LU_CUDA_CHECK(cudaMemcpy(ipiv, identity.data(), sizeof(int) * NB, cudaMemcpyHostToDevice));
  }
  // The identity's pivots are the identity: the swaps plan no moves, but
  // every kernel of each precision's swaps runs (a range below the diagonal
  // tile row is planned by its own kernel).
  apply_swaps(top, 0, below, NB, ld, ipiv, 0, ld, plan, nullptr);
  apply_swaps(top, 0, below, NB, ld, ipiv, NB, ld, plan, nullptr);
  LU_CUBLAS_CHECK(trsm(handle, ld, top, below));
  LU_CUBLAS_CHECK(gemm(handle, ld, top, top, below));
  if (trtri != nullptr) {
    Real *Linv = nullptr;
    LU_CUDA_CHECK(cudaMalloc(&Linv, sizeof(Real) * NB * NB));
    LU_CUSOLVER_CHECK(cusolverDnSetStream(trtri->handle, nullptr));
    invert_unit_lower(*trtri, nullptr, ld, top, Linv);
    multiply_by_inverse(handle, nullptr, ld, Linv, below, product_buffer);
    LU_CUDA_CHECK(cudaDeviceSynchronize());
    LU_CUDA_CHECK(cudaFree(Linv));
  }
  LU_CUDA_CHECK(cudaDeviceSynchronize());
  LU_CUBLAS_CHECK(cublasDestroy(handle));
  LU_CUDA_CHECK(cudaFree(panel_buffer));
  LU_CUDA_CHECK(cudaFree(ipiv));
}

int env_count(const char *name, int fallback) {
  const char *text = std::getenv(name);
  int value = text != nullptr && *text != '\0' ? std::atoi(text) : 0;
  return value > 0 ? value : fallback;
}

} // namespace

extern "C" void lu_gpu_prepare(char prec, int n, int lda, int gpu_panel, int inverse_trsm) {
  if (NB > 4096) {
    // move_rows holds at most moves_per_thread moves per thread in blocks of
    // at most 1024 threads.
    std::fprintf(stderr, "lu: the GPU swap kernels take tiles of at most 4096 rows (-t %d)\n", NB);
    std::exit(2);
  }
  // Every worker thread of a GPU (one per partition, CSS_GPU_PARTITIONS) gets
  // a getrf set (--gpu-panel) and a trtri set (--inverse-trsm), and each of
  // its compute streams (CSS_GPU_STREAMS, 3 by default) a plan buffer and,
  // for --inverse-trsm, a product buffer.
  const int partitions = env_count("CSS_GPU_PARTITIONS", 1);
  const int streams = env_count("CSS_GPU_STREAMS", 3);
  int count = lu_cuda_device_count(), current = 0;
  LU_CUDA_CHECK(cudaGetDevice(&current));
  for (int device = 0; device < count && device < max_devices; ++device) {
    LU_CUDA_CHECK(cudaSetDevice(device));
    // Above 48 KiB of shared memory a kernel must ask for it (plan_swaps_below
    // also has a static int).
    const std::size_t plan_shared = sizeof(int) * 4 * NB, below_shared = sizeof(int) * 3 * NB;
    if (plan_shared > 48 * 1024)
      LU_CUDA_CHECK(
          cudaFuncSetAttribute(plan_swaps, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)plan_shared));
    if (below_shared + sizeof(int) > 48 * 1024)
      LU_CUDA_CHECK(cudaFuncSetAttribute(plan_swaps_below, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)below_shared));
    std::vector<std::unique_ptr<GetrfWorkspace>> sets;
    for (int p = 0; gpu_panel && p < partitions; ++p) {
      sets.push_back(make_workspace());
      // The tallest panel, the first, needs the most workspace (checked for
      // every panel height: cuSOLVER does not promise monotone sizes).
      for (int row0 = 0; row0 < n; row0 += NB) {
        if (prec == 'd')
          reserve(*sets.back(), n - row0, lda, static_cast<double *>(nullptr));
        else
          reserve(*sets.back(), n - row0, lda, static_cast<float *>(nullptr));
      }
    }
    std::vector<int *> plans(partitions * streams);
    for (int *&plan : plans)
      LU_CUDA_CHECK(cudaMalloc(&plan, sizeof(int) * plan_ints(NB)));
    const std::size_t product_bytes = (prec == 'd' ? sizeof(double) : sizeof(float)) * NB * NB;
    std::vector<std::unique_ptr<TrtriWorkspace>> trtris;
    std::vector<void *> products;
    for (int p = 0; inverse_trsm && p < partitions; ++p) {
      trtris.push_back(make_trtri_workspace());
      // The run's Linv: NB x NB, leading dimension NB (the first set is
      // sized in warm_up, on a buffer of that shape).
      if (p > 0) {
        if (prec == 'd')
          reserve_trtri(*trtris.back(), static_cast<double *>(nullptr));
        else
          reserve_trtri(*trtris.back(), static_cast<float *>(nullptr));
      }
      for (int s = 0; s < streams; ++s)
        LU_CUDA_CHECK(cudaMalloc(&products.emplace_back(), product_bytes));
    }
    GetrfWorkspace *ws = sets.empty() ? nullptr : sets.front().get();
    TrtriWorkspace *trtri = trtris.empty() ? nullptr : trtris.front().get();
    void *product_buffer = products.empty() ? nullptr : products.front();
    if (prec == 'd')
      warm_up<double>(ws, plans.front(), trtri, static_cast<double *>(product_buffer));
    else
      warm_up<float>(ws, plans.front(), trtri, static_cast<float *>(product_buffer));
    for (auto &set : sets)
      getrf_sets.add(device, std::move(set));
    for (auto &set : trtris)
      trtri_sets.add(device, std::move(set));
    for (int *plan : plans)
      plan_buffers.add_spare(device, plan, sizeof(int) * plan_ints(NB));
    for (void *product : products)
      product_buffers.add_spare(device, product, product_bytes);
  }
  LU_CUDA_CHECK(cudaSetDevice(current));
}

extern "C" int lu_cuda_device_count(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError(); // clear the sticky error of a machine without a driver
    return 0;
  }
  return count;
}
