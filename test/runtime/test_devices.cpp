// Simulated devices: host tasks that run on simulated accelerators see their
// data in the device's own memory space, moved there and back by the cache,
// directory and coherence protocol, under every policy and scheduler, with
// caches far smaller than the data.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <mutex>
#include <set>
#include <vector>

namespace gpuss::test {
namespace {

constexpr int N = 256; // 1 KiB blocks
using Block = std::array<int, N>;

class SimDevices : public ::testing::TestWithParam<Config> {};

TEST_P(SimDevices, DeviceTasksSeeDeviceAddresses) {
  const Config config = GetParam();
  Runtime runtime(config);
  std::vector<Block> blocks(16);
  std::mutex mutex;
  std::set<int> devices_seen;
  std::atomic<int> bad_index{0}, host_address_on_device{0};
  for (int round = 0; round < 4; ++round)
    for (auto &block : blocks)
      Task("touch")
          .inout(block)
          .body([&](TaskEnv env) {
            const int device = env.device_index();
            if (device >= static_cast<int>(config.sim_devices)) bad_index++;
            if (device >= 0 && !env.relocated(0)) host_address_on_device++;
            {
              std::lock_guard lock(mutex);
              devices_seen.insert(device);
            }
            env.ptr<int>(0)[0] += 1;
          })
          .submit(runtime);
  runtime.barrier();
  for (auto &block : blocks)
    ASSERT_EQ(block[0], 4);
  EXPECT_EQ(bad_index.load(), 0) << "device_index outside [-1, sim_devices)";
  EXPECT_EQ(host_address_on_device.load(), 0) << "a task on a simulated device was given user memory";
  if (devices_seen.size() == 1 && *devices_seen.begin() == -1)
    GTEST_SKIP() << "the scheduler ran every task on the host";
}

TEST_P(SimDevices, WorkingSetLargerThanTheCache) {
  Runtime runtime(GetParam());
  constexpr int blocks = 48;
  std::vector<Block> data(blocks), shadow(blocks);
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < N; ++i)
      data[b][i] = shadow[b][i] = b * N + i;
  // Sweeps that read a neighbour and update a block.
  for (int sweep = 0; sweep < 4; ++sweep)
    for (int b = 0; b < blocks; ++b) {
      const int from = (b * 7 + sweep) % blocks;
      if (from == b) continue;
      Task("sweep")
          .inout(data[b])
          .in(data[from])
          .body([](TaskEnv env) {
            int *to = env.ptr<int>(0);
            const int *src = env.ptr<const int>(1);
            for (int i = 0; i < N; ++i)
              to[i] = to[i] * 3 + src[N - 1 - i];
          })
          .submit(runtime);
      for (int i = 0; i < N; ++i)
        shadow[b][i] = shadow[b][i] * 3 + shadow[from][N - 1 - i];
    }
  runtime.barrier();
  for (int b = 0; b < blocks; ++b)
    ASSERT_EQ(data[b], shadow[b]) << "block " << b;
}

TEST_P(SimDevices, InterleavedColumnsKeepTheirGaps) {
  // Column tasks write every other int; copies must move rows, not spans,
  // or one column's write-back clobbers its neighbour.
  Runtime runtime(GetParam());
  static int matrix[32][32];
  int shadow[32][32] = {};
  for (auto &row : matrix)
    std::fill(std::begin(row), std::end(row), 0);
  for (int round = 0; round < 3; ++round)
    for (int c = 0; c < 32; ++c) {
      Task("column")
          .strided(CSS_INOUT, &matrix[0][c], sizeof(int), 32, sizeof matrix[0])
          .body([=](TaskEnv env) {
            for (int r = 0; r < 32; ++r)
              env.at<int>(0, r, 0) = env.at<int>(0, r, 0) * 2 + r + c + round;
          })
          .submit(runtime);
      for (int r = 0; r < 32; ++r)
        shadow[r][c] = shadow[r][c] * 2 + r + c + round;
    }
  // And row tasks over the same bytes.
  for (int r = 0; r < 32; r += 3) {
    Task("row")
        .inout(matrix[r])
        .body([](TaskEnv env) {
          for (int c = 0; c < 32; ++c)
            env.ptr<int>(0)[c] += 1000;
        })
        .submit(runtime);
    for (int c = 0; c < 32; ++c)
      shadow[r][c] += 1000;
  }
  runtime.barrier();
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c)
      ASSERT_EQ(matrix[r][c], shadow[r][c]) << r << "," << c;
}

TEST_P(SimDevices, ProducerConsumerAcrossDevices) {
  Runtime runtime(GetParam());
  constexpr int stages = 24;
  std::vector<Block> data(stages);
  Task("seed")
      .out(data[0])
      .body([](TaskEnv env) {
        for (int i = 0; i < N; ++i)
          env.ptr<int>(0)[i] = i;
      })
      .submit(runtime);
  for (int s = 1; s < stages; ++s)
    Task("stage")
        .in(data[s - 1])
        .out(data[s])
        .body([](TaskEnv env) {
          for (int i = 0; i < N; ++i)
            env.ptr<int>(1)[i] = env.ptr<const int>(0)[i] + 1;
        })
        .submit(runtime);
  runtime.barrier();
  for (int s = 0; s < stages; ++s)
    for (int i = 0; i < N; ++i)
      ASSERT_EQ(data[s][i], i + s);
}

std::vector<Config> device_configs() {
  std::vector<Config> configs;
  for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack})
    for (const char *scheduler : {"locality", "eager", "round-robin"}) {
      configs.push_back(sim_config(1, 1, policy, "4K", scheduler));
      configs.push_back(sim_config(2, 3, policy, "8K", scheduler));
    }
  configs.push_back(sim_config(1, 2, CachePolicy::WriteBack, "50%", "locality"));
  configs.push_back(sim_config(2, 3, CachePolicy::WriteBack, "8K", "locality-nowait"));
  return configs;
}

INSTANTIATE_TEST_SUITE_P(Devices, SimDevices, ::testing::ValuesIn(device_configs()),
                         [](const auto &info) { return config_name(info.param); });

} // namespace
} // namespace gpuss::test
