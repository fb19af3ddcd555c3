// wait_on: returns once the tasks that use each region (its last writer and
// the readers after it) have finished and the region's value is in user
// memory, while other tasks keep running.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <numeric>
#include <thread>

namespace gpuss::test {
namespace {

constexpr int N = 128;
using Block = std::array<int, N>;

// ---------------------------------------------------------------- while another task runs (host workers)

class WaitOnConcurrent : public ::testing::TestWithParam<unsigned> {};

TEST_P(WaitOnConcurrent, ReturnsWhileAnUnrelatedTaskRuns) {
  Runtime runtime(host_config(GetParam()));
  Block busy{}, wanted{};
  Gate gate;
  std::atomic<bool> long_task_done{false};
  Task("long_unrelated")
      .inout(busy)
      .body([&](TaskEnv env) {
        gate.wait();
        env.ptr<int>(0)[0] = 1;
        long_task_done = true;
      })
      .submit(runtime);
  Task("writer").out(wanted).body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 42); }).submit(runtime);
  Task("updater").inout(wanted).body([](TaskEnv env) { env.ptr<int>(0)[0] += 1; }).submit(runtime);

  css_region region = css_contiguous(wanted.data(), sizeof wanted);
  runtime.wait_on({&region, 1});
  const bool long_task_still_running = !long_task_done.load();
  Block snapshot = wanted;
  gate.open();
  runtime.barrier();

  EXPECT_TRUE(long_task_still_running) << "wait_on waited for an unrelated task";
  EXPECT_FALSE(gate.ran_on_master());
  EXPECT_EQ(snapshot[0], 43);
  EXPECT_TRUE(std::all_of(snapshot.begin() + 1, snapshot.end(), [](int v) { return v == 42; }));
  EXPECT_EQ(busy[0], 1);
}

TEST_P(WaitOnConcurrent, WaitsForARenamedVersionToReachUserMemory) {
  Runtime runtime(host_config(GetParam()));
  Block data;
  data.fill(1);
  Gate gate;
  long reader_saw = -1;
  Task("slow_reader")
      .in(data)
      .out(reader_saw)
      .body([&](TaskEnv env) {
        gate.wait();
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(d, d + N, 0L);
      })
      .submit(runtime);
  Task("renamed_writer")
      .out(data)
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 9); })
      .submit(runtime);

  // The writer may run on a renamed buffer while the reader holds the old
  // version; wait_on must not return before 9s are in user memory. (A
  // runtime that does not rename makes this wait for the gate: open it from
  // a helper thread after a while so that such a runtime still passes.)
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    gate.open();
  });
  css_region region = css_contiguous(data.data(), sizeof data);
  runtime.wait_on({&region, 1});
  Block snapshot = data;
  opener.join();
  runtime.barrier();
  EXPECT_TRUE(std::all_of(snapshot.begin(), snapshot.end(), [](int v) { return v == 9; }));
  EXPECT_EQ(reader_saw, N);
  for (int v : data)
    ASSERT_EQ(v, 9);
}

INSTANTIATE_TEST_SUITE_P(WaitOn, WaitOnConcurrent, ::testing::Values(2u, 4u),
                         [](const auto &info) { return "cpus" + std::to_string(info.param); });

// ---------------------------------------------------------------- values, over thread counts and devices

class WaitOnValue : public ::testing::TestWithParam<Config> {};

TEST_P(WaitOnValue, NoWriterReturnsAtOnce) {
  Runtime runtime(GetParam());
  Block data{};
  css_region region = css_contiguous(data.data(), sizeof data);
  runtime.wait_on({&region, 1});
  runtime.wait_on({});
  SUCCEED();
}

TEST_P(WaitOnValue, PartialRegionOfALargerWriter) {
  Runtime runtime(GetParam());
  std::array<int, 4 * N> data{};
  Task("big_writer")
      .out(data)
      .body([](TaskEnv env) {
        for (int i = 0; i < 4 * N; ++i)
          env.ptr<int>(0)[i] = i;
      })
      .submit(runtime);
  css_region region = css_contiguous(&data[N], N * sizeof(int));
  runtime.wait_on({&region, 1});
  for (int i = N; i < 2 * N; ++i)
    ASSERT_EQ(data[i], i);
  runtime.barrier();
}

TEST_P(WaitOnValue, SeveralRegionsSeveralWriters) {
  Runtime runtime(GetParam());
  std::array<Block, 8> blocks{};
  for (int round = 0; round < 5; ++round)
    for (int b = 0; b < 8; ++b)
      Task("step")
          .inout(blocks[b])
          .in(blocks[(b + 1) % 8])
          .body([](TaskEnv env) {
            for (int i = 0; i < N; ++i)
              env.ptr<int>(0)[i] = env.ptr<int>(0)[i] * 2 + env.ptr<const int>(1)[i] + 1;
          })
          .submit(runtime);
  std::array<css_region, 2> regions{css_contiguous(blocks[2].data(), sizeof(Block)),
                                    css_contiguous(blocks[5].data(), sizeof(Block))};
  runtime.wait_on(regions);
  std::array<Block, 8> shadow{};
  for (int round = 0; round < 5; ++round)
    for (int b = 0; b < 8; ++b)
      for (int i = 0; i < N; ++i)
        shadow[b][i] = shadow[b][i] * 2 + shadow[(b + 1) % 8][i] + 1;
  EXPECT_EQ(blocks[2], shadow[2]);
  EXPECT_EQ(blocks[5], shadow[5]);
  runtime.barrier();
  EXPECT_EQ(blocks, shadow);
}

