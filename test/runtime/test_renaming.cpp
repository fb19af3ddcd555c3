// Renaming: an output-only access that would wait for earlier readers or
// writers gets a fresh buffer and runs at once; by the next barrier user
// memory holds the sequential value. Config::rename_memory caps the renamed
// bytes; beyond the cap tasks wait instead, still correctly.
//
// A "slow" task here waits at a Gate that the master opens only after it has
// seen the renamed task finish, so a runtime that does not rename fails the
// test after a timeout instead of hanging.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <numeric>

namespace gpuss::test {
namespace {

constexpr int N = 256;
using Block = std::array<int, N>;

long sum(const int *d) {
  return std::accumulate(d, d + N, 0L);
}

class Renaming : public ::testing::TestWithParam<unsigned> {
protected:
  Config config() const {
    Config c = host_config(GetParam());
    c.rename_memory = 1 << 20;
    return c;
  }
};

TEST_P(Renaming, OutputBehindSlowReaderRunsAtOnce) {
  Runtime runtime(config());
  Block data;
  data.fill(1);
  Gate gate;
  Flag writer_done;
  std::atomic<bool> reader_done{false};
  long reader_saw = -1;
  bool reader_gate_opened = false;

  Task("slow_reader")
      .in(data)
      .out(reader_saw)
      .body([&](TaskEnv env) {
        reader_gate_opened = gate.wait();
        *env.ptr<long>(1) = sum(env.ptr<const int>(0));
        reader_done = true;
      })
      .submit(runtime);
  Task("renamed_writer")
      .out(data)
      .body([&](TaskEnv env) {
        std::fill_n(env.ptr<int>(0), N, 7);
        writer_done.set();
      })
      .submit(runtime);

  const bool overtook = writer_done.wait();
  EXPECT_TRUE(overtook) << "the output-only task waited for the slow reader (not renamed)";
  EXPECT_FALSE(reader_done.load()) << "the reader finished before the gate opened";
  gate.open();
  runtime.barrier();

  EXPECT_FALSE(gate.ran_on_master()) << "the slow reader ran on the master thread inside submit";
  EXPECT_TRUE(reader_gate_opened);
  EXPECT_EQ(reader_saw, N) << "the reader must see the value before the renamed write";
  for (int v : data)
    ASSERT_EQ(v, 7);
  EXPECT_GE(runtime.stats().renamed, 1u);
}

TEST_P(Renaming, LaterReadersUseTheRenamedVersion) {
  // slow inout W1, renamed out W2, reader R of W2's value: R and W2 finish
  // while W1 still runs, and W1's value never reaches user memory.
  Runtime runtime(config());
  Block data;
  data.fill(1);
  Gate gate;
  Flag reader_done;
  long reader_saw = -1;

  Task("slow_inout")
      .inout(data)
      .body([&](TaskEnv env) {
        gate.wait();
        std::for_each(env.ptr<int>(0), env.ptr<int>(0) + N, [](int &v) { v += 100; });
      })
      .submit(runtime);
  Task("renamed_writer")
      .out(data)
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 5); })
      .submit(runtime);
  Task("reader_of_renamed")
      .in(data)
      .out(reader_saw)
      .body([&](TaskEnv env) {
        *env.ptr<long>(1) = sum(env.ptr<const int>(0));
        reader_done.set();
      })
      .submit(runtime);

  EXPECT_TRUE(reader_done.wait()) << "the reader of the renamed version waited for the slow task";
  gate.open();
  runtime.barrier();

  EXPECT_EQ(reader_saw, 5L * N);
  for (int v : data)
    ASSERT_EQ(v, 5) << "a stale version reached user memory";
  EXPECT_GE(runtime.stats().renamed, 1u);
}

TEST_P(Renaming, RenamedChainsAreCorrectAfterBarrier) {
  // Many generations of out/inout/in on a few blocks, readers slowed so that
  // renaming happens; the result must equal sequential execution.
  Runtime runtime(config());
  constexpr int blocks = 4, rounds = 50;
  std::array<Block, blocks> data{};
  std::array<long, blocks * rounds> seen{};
  for (int r = 0; r < rounds; ++r)
    for (int b = 0; b < blocks; ++b) {
      Task("generation")
          .out(data[b])
          .body([=](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, r * 10 + b); })
          .submit(runtime);
      Task("bump").inout(data[b]).body([](TaskEnv env) { env.ptr<int>(0)[0] += 1; }).submit(runtime);
      Task("slow_reader")
          .in(data[b])
          .out(seen[r * blocks + b])
          .body([](TaskEnv env) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            *env.ptr<long>(1) = sum(env.ptr<const int>(0));
          })
          .submit(runtime);
    }
  runtime.barrier();
  for (int r = 0; r < rounds; ++r)
    for (int b = 0; b < blocks; ++b)
      ASSERT_EQ(seen[r * blocks + b], (r * 10L + b) * N + 1) << r << "," << b;
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(data[b][0], (rounds - 1) * 10 + b + 1);
    EXPECT_EQ(data[b][1], (rounds - 1) * 10 + b);
  }
}

TEST_P(Renaming, PartialOutputIsRenamedOrOrderedCorrectly) {
  // An output over part of a region read by a slow reader: whatever the
  // runtime does, the reader sees old data and user memory ends up merged.
  Runtime runtime(config());
  Block data;
  data.fill(1);
  long reader_saw = -1;
  Task("slow_reader")
      .in(data)
      .out(reader_saw)
      .body([](TaskEnv env) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        *env.ptr<long>(1) = sum(env.ptr<const int>(0));
      })
      .submit(runtime);
  Task("half_writer")
      .out(&data[N / 2], N / 2 * sizeof(int))
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N / 2, 3); })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(reader_saw, N);
  for (int i = 0; i < N; ++i)
    ASSERT_EQ(data[i], i < N / 2 ? 1 : 3);
}

