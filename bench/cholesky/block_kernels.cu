// block_kernels.cu: the time of one Cholesky block kernel on one GPU, for
// each way the example could run it.
//
//   block_kernels [--ts T] [--reps R]
//
// Prints one line per kernel: `kernel=<name> ts=<T> us=<time per call>
// tflops=<rate>`. The `x3` rows run the calls round robin on three streams,
// each with its own cuBLAS handle, as a GPU worker does with
// CSS_GPU_STREAMS=3: they give the time per call when calls overlap.
//
// Why it exists: cuBLAS dtrsm on a 2048 block runs at a fraction of dgemm's
// rate, and the trsm tasks are a quarter of the factorisation's GPU time.
// The rows here are the candidates for replacing them: a triangular inverse
// once per panel (cusolverDnXtrtri, or a solve against the identity), then a
// multiply per block (trmm out of place or in place, or gemm). The example's
// --inverse-trsm took the fastest pair (docs/performance.md, 2026-11-23).
#include "cuda_check.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int lanes = 3;

struct Lane {
  cudaStream_t stream{};
  cublasHandle_t cublas{};
};

// A well-conditioned lower triangle (what potrf leaves): 1 on the diagonal
// plus small entries below it, scaled so that the inverse stays modest.
__global__ void fill_blocks(double *A, double *B, double *C, double *L, int ts) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long n = (long)ts * ts;
  if (i >= n) return;
  long row = i % ts, col = i / ts;
  double hash = ((row * 2654435761L + col * 40503L) % 1000) / 1000.0 - 0.5;
  A[i] = hash;
  B[i] = -hash;
  C[i] = hash * 0.5;
  L[i] = row == col ? 1.0 + 0.1 * hash : row > col ? hash / ts : 0.0;
}

double time_us(const char *name, int ts, double flops, int reps, bool overlap, std::vector<Lane> &lane,
               const std::function<void(Lane &, int)> &call) {
  for (int r = 0; r < lanes; ++r)
    call(lane[r % lanes], r); // warm-up: plans, workspaces
  CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, lane[0].stream));
  for (int l = 1; l < lanes; ++l)
    CUDA_CHECK(cudaStreamWaitEvent(lane[l].stream, start));
  for (int r = 0; r < reps; ++r)
    call(lane[overlap ? r % lanes : 0], r);
  for (int l = 1; l < lanes; ++l) { // join every lane into lane 0 before the stop event
    cudaEvent_t joined;
    CUDA_CHECK(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(joined, lane[l].stream));
    CUDA_CHECK(cudaStreamWaitEvent(lane[0].stream, joined));
    CUDA_CHECK(cudaEventDestroy(joined));
  }
  CUDA_CHECK(cudaEventRecord(stop, lane[0].stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  double us = 1000.0 * ms / reps;
  std::printf("kernel=%s%s ts=%d us=%.1f tflops=%.2f\n", name, overlap ? "-x3" : "", ts, us,
              flops / us / 1e6);
  std::fflush(stdout);
  return us;
}

} // namespace

