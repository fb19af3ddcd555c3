// vendor_cholesky.cu: the vendor baselines of the Cholesky benchmark.
//
//   vendor_cholesky --mode dn|h2h|mg -n N [--gpus K] [--prec d|s] [--reps R] [--block T_A]
//
//   dn   cusolverDnXpotrf on GPU 0, matrix already in device memory; only potrf is timed
//   h2h  the same with the matrix in pageable host memory: copy in, potrf, copy out, all timed
//        (what a program that starts and ends with the matrix on the host pays)
//   mg   cusolverMgPotrf over GPUs 0..K-1, 1-D column-block-cyclic, device-resident (double only)
//
// Prints one line, the best of R repetitions:
//   vendor=<name> n=<n> gpus=<k> prec=<p> seconds=<t> gflops=<g>
// or, when the matrix does not fit:
//   vendor=<name> n=<n> gpus=<k> prec=<p> status=skipped reason=<why>
#include "cuda_check.h"
#include "mg_layout.h"
#include "spd_matrix.h"

#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cusolverMg.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string mode = "dn";
  int64_t n = 16384;
  int gpus = 1;
  char prec = 'd';
  int reps = 2;
  int64_t block = 1024; // T_A, the column block of cusolverMg
};

const char *vendor_name(const Options &o) {
  return o.mode == "dn" ? "cusolverDn" : o.mode == "h2h" ? "cusolverDn-h2h" : "cusolverMg";
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void report(const Options &o, double seconds) {
  double flops = (double)o.n * o.n * o.n / 3.0;
  std::printf("vendor=%s n=%lld gpus=%d prec=%c seconds=%.6f gflops=%.2f\n", vendor_name(o), (long long)o.n,
              o.gpus, o.prec, seconds, flops / seconds / 1e9);
}

[[noreturn]] void skip(const Options &o, const char *reason) {
  std::printf("vendor=%s n=%lld gpus=%d prec=%c status=skipped reason=%s\n", vendor_name(o), (long long)o.n,
              o.gpus, o.prec, reason);
  std::exit(0);
}

size_t available_host_bytes() {
  return (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
}

// Columns [col0, col0 + cols) of the n x n matrix, column-major with leading dimension ld.
template <typename T> __global__ void fill_columns(T *a, int64_t ld, int64_t n, int64_t col0, int64_t cols) {
  int64_t total = n * cols;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total;
       e += (int64_t)gridDim.x * blockDim.x) {
    int64_t r = e % n, c = e / n;
    a[c * ld + r] = (T)spd_element(r, col0 + c, n);
  }
}

// ---------------------------------------------------------------- cusolverDn, one GPU

template <typename T> void run_dn(const Options &o) {
  const cudaDataType type = sizeof(T) == 8 ? CUDA_R_64F : CUDA_R_32F;
  const int64_t n = o.n;
  const size_t bytes = sizeof(T) * (size_t)n * n;
  if (o.mode == "h2h" && bytes + (size_t{1} << 30) > available_host_bytes()) skip(o, "host_memory");

  CUDA_CHECK(cudaSetDevice(0));
  cusolverDnHandle_t handle;
  CUSOLVER_CHECK(cusolverDnCreate(&handle));
  cusolverDnParams_t params;
  CUSOLVER_CHECK(cusolverDnCreateParams(&params));
  size_t work_device = 0, work_host = 0;
  CUSOLVER_CHECK(cusolverDnXpotrf_bufferSize(handle, params, CUBLAS_FILL_MODE_LOWER, n, type, nullptr, n,
                                             type, &work_device, &work_host));
  if (bytes + work_device + (size_t{256} << 20) > mg_free_device_bytes(0)) skip(o, "gpu_memory");

  T *a = nullptr;
  void *work = nullptr;
  int *info = nullptr;
  CUDA_CHECK(cudaMalloc(&a, bytes));
  CUDA_CHECK(cudaMalloc(&work, std::max<size_t>(work_device, 1)));
  CUDA_CHECK(cudaMalloc(&info, sizeof(int)));
  std::vector<char> host_work(std::max<size_t>(work_host, 1));
  T *host = nullptr;
  if (o.mode == "h2h") {
    host = static_cast<T *>(std::malloc(bytes)); // pageable, like the user's matrix
    if (host == nullptr) skip(o, "host_memory");
  }

  double best = 1e30;
  for (int rep = 0; rep < o.reps; rep++) {
    fill_columns<T><<<4096, 256>>>(a, n, n, 0, n);
    if (host != nullptr) CUDA_CHECK(cudaMemcpy(host, a, bytes, cudaMemcpyDeviceToHost)); // untimed set-up
    CUDA_CHECK(cudaDeviceSynchronize());
    double start = now();
    if (host != nullptr) CUDA_CHECK(cudaMemcpy(a, host, bytes, cudaMemcpyHostToDevice));
    CUSOLVER_CHECK(cusolverDnXpotrf(handle, params, CUBLAS_FILL_MODE_LOWER, n, type, a, n, type, work,
                                    work_device, host_work.data(), work_host, info));
    if (host != nullptr) CUDA_CHECK(cudaMemcpy(host, a, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaDeviceSynchronize());
    best = std::min(best, now() - start);
    int status = 0;
    CUDA_CHECK(cudaMemcpy(&status, info, sizeof(int), cudaMemcpyDeviceToHost));
    if (status != 0) {
      std::fprintf(stderr, "vendor_cholesky: potrf info=%d\n", status);
      std::exit(1);
    }
  }
  report(o, best);
  std::free(host);
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(work));
  CUDA_CHECK(cudaFree(info));
  cusolverDnDestroyParams(params);
  cusolverDnDestroy(handle);
}

// ---------------------------------------------------------------- cusolverMg, several GPUs

void run_mg(const Options &o) {
  const int nd = o.gpus;
  const int64_t n = o.n, block = o.block;
  int present = 0;
  CUDA_CHECK(cudaGetDeviceCount(&present));
  if (nd > present) skip(o, "not_enough_gpus");

  MgContext mg(nd, n, block);
  cusolverMgHandle_t handle = mg.handle;
  cudaLibMgMatrixDesc_t desc = mg.desc;

  const int64_t blocks = mg_blocks(n, block);
  const size_t local_bytes = sizeof(double) * mg_local_elements(n, n, block, nd);
  std::vector<double *> a(nd, nullptr), work(nd, nullptr);
  for (int d = 0; d < nd; d++) {
    if (local_bytes + (size_t{512} << 20) > mg_free_device_bytes(d)) skip(o, "gpu_memory");
    CUDA_CHECK(cudaMalloc(&a[d], local_bytes));
  }
  int64_t lwork = 0;
  CUSOLVER_CHECK(cusolverMgPotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n,
                                            reinterpret_cast<void **>(a.data()), 1, 1, desc, CUDA_R_64F,
                                            &lwork));
  for (int d = 0; d < nd; d++) {
    if (sizeof(double) * (size_t)lwork + (size_t{128} << 20) > mg_free_device_bytes(d)) skip(o, "gpu_memory");
    CUDA_CHECK(cudaMalloc(&work[d], sizeof(double) * std::max<int64_t>(lwork, 1)));
  }

  double best = 1e30;
  for (int rep = 0; rep < o.reps; rep++) {
    for (int64_t jb = 0; jb < blocks; jb++) { // generate in place, no scatter needed
      const int d = mg_owner(jb, nd);
      CUDA_CHECK(cudaSetDevice(d));
      int64_t cols = std::min(block, n - jb * block);
      fill_columns<double><<<1024, 256>>>(a[d] + mg_local_offset(jb, nd, block, n), n, n, jb * block, cols);
    }
    mg_synchronize(nd);
    int info = 0;
    double start = now();
    CUSOLVER_CHECK(cusolverMgPotrf(handle, CUBLAS_FILL_MODE_LOWER, n, reinterpret_cast<void **>(a.data()), 1,
                                   1, desc, CUDA_R_64F, reinterpret_cast<void **>(work.data()), lwork,
                                   &info));
    mg_synchronize(nd);
    best = std::min(best, now() - start);
    if (info != 0) {
      std::fprintf(stderr, "vendor_cholesky: cusolverMgPotrf info=%d\n", info);
      std::exit(1);
    }
  }
  report(o, best);
  for (int d = 0; d < nd; d++) {
    CUDA_CHECK(cudaSetDevice(d));
    CUDA_CHECK(cudaFree(a[d]));
    CUDA_CHECK(cudaFree(work[d]));
  }
}