INSTANTIATE_TEST_SUITE_P(Renaming, Renaming, ::testing::Values(2u, 4u),
                         [](const auto &info) { return "cpus" + std::to_string(info.param); });

// ---------------------------------------------------------------- the cap

class RenameCap : public ::testing::TestWithParam<std::size_t> {};

TEST_P(RenameCap, OutputWaitsWhenTheCapForbidsRenaming) {
  Config config = host_config(2);
  config.rename_memory = GetParam(); // 0, or smaller than the block
  Runtime runtime(config);
  Block data;
  data.fill(1);
  std::atomic<bool> reader_done{false};
  bool writer_saw_reader_done = false;
  long reader_saw = -1;
  Task("slow_reader")
      .in(data)
      .out(reader_saw)
      .body([&](TaskEnv env) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        *env.ptr<long>(1) = sum(env.ptr<const int>(0));
        reader_done = true;
      })
      .submit(runtime);
  Task("writer")
      .out(data)
      .body([&](TaskEnv env) {
        writer_saw_reader_done = reader_done.load();
        std::fill_n(env.ptr<int>(0), N, 7);
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(runtime.stats().renamed, 0u);
  EXPECT_TRUE(writer_saw_reader_done) << "the writer ran before the reader without renaming";
  EXPECT_EQ(reader_saw, N);
  for (int v : data)
    ASSERT_EQ(v, 7);
}

TEST_P(RenameCap, ManyRenamesUnderACapStayCorrect) {
  Config config = host_config(4);
  config.rename_memory = GetParam() == 0 ? 0 : 4 * sizeof(Block);
  Runtime runtime(config);
  constexpr int blocks = 16, rounds = 20;
  std::vector<Block> data(blocks);
  std::vector<long> seen(blocks * rounds, -1);
  for (int r = 0; r < rounds; ++r)
    for (int b = 0; b < blocks; ++b) {
      Task("slow_reader")
          .in(data[b])
          .out(seen[r * blocks + b])
          .body([](TaskEnv env) {
            std::this_thread::sleep_for(std::chrono::microseconds(100));
            *env.ptr<long>(1) = sum(env.ptr<const int>(0));
          })
          .submit(runtime);
      Task("overwrite")
          .out(data[b])
          .body([=](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, r + b); })
          .submit(runtime);
    }
  runtime.barrier();
  for (int r = 0; r < rounds; ++r)
    for (int b = 0; b < blocks; ++b)
      ASSERT_EQ(seen[r * blocks + b], r == 0 ? 0L : long(r - 1 + b) * N);
  for (int b = 0; b < blocks; ++b)
    for (int v : data[b])
      ASSERT_EQ(v, rounds - 1 + b);
  if (config.rename_memory == 0) {
    EXPECT_EQ(runtime.stats().renamed, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Renaming, RenameCap, ::testing::Values(std::size_t{0}, sizeof(Block) / 2),
                         [](const auto &info) { return "cap" + std::to_string(info.param); });

// ---------------------------------------------------------------- renaming with devices

class RenamingOnDevices : public ::testing::TestWithParam<Config> {};

TEST_P(RenamingOnDevices, SequentialValueAfterBarrier) {
  Runtime runtime(GetParam());
  constexpr int blocks = 6, rounds = 30;
  std::vector<Block> data(blocks);
  std::vector<long> seen(blocks * rounds, -1);
  for (int r = 0; r < rounds; ++r)
    for (int b = 0; b < blocks; ++b) {
      Task("reader")
          .in(data[b])
          .out(seen[r * blocks + b])
          .body([](TaskEnv env) { *env.ptr<long>(1) = sum(env.ptr<const int>(0)); })
          .submit(runtime);
      Task("overwrite")
          .out(data[b])
          .body([=](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, r * b + 1); })
          .submit(runtime);
      Task("mix")
          .inout(data[b])
          .in(data[(b + 1) % blocks])
          .body([](TaskEnv env) { env.ptr<int>(0)[1] += env.ptr<const int>(1)[2]; })
          .submit(runtime);
    }
  runtime.barrier();

  // The same program, sequentially.
  std::vector<Block> shadow(blocks);
  std::vector<long> shadow_seen(blocks * rounds);
  for (int r = 0; r < rounds; ++r)
    for (int b = 0; b < blocks; ++b) {
      shadow_seen[r * blocks + b] = sum(shadow[b].data());
      shadow[b].fill(r * b + 1);
      shadow[b][1] += shadow[(b + 1) % blocks][2];
    }
  EXPECT_EQ(seen, shadow_seen);
  for (int b = 0; b < blocks; ++b)
    EXPECT_EQ(data[b], shadow[b]) << "block " << b;
}

INSTANTIATE_TEST_SUITE_P(Renaming, RenamingOnDevices,
                         ::testing::Values(sim_config(2, 2, CachePolicy::WriteBack, "1M"),
                                           sim_config(1, 2, CachePolicy::WriteThrough, "4K"),
                                           sim_config(2, 1, CachePolicy::NoCache, "1M")),
                         [](const auto &info) { return config_name(info.param); });

} // namespace
} // namespace gpuss::test
