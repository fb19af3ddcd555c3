// CUDA devices: CSS_DEVICE_CUDA tasks run on a GPU worker with its stream,
// their data moved by the cache and directory. Skipped, with a message, on
// machines without a GPU.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <vector>

namespace gpuss::test {
namespace {

int gpu_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count;
}

class Cuda : public ::testing::TestWithParam<CachePolicy> {
protected:
  void SetUp() override {
    if (gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU on this machine";
  }
  Config config() const {
    Config c = host_config(2);
    c.num_gpus = -1;
    c.cache_policy = GetParam();
    c.device_memory = "256M";
    return c;
  }
};

TEST_P(Cuda, KernelResultsReachUserMemory) {
  Runtime runtime(config());
  constexpr std::size_t bytes = 1 << 20;
  std::vector<unsigned char> data(bytes, 0);
  std::atomic<int> bad_env{0};
  Task("gpu_memset")
      .inout(data.data(), bytes)
      .device(CSS_DEVICE_CUDA)
      .body([&](TaskEnv env) {
        const css_task_env &raw = env.raw();
        if (raw.device_kind != CSS_DEVICE_CUDA || raw.device_index < 0 || raw.cuda_stream == nullptr ||
            css_cuda_stream_ptr() != raw.cuda_stream)
          bad_env++;
        cudaMemsetAsync(env.ptr(0), 7, bytes, static_cast<cudaStream_t>(raw.cuda_stream));
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(bad_env.load(), 0) << "the CUDA task did not get a GPU worker's env";
  EXPECT_TRUE(std::all_of(data.begin(), data.end(), [](unsigned char b) { return b == 7; }));
}

TEST_P(Cuda, HostAndGpuTasksShareData) {
  Runtime runtime(config());
  constexpr int n = 1 << 16;
  std::vector<int> a(n), b(n, 0);
  long sum = -1;
  Task("host_init")
      .out(a.data(), n * sizeof(int))
      .body([](TaskEnv env) {
        for (int i = 0; i < n; ++i)
          env.ptr<int>(0)[i] = i;
      })
      .submit(runtime);
  Task("gpu_copy")
      .in(a.data(), n * sizeof(int))
      .out(b.data(), n * sizeof(int))
      .device(CSS_DEVICE_CUDA)
      .body([](TaskEnv env) {
        cudaMemcpyAsync(env.ptr(1), env.ptr(0), n * sizeof(int), cudaMemcpyDeviceToDevice,
                        static_cast<cudaStream_t>(env.raw().cuda_stream));
      })
      .submit(runtime);
  Task("host_sum")
      .in(b.data(), n * sizeof(int))
      .out(sum)
      .body([](TaskEnv env) {
        long s = 0;
        for (int i = 0; i < n; ++i)
          s += env.ptr<const int>(0)[i];
        *env.ptr<long>(1) = s;
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(sum, long(n) * (n - 1) / 2);
  EXPECT_EQ(b[n - 1], n - 1);
}

INSTANTIATE_TEST_SUITE_P(Cuda, Cuda,
                         ::testing::Values(CachePolicy::NoCache, CachePolicy::WriteThrough,
                                           CachePolicy::WriteBack),
                         [](const auto &info) { return std::string(gpuss::to_string(info.param)); });

} // namespace
} // namespace gpuss::test