[[noreturn]] void usage(const char *message) {
  std::fprintf(
      stderr,
      "vendor_cholesky: %s\n"
      "usage: vendor_cholesky --mode dn|h2h|mg -n N [--gpus K] [--prec d|s] [--reps R] [--block T_A]\n",
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
    else if (arg == "--gpus")
      o.gpus = std::atoi(value);
    else if (arg == "--prec")
      o.prec = value[0];
    else if (arg == "--reps")
      o.reps = std::atoi(value);
    else if (arg == "--block")
      o.block = std::atoll(value);
    else
      usage(("unknown argument " + arg).c_str());
  }
  if (o.mode != "dn" && o.mode != "h2h" && o.mode != "mg") usage("--mode is dn, h2h or mg");
  if (o.n <= 0 || o.gpus <= 0 || o.reps <= 0 || o.block <= 0) usage("sizes must be positive");
  if (o.prec != 'd' && o.prec != 's') usage("--prec is d or s");
  if (o.mode == "mg" && o.prec != 'd') usage("--mode mg is double precision only");
  if (o.mode != "mg" && o.gpus != 1) usage("--mode dn and h2h use one GPU");

  int present = 0;
  if (cudaGetDeviceCount(&present) != cudaSuccess || present == 0) skip(o, "no_gpu");
  if (o.mode == "mg")
    run_mg(o);
  else if (o.prec == 'd')
    run_dn<double>(o);
  else
    run_dn<float>(o);
  return 0;
}
