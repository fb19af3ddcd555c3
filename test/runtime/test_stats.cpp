// Stats: the counters of stats() and the one `css-stats:` line that
// Config::stats (CSS_STATS=1) prints at finish.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <chrono>

namespace gpuss::test {
namespace {

constexpr int N = 256;
using Block = std::array<int, N>;

// "css-stats: a=1 b=2.5 ..." -> {a: "1", b: "2.5"}; fails the test on a malformed token.
std::map<std::string, std::string> parse_stats_line(const std::string &line) {
  std::map<std::string, std::string> fields;
  std::istringstream words(line);
  std::string word;
  words >> word;
  EXPECT_EQ(word, "css-stats:") << line;
  const std::regex pair("([A-Za-z_][A-Za-z0-9_.]*)=(\\S+)");
  while (words >> word) {
    std::smatch match;
    if (!std::regex_match(word, match, pair)) {
      ADD_FAILURE() << "token '" << word << "' is not key=value in: " << line;
      continue;
    }
    fields[match[1]] = match[2];
  }
  return fields;
}

// Submits `count` independent tasks and a chain, all inout (no renaming).
void submit_work(Runtime &runtime, std::vector<Block> &blocks, int chain) {
  for (std::size_t b = 0; b < blocks.size(); ++b)
    Task("independent")
        .inout(blocks[b])
        .body([b](TaskEnv env) { env.ptr<int>(0)[0] += static_cast<int>(b); })
        .submit(runtime);
  for (int i = 0; i < chain; ++i)
    Task("chained").inout(blocks[0]).body([](TaskEnv env) { env.ptr<int>(0)[1] += 1; }).submit(runtime);
}

class Stats : public ::testing::TestWithParam<Config> {};

TEST_P(Stats, CountersAfterBarrier) {
  const Config config = GetParam();
  Runtime runtime(config);
  std::vector<Block> blocks(32);
  submit_work(runtime, blocks, 10);
  runtime.barrier();
  const StatsSnapshot stats = runtime.stats();
  EXPECT_EQ(stats.tasks, 42u);
  EXPECT_EQ(stats.renamed, 0u) << "inout accesses are never renamed";
  EXPECT_GE(stats.max_ready, 1u);
  EXPECT_LE(stats.max_ready, 42u);
  EXPECT_GT(stats.wall_seconds, 0.0);
  EXPECT_EQ(stats.cpu_busy_seconds.size(), config.num_cpus);
  EXPECT_EQ(stats.device_busy_seconds.size(), config.sim_devices);
  EXPECT_EQ(stats.device_tasks.size(), config.sim_devices);
  for (double busy : stats.cpu_busy_seconds)
    EXPECT_GE(busy, 0.0);
  const std::uint64_t on_devices =
      std::accumulate(stats.device_tasks.begin(), stats.device_tasks.end(), std::uint64_t{0});
  EXPECT_LE(on_devices, stats.tasks);
  if (config.sim_devices == 0) {
    EXPECT_EQ(stats.bytes_h2d, 0u);
    EXPECT_EQ(stats.bytes_d2h, 0u);
    EXPECT_EQ(stats.bytes_p2p, 0u);
  } else if (on_devices > 0) {
    EXPECT_GT(stats.bytes_h2d, 0u) << "tasks ran on simulated devices without moving data";
    EXPECT_GT(stats.bytes_d2h, 0u) << "the barrier left device results unwritten";
    EXPECT_GT(stats.cache_misses, 0u);
  }
  EXPECT_EQ(blocks[0][1], 10);
  for (std::size_t b = 0; b < blocks.size(); ++b)
    ASSERT_EQ(blocks[b][0], static_cast<int>(b));
  // Each device's traffic and evictions, which add up to the totals.
  auto sum = [](const std::vector<std::uint64_t> &values) {
    return std::accumulate(values.begin(), values.end(), std::uint64_t{0});
  };
  for (const auto *per_device :
       {&stats.device_bytes_in, &stats.device_bytes_out, &stats.device_bytes_peer, &stats.device_evictions})
    EXPECT_EQ(per_device->size(), config.sim_devices);
  EXPECT_EQ(sum(stats.device_bytes_in), stats.bytes_h2d);
  EXPECT_EQ(sum(stats.device_bytes_out), stats.bytes_d2h);
  EXPECT_EQ(sum(stats.device_bytes_peer), stats.bytes_p2p);
  EXPECT_EQ(sum(stats.device_evictions), stats.evictions);
}

TEST_P(Stats, FormatLine) {
  Runtime runtime(GetParam());
  std::vector<Block> blocks(8);
  submit_work(runtime, blocks, 4);
  runtime.barrier();
  const std::string line = runtime.stats().format_line();
  EXPECT_EQ(line.rfind("css-stats:", 0), 0u) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos) << "format_line must be one line without newline";
  auto fields = parse_stats_line(line);
  for (const char *key : {"tasks", "renamed", "max_ready", "wall_s"})
    EXPECT_TRUE(fields.count(key)) << key << " missing in: " << line;
  EXPECT_EQ(fields["tasks"], "12");
  EXPECT_EQ(fields["renamed"], "0");
  EXPECT_EQ(fields["pin_host"], "0") << "without GPUs nothing is page-locked";
  const std::size_t devices = GetParam().sim_devices;
  for (std::size_t d = 0; d < devices; ++d)
    for (const char *what : {"_busy_s", "_tasks", "_bytes_in", "_bytes_out", "_bytes_peer", "_evictions"})
      EXPECT_TRUE(fields.count("gpu" + std::to_string(d) + what)) << "gpu" << d << what << " missing in: " << line;
}

TEST_P(Stats, PrintedOnceAtFinishWhenEnabled) {
  Config config = GetParam();
  config.stats = true;
  std::vector<Block> blocks(8);
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  {
    Runtime runtime(config);
    submit_work(runtime, blocks, 3);
    runtime.barrier();
    runtime.finish();
  }
  const std::string out = ::testing::internal::GetCapturedStdout() + ::testing::internal::GetCapturedStderr();
  std::size_t count = 0, at = 0;
  for (std::size_t p = out.find("css-stats:"); p != std::string::npos; p = out.find("css-stats:", p + 1)) {
    if (count++ == 0) at = p;
  }
  ASSERT_EQ(count, 1u) << "expected exactly one css-stats: line, got:\n" << out;
  const std::string line = out.substr(at, out.find('\n', at) - at);
  auto fields = parse_stats_line(line);
  EXPECT_EQ(fields["tasks"], "11") << line;
  for (const char *key : {"renamed", "max_ready", "wall_s"})
    EXPECT_TRUE(fields.count(key)) << key << " missing in: " << line;
}

TEST_P(Stats, SilentWhenDisabled) {
  std::vector<Block> blocks(4);
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  {
    Runtime runtime(GetParam()); // stats = false
    submit_work(runtime, blocks, 1);
  }
  const std::string out = ::testing::internal::GetCapturedStdout() + ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.find("css-stats:"), std::string::npos) << out;
}