TEST_P(WaitOnValue, StridedRegion) {
  Runtime runtime(GetParam());
  int matrix[32][32] = {};
  for (int c = 0; c < 32; ++c)
    Task("column")
        .strided(CSS_INOUT, &matrix[0][c], sizeof(int), 32, sizeof matrix[0])
        .body([c](TaskEnv env) {
          for (int r = 0; r < 32; ++r)
            env.at<int>(0, r, 0) += r * 100 + c;
        })
        .submit(runtime);
  // Rows 3..5, columns 10..20.
  css_region region{&matrix[3][10], 10 * sizeof(int), 3, sizeof matrix[0]};
  runtime.wait_on({&region, 1});
  for (int r = 3; r < 6; ++r)
    for (int c = 10; c < 20; ++c)
      ASSERT_EQ(matrix[r][c], r * 100 + c);
  runtime.barrier();
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c)
      ASSERT_EQ(matrix[r][c], r * 100 + c);
}

TEST_P(WaitOnValue, TasksAfterWaitOnSeeMasterWrites) {
  // After wait_on the master may read the region; a later task reading it
  // sees the same value (the runtime keeps device copies coherent).
  Runtime runtime(GetParam());
  Block data{};
  long seen = -1;
  Task("writer").out(data).body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 3); }).submit(runtime);
  css_region region = css_contiguous(data.data(), sizeof data);
  runtime.wait_on({&region, 1});
  ASSERT_EQ(data[7], 3);
  Task("reader")
      .in(data)
      .out(seen)
      .body([](TaskEnv env) {
        *env.ptr<long>(1) = std::accumulate(env.ptr<const int>(0), env.ptr<const int>(0) + N, 0L);
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(seen, 3L * N);
}

// OmpSs list code: `taskwait on(*prev); prev->next = victim->next;` while a
// task called earlier still reads *prev. Here the reader waits behind a
// gated task, so that it copies the data to the device after a wait on that
// waited only for the writer; that copy counted as current, the next task
// on the device read it instead of what the master wrote, and its
// write-back put the old bytes over the master's (the list program lost a
// link in 28 of 1,200 runs).
TEST(WaitOnReaders, AReaderCalledBeforeTheWaitCannotHideWhatTheMasterWritesAfterIt) {
  Runtime runtime(sim_config(0, 1, CachePolicy::WriteBack, "1M"));
  Block data{}, other{};
  long seen = -1;
  Gate gate;
  std::atomic<bool> reader_done{false};
  Task("writer").out(data).body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 5); }).submit(runtime);
  css_region region = css_contiguous(data.data(), sizeof data);
  runtime.wait_on({&region, 1}); // the writer's value home, no device copy left
  Task("gated").inout(other).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  Task("reader")
      .in(data)
      .in(other)
      .out(seen)
      .body([&](TaskEnv env) {
        *env.ptr<long>(2) = std::accumulate(env.ptr<const int>(0), env.ptr<const int>(0) + N, 0L);
        reader_done = true;
      })
      .submit(runtime);
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    gate.open();
  });
  runtime.wait_on({&region, 1});
  EXPECT_TRUE(reader_done.load()) << "wait on returned while a task called before it still read the data";
  while (!reader_done.load()) // as a runtime that returned early: the reader's copy is on the device
    std::this_thread::yield();
  data.fill(7); // the program's own write, which the wait on allows
  Task("updater").inout(data).body([](TaskEnv env) { env.ptr<int>(0)[0] += 1; }).submit(runtime);
  runtime.barrier();
  opener.join();
  EXPECT_EQ(seen, 5L * N);
  EXPECT_EQ(data[0], 8) << "the task after the wait on did not see what the master wrote";
  EXPECT_TRUE(std::all_of(data.begin() + 1, data.end(), [](int v) { return v == 7; }))
      << "a device copy of the old value was written over what the master wrote";
}

std::vector<Config> value_configs() {
  std::vector<Config> configs{host_config(1), host_config(3)};
  for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack})
    configs.push_back(sim_config(1, 2, policy, "1M"));
  configs.push_back(sim_config(2, 3, CachePolicy::WriteBack, "8K", "round-robin"));
  return configs;
}

INSTANTIATE_TEST_SUITE_P(WaitOn, WaitOnValue, ::testing::ValuesIn(value_configs()),
                         [](const auto &info) { return config_name(info.param); });

// ---------------------------------------------------------------- release (a local that stops living)

