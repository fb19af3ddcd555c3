// GPU tests: tasks with real kernels and cuBLAS calls, run by the runtime on
// 1, 2 and 4 GPUs under each coherence policy, with caches large and far
// smaller than the data. Each test skips, saying why, where the GPUs are
// missing.
#include "Runtime.hpp"
#include "gpu_kernels.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using gpuss::CachePolicy;
using gpuss::Config;
using gpuss::Runtime;

int gpus_present() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

struct ScaleArgs {
  std::size_t n;
  double factor, addend;
};

// inout(x[n]): x = x*factor + addend, as a kernel on the worker's stream.
void scale_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<ScaleArgs *>(packed);
  auto *x = static_cast<double *>(env->addresses[0]);
  launch_scale_add(x, args->n, args->factor, args->addend, static_cast<cudaStream_t>(env->cuda_stream));
}

struct AxpyArgs {
  std::size_t n;
  double alpha;
};

// input(x[n]) inout(y[n]): y += alpha*x.
void axpy_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<AxpyArgs *>(packed);
  auto *x = static_cast<const double *>(env->addresses[0]);
  auto *y = static_cast<double *>(env->addresses[1]);
  launch_axpy(y, x, args->n, args->alpha, static_cast<cudaStream_t>(env->cuda_stream));
}

// Host task: input(x[n]) inout(sum[1]).
void host_sum_body(void *packed, const css_task_env *env) {
  std::size_t n = *static_cast<std::size_t *>(packed);
  auto *x = static_cast<const double *>(env->addresses[0]);
  auto *sum = static_cast<double *>(env->addresses[1]);
  for (std::size_t i = 0; i < n; ++i) *sum += x[i];
}

struct GemmArgs {
  int ts;
};

// input(A[ts][ts], B[ts][ts]) inout(C[ts][ts]): C -= A*B^T through cuBLAS,
// with the worker's handle (already bound to its stream).
void gemm_body(void *packed, const css_task_env *env) {
  int ts = static_cast<GemmArgs *>(packed)->ts;
  const double minus_one = -1.0, one = 1.0;
  auto handle = static_cast<cublasHandle_t>(css_cublas_handle_ptr());
  ASSERT_EQ(handle, env->cublas_handle);
  cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, ts, ts, ts, &minus_one, static_cast<const double *>(env->addresses[0]),
              ts, static_cast<const double *>(env->addresses[1]), ts, &one, static_cast<double *>(env->addresses[2]),
              ts);
}

css_access access(void *base, std::size_t bytes, css_direction direction) {
  return css_access{css_contiguous(base, bytes), static_cast<std::uint32_t>(direction), CSS_COPY_DEFAULT};
}

template <typename Args>
void submit(Runtime &runtime, css_task_body body, const Args &args, std::vector<css_access> accesses,
            std::uint32_t device = CSS_DEVICE_CUDA) {
  css_task_desc desc{GPUSS_ABI_VERSION, device, 0, static_cast<std::uint32_t>(accesses.size()), accesses.data(), body,
                     &args, sizeof args, "gpu_test_task", __FILE__, __LINE__};
  runtime.submit(desc);
}

// GPUs, policy, cache size in MiB (0: the default, most of the GPU).
using Setting = std::tuple<int, CachePolicy, int>;

class GpuRuntime : public ::testing::TestWithParam<Setting> {
protected:
  void SetUp() override {
    int wanted = std::get<0>(GetParam());
    int present = gpus_present();
    if (present < wanted)
      GTEST_SKIP() << "needs " << wanted << " GPU(s), " << present << " present; run on a GPU node (docs/testing.md)";
    config.num_cpus = 2;
    config.num_gpus = wanted;
    config.cache_policy = std::get<1>(GetParam());
    if (int mib = std::get<2>(GetParam())) config.device_memory = std::to_string(mib) + "M";
  }
  Config config;
};