TEST_P(Stats, RenamedCountsRenamedAccesses) {
  Config config = GetParam();
  config.num_cpus = std::max(config.num_cpus, 2u);
  Runtime runtime(config);
  Block data{};
  Gate gate;
  Flag writer_done;
  Task("slow_reader").in(data).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  Task("renamed_writer")
      .out(data)
      .body([&](TaskEnv env) {
        std::fill_n(env.ptr<int>(0), N, 1);
        writer_done.set();
      })
      .submit(runtime);
  writer_done.wait();
  gate.open();
  runtime.barrier();
  EXPECT_EQ(runtime.stats().renamed, 1u);
  EXPECT_EQ(data[0], 1);
}

TEST_P(Stats, EdgesCountsDependenciesBetweenUnfinishedTasks) {
  // Everything waits behind a gated first task, so every dependency is an
  // edge: a chain of 10 on one block (one edge each), 3 readers of its
  // result (one each) and a writer after them (the last writer and the 3
  // readers). The readers' own outputs are fresh regions: no edge.
  Runtime runtime(GetParam());
  Block data{};
  std::array<long, 3> sums{};
  Gate gate;
  Task("gated").inout(data).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < 10; ++i)
    Task("chained").inout(data).body([](TaskEnv env) { env.ptr<int>(0)[0] += 1; }).submit(runtime);
  for (long &sum : sums)
    Task("reader")
        .in(data)
        .out(sum)
        .body([](TaskEnv env) { *env.ptr<long>(1) = env.ptr<int>(0)[0]; })
        .submit(runtime);
  Task("writer").inout(data).body([](TaskEnv env) { env.ptr<int>(0)[0] *= 2; }).submit(runtime);
  const std::uint64_t edges = runtime.stats().edges;
  gate.open();
  runtime.barrier();
  EXPECT_FALSE(gate.ran_on_master());
  EXPECT_EQ(edges, 10u + 3u + 4u);
  EXPECT_EQ(runtime.stats().edges, edges) << "the barrier made edges";
  for (long sum : sums)
    EXPECT_EQ(sum, 10);
  EXPECT_EQ(data[0], 20);
  EXPECT_EQ(parse_stats_line(runtime.stats().format_line())["edges"], std::to_string(edges));
}