int main(int argc, char **argv) {
  int ts = 2048, reps = 30;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "--ts") && a + 1 < argc)
      ts = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--reps") && a + 1 < argc)
      reps = std::atoi(argv[++a]);
    else {
      std::fprintf(stderr, "usage: block_kernels [--ts T] [--reps R]\n");
      return 2;
    }
  }
  const long elems = (long)ts * ts;
  const size_t bytes = sizeof(double) * elems;
  std::vector<Lane> lane(lanes);
  for (Lane &l : lane) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking));
    CUBLAS_CHECK(cublasCreate(&l.cublas));
    CUBLAS_CHECK(cublasSetStream(l.cublas, l.stream));
  }
  // One set of blocks per lane so that overlapping calls never share an output.
  struct Blocks {
    double *A, *B, *C, *L, *W, *scratch;
  };
  std::vector<Blocks> blocks(lanes);
  for (Blocks &b : blocks) {
    for (double **p : {&b.A, &b.B, &b.C, &b.L, &b.W, &b.scratch})
      CUDA_CHECK(cudaMalloc(p, bytes));
    fill_blocks<<<(elems + 255) / 256, 256>>>(b.A, b.B, b.C, b.L, ts);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(b.W, b.L, bytes, cudaMemcpyDeviceToDevice));
  }
  cusolverDnHandle_t solver;
  CUSOLVER_CHECK(cusolverDnCreate(&solver));
  CUSOLVER_CHECK(cusolverDnSetStream(solver, lane[0].stream));
  cusolverDnParams_t params;
  CUSOLVER_CHECK(cusolverDnCreateParams(&params));
  size_t trtri_device_bytes = 0, trtri_host_bytes = 0;
  CUSOLVER_CHECK(cusolverDnXtrtri_bufferSize(solver, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, ts,
                                             CUDA_R_64F, blocks[0].W, ts, &trtri_device_bytes,
                                             &trtri_host_bytes));
  void *trtri_device = nullptr;
  CUDA_CHECK(cudaMalloc(&trtri_device, trtri_device_bytes + 8));
  std::vector<char> trtri_host(trtri_host_bytes + 8);
  int *info = nullptr;
  CUDA_CHECK(cudaMalloc(&info, sizeof(int)));
  int potrf_lwork = 0;
  CUSOLVER_CHECK(
      cusolverDnDpotrf_bufferSize(solver, CUBLAS_FILL_MODE_LOWER, ts, blocks[0].C, ts, &potrf_lwork));
  double *potrf_work = nullptr;
  CUDA_CHECK(cudaMalloc(&potrf_work, sizeof(double) * (potrf_lwork + 1)));

  const double one = 1, minus_one = -1, zero = 0;
  const double n3 = (double)ts * ts * ts;
  auto index = [&](Lane &l) { return int(&l - lane.data()); };

  for (bool overlap : {false, true}) {
    time_us("dgemm", ts, 2 * n3, reps, overlap, lane, [&](Lane &l, int) {
      Blocks &b = blocks[index(l)];
      CUBLAS_CHECK(cublasDgemm(l.cublas, CUBLAS_OP_N, CUBLAS_OP_T, ts, ts, ts, &minus_one, b.A, ts, b.B, ts,
                               &one, b.C, ts));
    });
    time_us("dsyrk", ts, n3, reps, overlap, lane, [&](Lane &l, int) {
      Blocks &b = blocks[index(l)];
      CUBLAS_CHECK(cublasDsyrk(l.cublas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, ts, ts, &minus_one, b.A, ts,
                               &one, b.C, ts));
    });
    // What the example runs today: B := B L^-T.
    time_us("dtrsm-right-lower-t", ts, n3, reps, overlap, lane, [&](Lane &l, int) {
      Blocks &b = blocks[index(l)];
      CUBLAS_CHECK(cublasDtrsm(l.cublas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                               CUBLAS_DIAG_NON_UNIT, ts, ts, &one, b.L, ts, b.B, ts));
    });
    time_us("dtrsm-left-lower-n", ts, n3, reps, overlap, lane, [&](Lane &l, int) {
      Blocks &b = blocks[index(l)];
      CUBLAS_CHECK(cublasDtrsm(l.cublas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, ts, ts, &one, b.L, ts, b.B, ts));
    });
    // The same solve given W = L^-1: B := B W^T, out of place, then copied back.
    time_us("dtrmm-right-lower-t+copy", ts, n3, reps, overlap, lane, [&](Lane &l, int) {
      Blocks &b = blocks[index(l)];
      CUBLAS_CHECK(cublasDtrmm(l.cublas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                               CUBLAS_DIAG_NON_UNIT, ts, ts, &one, b.W, ts, b.B, ts, b.scratch, ts));
      CUDA_CHECK(cudaMemcpyAsync(b.B, b.scratch, bytes, cudaMemcpyDeviceToDevice, l.stream));
    });
    // cuBLAS's documented in-place form (C = B), as the example's chol_dtrmm runs it.
    time_us("dtrmm-right-lower-t-in-place", ts, n3, reps, overlap, lane, [&](Lane &l, int) {
      Blocks &b = blocks[index(l)];
      CUBLAS_CHECK(cublasDtrmm(l.cublas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                               CUBLAS_DIAG_NON_UNIT, ts, ts, &one, b.W, ts, b.B, ts, b.B, ts));
    });
    time_us("dgemm-by-inverse+copy", ts, n3, reps, overlap, lane, [&](Lane &l, int) {
      Blocks &b = blocks[index(l)];
      CUBLAS_CHECK(cublasDgemm(l.cublas, CUBLAS_OP_N, CUBLAS_OP_T, ts, ts, ts, &one, b.B, ts, b.W, ts, &zero,
                               b.scratch, ts));
      CUDA_CHECK(cudaMemcpyAsync(b.B, b.scratch, bytes, cudaMemcpyDeviceToDevice, l.stream));
    });
  }
  // Once per panel, on one stream (the solver handle's).
  time_us("dtrtri", ts, n3 / 3, reps, false, lane, [&](Lane &, int) {
    CUDA_CHECK(cudaMemcpyAsync(blocks[0].W, blocks[0].L, bytes, cudaMemcpyDeviceToDevice, lane[0].stream));
    CUSOLVER_CHECK(cusolverDnXtrtri(solver, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, ts, CUDA_R_64F,
                                    blocks[0].W, ts, trtri_device, trtri_device_bytes, trtri_host.data(),
                                    trtri_host_bytes, info));
  });
  time_us("dtrsm-identity", ts, n3 / 3, reps, false, lane, [&](Lane &l, int) {
    Blocks &b = blocks[0];
    CUBLAS_CHECK(cublasDtrsm(l.cublas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                             CUBLAS_DIAG_NON_UNIT, ts, ts, &one, b.L, ts, b.W, ts));
  });
  time_us("dpotrf", ts, n3 / 3, reps, false, lane, [&](Lane &, int) {
    Blocks &b = blocks[0];
    CUDA_CHECK(cudaMemcpyAsync(b.scratch, b.L, bytes, cudaMemcpyDeviceToDevice, lane[0].stream));
    // L L^T + ts I is positive definite; potrf of it costs what any potrf does.
    CUBLAS_CHECK(cublasDsyrk(lane[0].cublas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, ts, ts, &one, b.L, ts,
                             &zero, b.scratch, ts));
    CUSOLVER_CHECK(
        cusolverDnDpotrf(solver, CUBLAS_FILL_MODE_LOWER, ts, b.scratch, ts, potrf_work, potrf_lwork, info));
  });

  // Accuracy of the inverse route against the solve, on one block.
  {
    Blocks &b = blocks[0];
    CUDA_CHECK(cudaMemcpy(b.W, b.L, bytes, cudaMemcpyDeviceToDevice));
    CUSOLVER_CHECK(cusolverDnXtrtri(solver, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, ts, CUDA_R_64F, b.W,
                                    ts, trtri_device, trtri_device_bytes, trtri_host.data(), trtri_host_bytes,
                                    info));
    CUDA_CHECK(cudaMemcpy(b.scratch, b.A, bytes, cudaMemcpyDeviceToDevice));
    CUBLAS_CHECK(cublasDtrsm(lane[0].cublas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                             CUBLAS_DIAG_NON_UNIT, ts, ts, &one, b.L, ts, b.scratch, ts));
    CUBLAS_CHECK(cublasDtrmm(lane[0].cublas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                             CUBLAS_DIAG_NON_UNIT, ts, ts, &one, b.W, ts, b.A, ts, b.C, ts));
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> solved(elems), multiplied(elems);
    CUDA_CHECK(cudaMemcpy(solved.data(), b.scratch, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(multiplied.data(), b.C, bytes, cudaMemcpyDeviceToHost));
    double diff = 0, norm = 0;
    for (long i = 0; i < elems; ++i) {
      diff = std::max(diff, std::abs(solved[i] - multiplied[i]));
      norm = std::max(norm, std::abs(solved[i]));
    }
    std::printf("accuracy ts=%d max|trsm - trtri+trmm| / max|trsm| = %.3e\n", ts, diff / norm);
  }
  return 0;
}
