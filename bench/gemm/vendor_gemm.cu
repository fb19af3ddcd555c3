// vendor_gemm.cu: the vendor baselines of the GEMM benchmark, C += A B.
//
//   vendor_gemm --mode dev|xt|xt-pin|xt-pinned -n N [--prec d|s] [--gpus K] [--reps R] [--block B]
//
//   dev        cublas<t>gemm on GPU 0 with A, B and C already in device memory; only the gemm is timed
//   xt         cublasXt<t>gemm (cuBLAS's own tiled multi-GPU GEMM) from pageable malloc'd host
//              memory, as the GPUSs example's first run finds it; the whole call is timed
//   xt-pin     the same with cublasXt's pinning mode on (CUBLASXT_PINNING_ENABLED): it page-locks
//              the matrices inside each call, as GPUSs does inside its first run
//   xt-pinned  cublasXt from host memory page-locked beforehand (cudaHostRegister, not timed)
//
// Every mode runs once untimed first (cuBLAS loads its kernels, cublasXt makes its streams and
// buffers), then R times (default 2); the best time is reported:
//   vendor=<name> n=<n> gpus=<k> prec=<p> block=<b> seconds=<t> gflops=<g>
// or, when the matrices do not fit:
//   vendor=<name> n=<n> gpus=<k> prec=<p> status=skipped reason=<why>
// GFLOP/s = 2 n^3 / seconds. The matrices are those of examples/gemm (gemm_matrix.h).
#include "cuda_check.h"
#include "gemm_matrix.h"

#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
  std::string mode = "dev";
  int64_t n = 8192;
  char prec = 'd';
  int gpus = 1;
  int reps = 2;
  int block = 0; // cublasXt's tile; 0: its default
};

const char *vendor_name(const Options &o) {
  if (o.mode == "dev") return "cublas";
  if (o.mode == "xt") return "cublasXt";
  if (o.mode == "xt-pin") return "cublasXt-pin";
  return "cublasXt-pinned";
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void report(const Options &o, int block, double seconds) {
  double flops = 2.0 * (double)o.n * o.n * o.n;
  std::printf("vendor=%s n=%lld gpus=%d prec=%c block=%d seconds=%.6f gflops=%.2f\n", vendor_name(o),
              (long long)o.n, o.gpus, o.prec, block, seconds, flops / seconds / 1e9);
}

[[noreturn]] void skip(const Options &o, const char *reason) {
  std::printf("vendor=%s n=%lld gpus=%d prec=%c status=skipped reason=%s\n", vendor_name(o), (long long)o.n,
              o.gpus, o.prec, reason);
  std::exit(0);
}

size_t free_device_bytes() {
  size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  return free_bytes;
}

size_t available_host_bytes() {
  return (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
}

// ---------------------------------------------------------------- cuBLAS overloads

cublasStatus_t gemm(cublasHandle_t h, int64_t n, const float *A, const float *B, float *C) {
  const float one = 1;
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, A, (int)n, B, (int)n, &one, C,
                     (int)n);
}
cublasStatus_t gemm(cublasHandle_t h, int64_t n, const double *A, const double *B, double *C) {
  const double one = 1;
  return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, A, (int)n, B, (int)n, &one, C,
                     (int)n);
}
cublasStatus_t xt_gemm(cublasXtHandle_t h, int64_t n, const float *A, const float *B, float *C) {
  const float one = 1;
  return cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &one, C, n);
}
cublasStatus_t xt_gemm(cublasXtHandle_t h, int64_t n, const double *A, const double *B, double *C) {
  const double one = 1;
  return cublasXtDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &one, C, n);
}

// ---------------------------------------------------------------- the matrices

// Matrix `which` (0 = A, 1 = B, 2 = C), n x n column-major, on the device.
template <typename T> __global__ void fill_device(T *a, int64_t n, int which) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < n * n;
       e += (int64_t)gridDim.x * blockDim.x)
    a[e] = (T)gemm_element(which, e % n, e / n);
}

// The same in host memory, written by every core (plain loops, as the example writes its tiles).
template <typename T> void fill_host(T *a, int64_t n, int which) {
  unsigned threads = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([=] {
      for (int64_t c = t; c < n; c += threads)
        for (int64_t r = 0; r < n; ++r)
          a[c * n + r] = (T)gemm_element(which, r, c);
    });
  for (std::thread &thread : pool)
    thread.join();
}

// ---------------------------------------------------------------- device-resident cuBLAS

template <typename T> void run_device(const Options &o) {
  const int64_t n = o.n;
  const size_t bytes = sizeof(T) * (size_t)n * n;
  CUDA_CHECK(cudaSetDevice(0));
  if (3 * bytes + (size_t{1} << 30) > free_device_bytes()) skip(o, "gpu_memory");
  T *m[3];
  for (int w = 0; w < 3; ++w) {
    CUDA_CHECK(cudaMalloc(&m[w], bytes));
    fill_device<T><<<4096, 256>>>(m[w], n, w);
    CUDA_CHECK(cudaGetLastError());
  }
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUDA_CHECK(cudaDeviceSynchronize());
  double best = 1e30;
  for (int rep = -1; rep < o.reps; ++rep) { // rep -1: the untimed warm-up
    double start = now();
    CUBLAS_CHECK(gemm(handle, n, m[0], m[1], m[2]));
    CUDA_CHECK(cudaDeviceSynchronize());
    if (rep >= 0) best = std::min(best, now() - start);
  }
  report(o, 0, best);
  CUBLAS_CHECK(cublasDestroy(handle));
  for (T *p : m)
    CUDA_CHECK(cudaFree(p));
}