INSTANTIATE_TEST_SUITE_P(Stats, Stats,
                         ::testing::Values(host_config(1), host_config(3),
                                           sim_config(1, 2, CachePolicy::WriteBack, "1M")),
                         [](const auto &info) { return config_name(info.param); });

// ---------------------------------------------------------------- device counters

TEST(DeviceStats, TinyCacheEvicts) {
  // 32 blocks of 1 KiB through a simulated device with 4 KiB: with no host
  // worker every task runs there, so the device must evict (with a host
  // worker, host tasks invalidating device copies could make room instead).
  Runtime runtime(sim_config(0, 1, CachePolicy::WriteBack, "4K", "round-robin"));
  std::vector<std::array<int, 256>> blocks(32);
  std::atomic<int> on_device{0};
  for (int round = 0; round < 3; ++round)
    for (auto &block : blocks)
      Task("touch")
          .inout(block)
          .body([&](TaskEnv env) {
            if (env.device_index() >= 0) on_device++;
            env.ptr<int>(0)[5] += 1;
          })
          .submit(runtime);
  runtime.barrier();
  for (auto &block : blocks)
    ASSERT_EQ(block[5], 3);
  const StatsSnapshot stats = runtime.stats();
  if (on_device.load() < 8)
    GTEST_SKIP() << "only " << on_device.load() << " tasks ran on the simulated device";
  EXPECT_GT(stats.evictions, 0u);
  EXPECT_GT(stats.cache_misses, 0u);
  EXPECT_GT(stats.bytes_h2d, 0u);
  EXPECT_GT(stats.bytes_d2h, 0u);
  EXPECT_GT(std::accumulate(stats.device_busy_seconds.begin(), stats.device_busy_seconds.end(), 0.0), 0.0);
}

TEST(DeviceStats, QueuedWorkEmptiesWithTheDevices) {
  // The scheduler's estimate of the work staged on each device (placement
  // compares them) must return to zero when the devices empty, even when the
  // learned durations changed while tasks were staged: here 20 ms bodies
  // teach "work" a long duration, then instant ones of the same label are
  // staged under that estimate and finish while it shrinks. Subtracting the
  // current estimate at each completion left tens of ms in the queues of
  // empty devices (on four H100s, 66 to 154 ms), which skewed placement.
  Runtime runtime(sim_config(0, 2, CachePolicy::WriteBack, "1M"));
  std::vector<Block> blocks(48);
  for (std::size_t b = 0; b < 16; ++b)
    Task("work")
        .inout(blocks[b])
        .body([](TaskEnv env) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          env.ptr<int>(0)[0] = 1;
        })
        .submit(runtime);
  runtime.barrier();
  for (std::size_t b = 16; b < blocks.size(); ++b)
    Task("work").inout(blocks[b]).body([](TaskEnv env) { env.ptr<int>(0)[0] = 1; }).submit(runtime);
  runtime.barrier();
  for (const Block &block : blocks)
    ASSERT_EQ(block[0], 1);
  const StatsSnapshot stats = runtime.stats();
  ASSERT_EQ(stats.device_queued_seconds.size(), 2u);
  for (std::size_t d = 0; d < 2; ++d)
    EXPECT_EQ(stats.device_queued_seconds[d], 0.0) << "work left in the queue of empty device " << d;
}

// `rankings` counts the barriers whose ranks the scheduler put in force:
// one per barrier that finds unfinished tasks when accelerators rank (the
// tests that hold a gate until the graph is ranked wait on it:
// barrier_then_open), none without accelerators or with
// CSS_CRITICAL_PATH=0. A gate holds the work so that it is unfinished when
// the barrier ranks.
std::uint64_t rankings_of_two_gated_barriers(const Config &config) {
  Runtime runtime(config);
  std::vector<Block> blocks(8);
  int held = 0;
  for (int round = 0; round < 2; ++round) {
    Gate gate;
    Task("gate").inout(held).body([&](TaskEnv) { EXPECT_TRUE(gate.wait()); }).submit(runtime);
    submit_work(runtime, blocks, 4);
    barrier_then_open(runtime, [&] { gate.open(); });
    runtime.barrier(); // nothing submitted since the last: nothing to rank
  }
  return runtime.stats().rankings;
}

TEST(RankingStats, OneRankingPerBarrierWithWorkWhenDevicesRank) {
  EXPECT_EQ(rankings_of_two_gated_barriers(sim_config(0, 1, CachePolicy::WriteBack, "1M")), 2u);
  Config unranked = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  unranked.critical_path = false;
  EXPECT_EQ(rankings_of_two_gated_barriers(unranked), 0u);
  EXPECT_EQ(rankings_of_two_gated_barriers(host_config(2)), 0u);
}

} // namespace
} // namespace gpuss::test