// css_release is what gpuss-translate calls where a local that tasks use goes
// out of scope: unlike wait on, it also waits for the readers after the last
// writer (the frame is about to be reused), brings device values home, and
// forgets the regions, so that the next frame's locals at the same addresses
// start afresh. Other tasks keep running.
class Release : public ::testing::TestWithParam<Config> {};

TEST_P(Release, WaitsForReadersAfterTheLastWriter) {
  Runtime runtime(GetParam());
  Block local{};
  std::atomic<bool> reader_done{false};
  long seen = 0;
  Task("writer").out(local).body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 2); }).submit(runtime);
  Task("slow_reader")
      .in(local)
      .out(seen)
      .body([&](TaskEnv env) {
        // Long enough that a release that waits for the writer only returns first.
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        *env.ptr<long>(1) = std::accumulate(env.ptr<const int>(0), env.ptr<const int>(0) + N, 0L);
        reader_done = true;
      })
      .submit(runtime);
  css_region region = css_contiguous(local.data(), sizeof local);
  runtime.release({&region, 1});
  EXPECT_TRUE(reader_done.load()) << "release returned while a task still read the local";
  EXPECT_TRUE(std::all_of(local.begin(), local.end(), [](int v) { return v == 2; }))
      << "the writer's value was not in user memory after release";
  local.fill(-1); // the frame is reused: nothing may copy into it any more
  runtime.barrier();
  EXPECT_EQ(seen, 2L * N);
  EXPECT_TRUE(std::all_of(local.begin(), local.end(), [](int v) { return v == -1; }))
      << "a copy landed in the released memory after release";
}

TEST_P(Release, NewDataAtTheSameAddressesStartsAfresh) {
  Runtime runtime(GetParam());
  Block frame{};
  Task("first_life")
      .inout(frame)
      .body([](TaskEnv env) {
        for (int i = 0; i < N; ++i)
          env.ptr<int>(0)[i] += 1;
      })
      .submit(runtime);
  css_region whole = css_contiguous(frame.data(), sizeof frame);
  runtime.release({&whole, 1});
  ASSERT_EQ(frame[5], 1);
  // The next frame puts other data there, cut differently, and writes it
  // without tasks: a device copy of the old value must not be read for it.
  std::iota(frame.begin(), frame.end(), 100);
  long sum = 0;
  Task("second_life")
      .in(&frame[N / 2], N / 2 * sizeof(int))
      .out(sum)
      .body([](TaskEnv env) {
        *env.ptr<long>(1) = std::accumulate(env.ptr<const int>(0), env.ptr<const int>(0) + N / 2, 0L);
      })
      .submit(runtime);
  runtime.barrier();
  long expected = 0;
  for (int i = N / 2; i < N; ++i)
    expected += 100 + i;
  EXPECT_EQ(sum, expected) << "the new data was read from a copy of the released one";
}

TEST_P(Release, ForgottenRegionsNoLongerStopRenaming) {
  Config config = GetParam();
  config.rename_memory = 1 << 20;
  Runtime runtime(config);
  std::array<int, 2 * N> frame{};
  Task("whole").inout(frame).body([](TaskEnv) {}).submit(runtime);
  css_region whole = css_contiguous(frame.data(), sizeof frame);
  runtime.release({&whole, 1});
  // Half of the same memory: a held reader, then an output-only writer,
  // renamed only if no other tracked region overlaps it.
  std::atomic<bool> let_reader_finish{false};
  Task("held_reader")
      .in(frame.data(), N * sizeof(int))
      .body([&](TaskEnv) {
        while (!let_reader_finish.load())
          std::this_thread::yield();
      })
      .submit(runtime);
  Task("writer")
      .out(frame.data(), N * sizeof(int))
      .body([](TaskEnv env) { env.ptr<int>(0)[3] = 7; })
      .submit(runtime);
  let_reader_finish = true;
  runtime.barrier();
  EXPECT_EQ(runtime.stats().renamed, 1u) << "the released region was still tracked";
  EXPECT_EQ(frame[3], 7);
}

TEST_P(Release, LeavesOtherTasksRunning) {
  Runtime runtime(GetParam());
  Block busy{}, local{};
  Gate gate;
  bool opened = false;
  Task("gated").inout(busy).body([&](TaskEnv) { opened = gate.wait(); }).submit(runtime);
  Task("on_local").out(local).body([](TaskEnv env) { env.ptr<int>(0)[0] = 4; }).submit(runtime);
  css_region region = css_contiguous(local.data(), sizeof local);
  runtime.release({&region, 1}); // would wait for the gated task, which waits for the master
  EXPECT_EQ(local[0], 4);
  gate.open();
  runtime.barrier();
  EXPECT_TRUE(opened) << "release waited for a task that does not use the local";
}

std::vector<Config> release_configs() {
  std::vector<Config> configs{host_config(2)};
  for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack})
    configs.push_back(sim_config(1, 2, policy, "1M"));
  return configs;
}

INSTANTIATE_TEST_SUITE_P(Release, Release, ::testing::ValuesIn(release_configs()),
                         [](const auto &info) { return config_name(info.param); });

} // namespace
} // namespace gpuss::test