// ---------------------------------------------------------------- cublasXt from host memory

template <typename T> void run_xt(const Options &o) {
  const int64_t n = o.n;
  const size_t bytes = sizeof(T) * (size_t)n * n;
  if (3 * bytes + (size_t{2} << 30) > available_host_bytes()) skip(o, "host_memory");
  int present = 0;
  CUDA_CHECK(cudaGetDeviceCount(&present));
  if (o.gpus > present) skip(o, "not_enough_gpus");

  cublasXtHandle_t handle;
  CUBLAS_CHECK(cublasXtCreate(&handle));
  std::vector<int> devices(o.gpus);
  for (int d = 0; d < o.gpus; ++d)
    devices[d] = d;
  CUBLAS_CHECK(cublasXtDeviceSelect(handle, o.gpus, devices.data()));
  if (o.block > 0) CUBLAS_CHECK(cublasXtSetBlockDim(handle, o.block));
  int block = 0;
  CUBLAS_CHECK(cublasXtGetBlockDim(handle, &block));
  CUBLAS_CHECK(cublasXtSetPinningMemMode(handle, o.mode == "xt-pin" ? CUBLASXT_PINNING_ENABLED
                                                                    : CUBLASXT_PINNING_DISABLED));

  // The warm-up: a small product, so that its cost does not depend on n.
  {
    const int64_t w = std::min<int64_t>(n, 2 * (int64_t)block);
    std::vector<T> a((size_t)w * w, T(0)), b((size_t)w * w, T(0)), c((size_t)w * w, T(0));
    CUBLAS_CHECK(xt_gemm(handle, w, a.data(), b.data(), c.data()));
  }

  T *m[3];
  for (int w = 0; w < 3; ++w) {
    m[w] = static_cast<T *>(std::malloc(bytes)); // pageable, like the example's tiles
    if (m[w] == nullptr) skip(o, "host_memory");
    fill_host(m[w], n, w);
  }
  if (o.mode == "xt-pinned")
    for (T *p : m)
      CUDA_CHECK(cudaHostRegister(p, bytes, cudaHostRegisterPortable));

  double best = 1e30;
  for (int rep = 0; rep < o.reps; ++rep) {
    double start = now();
    CUBLAS_CHECK(xt_gemm(handle, n, m[0], m[1], m[2])); // returns when C is back in host memory
    best = std::min(best, now() - start);
  }
  report(o, block, best);
  for (T *p : m) {
    if (o.mode == "xt-pinned") CUDA_CHECK(cudaHostUnregister(p));
    std::free(p);
  }
  CUBLAS_CHECK(cublasXtDestroy(handle));
}

[[noreturn]] void usage(const char *message) {
  std::fprintf(stderr,
               "vendor_gemm: %s\n"
               "usage: vendor_gemm --mode dev|xt|xt-pin|xt-pinned -n N [--prec d|s] [--gpus K] [--reps R] "
               "[--block B]\n",
               message);
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int a = 1; a < argc; a++) {
    std::string arg = argv[a];
    const char *value = a + 1 < argc ? argv[a + 1] : nullptr;
    if (value == nullptr) usage(("missing value after " + arg).c_str());
    a++;
    if (arg == "--mode")
      o.mode = value;
    else if (arg == "-n")
      o.n = std::atoll(value);
    else if (arg == "--prec")
      o.prec = value[0];
    else if (arg == "--gpus")
      o.gpus = std::atoi(value);
    else if (arg == "--reps")
      o.reps = std::atoi(value);
    else if (arg == "--block")
      o.block = std::atoi(value);
    else
      usage(("unknown argument " + arg).c_str());
  }
  if (o.mode != "dev" && o.mode != "xt" && o.mode != "xt-pin" && o.mode != "xt-pinned")
    usage("--mode is dev, xt, xt-pin or xt-pinned");
  if (o.n <= 0 || o.n > 2147483647 / 2 || o.gpus <= 0 || o.reps <= 0 || o.block < 0) usage("bad size");
  if (o.prec != 'd' && o.prec != 's') usage("--prec is d or s");
  if (o.mode == "dev" && o.gpus != 1) usage("--mode dev uses one GPU");

  int present = 0;
  if (cudaGetDeviceCount(&present) != cudaSuccess || present == 0) skip(o, "no_gpu");
  if (o.mode == "dev")
    o.prec == 'd' ? run_device<double>(o) : run_device<float>(o);
  else
    o.prec == 'd' ? run_xt<double>(o) : run_xt<float>(o);
  return 0;
}