// Kernels over blocks: every block is scaled on some GPU, mixed with axpy
// tasks that read other blocks, then summed on the host. Caches smaller than
// the data force evictions with write-backs.
TEST_P(GpuRuntime, KernelsAndHostTasksMatchSequential) {
  constexpr std::size_t blocks = 48, n = 1 << 18; // 2 MiB a block, 96 MiB in all
  std::vector<std::vector<double>> data(blocks, std::vector<double>(n));
  std::vector<std::vector<double>> expected = data;
  std::mt19937 random(7);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t i = 0; i < n; ++i) data[b][i] = expected[b][i] = static_cast<double>((b * 131 + i) % 97);
  std::vector<double> sums(blocks, 0.0), expected_sums(blocks, 0.0);
  {
    Runtime runtime(config);
    for (int round = 0; round < 6; ++round) {
      for (std::size_t b = 0; b < blocks; ++b) {
        ScaleArgs scale{n, 0.5, static_cast<double>(round)};
        submit(runtime, scale_body, scale, {access(data[b].data(), n * sizeof(double), CSS_INOUT)});
        for (double &v : expected[b]) v = v * 0.5 + round;
      }
      for (std::size_t b = 0; b < blocks; ++b) {
        std::size_t from = random() % blocks;
        if (from == b) continue;
        AxpyArgs axpy{n, 0.25};
        submit(runtime, axpy_body, axpy,
               {access(data[from].data(), n * sizeof(double), CSS_IN), access(data[b].data(), n * sizeof(double), CSS_INOUT)});
        for (std::size_t i = 0; i < n; ++i) expected[b][i] += 0.25 * expected[from][i];
      }
      if (round == 3) {
        // Host tasks read what the GPUs wrote.
        for (std::size_t b = 0; b < blocks; b += 5) {
          submit(runtime, host_sum_body, n,
                 {access(data[b].data(), n * sizeof(double), CSS_IN), access(&sums[b], sizeof(double), CSS_INOUT)},
                 CSS_DEVICE_SMP);
          for (double v : expected[b]) expected_sums[b] += v;
        }
      }
    }
    runtime.barrier();
    auto stats = runtime.stats();
    EXPECT_GT(stats.bytes_h2d, 0u);
    RecordProperty("bytes_moved", std::to_string(stats.bytes_h2d + stats.bytes_d2h + stats.bytes_p2p));
  }
  for (std::size_t b = 0; b < blocks; ++b) {
    ASSERT_EQ(0, std::memcmp(data[b].data(), expected[b].data(), n * sizeof(double))) << "block " << b;
    EXPECT_DOUBLE_EQ(sums[b], expected_sums[b]) << "block " << b;
  }
}

// Blocked C -= A*B^T through cuBLAS on every GPU.
TEST_P(GpuRuntime, CublasGemmTilesMatchHost) {
  constexpr int ts = 128, nt = 4;
  constexpr std::size_t tile = static_cast<std::size_t>(ts) * ts;
  std::vector<std::vector<double>> a(nt * nt, std::vector<double>(tile)), c = a;
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (auto &t : a)
    for (double &v : t) v = uniform(random);
  for (auto &t : c)
    for (double &v : t) v = uniform(random);
  std::vector<std::vector<double>> expected = c;
  {
    Runtime runtime(config);
    for (int i = 0; i < nt; ++i)
      for (int j = 0; j < nt; ++j)
        for (int k = 0; k < nt; ++k)
          submit(runtime, gemm_body, GemmArgs{ts},
                 {access(a[i * nt + k].data(), tile * sizeof(double), CSS_IN),
                  access(a[j * nt + k].data(), tile * sizeof(double), CSS_IN),
                  access(c[i * nt + j].data(), tile * sizeof(double), CSS_INOUT)});
    runtime.finish();
  }
  for (int i = 0; i < nt; ++i)
    for (int j = 0; j < nt; ++j) {
      auto &e = expected[i * nt + j];
      for (int k = 0; k < nt; ++k) {
        const auto &x = a[i * nt + k], &y = a[j * nt + k];
        for (int col = 0; col < ts; ++col)
          for (int l = 0; l < ts; ++l)
            for (int row = 0; row < ts; ++row) e[col * ts + row] -= x[l * ts + row] * y[l * ts + col];
      }
      double worst = 0;
      for (std::size_t v = 0; v < tile; ++v) worst = std::max(worst, std::abs(e[v] - c[i * nt + j][v]));
      ASSERT_LT(worst, 1e-9) << "tile " << i << "," << j;
    }
}

INSTANTIATE_TEST_SUITE_P(
    GpusPoliciesCaches, GpuRuntime,
    ::testing::Combine(::testing::Values(1, 2, 4),
                       ::testing::Values(CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack),
                       ::testing::Values(0, 24)),
    [](const auto &info) {
      return std::to_string(std::get<0>(info.param)) + "gpu_" + gpuss::to_string(std::get<1>(info.param)) + "_" +
             (std::get<2>(info.param) == 0 ? "large" : "small");
    });

// wb moves fewer bytes than wt, and wt fewer than nocache, on a workload
// that reuses data on the device.
TEST(GpuPolicies, BytesMovedOrderWbWtNocache) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  auto moved = [](CachePolicy policy) {
    constexpr std::size_t blocks = 8, n = 1 << 16;
    std::vector<std::vector<double>> data(blocks, std::vector<double>(n, 1.0));
    Config config;
    config.num_gpus = 1;
    config.cache_policy = policy;
    Runtime runtime(config);
    for (int round = 0; round < 4; ++round)
      for (std::size_t b = 0; b < blocks; ++b)
        submit(runtime, scale_body, ScaleArgs{n, 1.0, 1.0}, {access(data[b].data(), n * sizeof(double), CSS_INOUT)});
    runtime.finish();
    for (auto &block : data)
      for (double v : block) EXPECT_EQ(v, 5.0);
    auto s = runtime.stats();
    return s.bytes_h2d + s.bytes_d2h + s.bytes_p2p;
  };
  std::uint64_t wb = moved(CachePolicy::WriteBack), wt = moved(CachePolicy::WriteThrough),
                nocache = moved(CachePolicy::NoCache);
  EXPECT_LT(wb, wt);
  EXPECT_LT(wt, nocache);
}

} // namespace
