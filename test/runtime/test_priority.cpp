// Priorities: the ready queue hands CSS_TASK_HIGH_PRIORITY tasks out first.
//
// With one host worker held by a gate task, normal and then high-priority
// independent tasks pile up in the ready queue; once the gate opens the
// high-priority ones must run first.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuss::test {
namespace {

struct Log {
  std::mutex mutex;
  std::vector<int> order; // task ids in the order they started; high ones are >= 1000
  void record(int id) {
    std::lock_guard lock(mutex);
    order.push_back(id);
  }
};

// Waits until the runtime reports `count` ready tasks at once, or a while.
void wait_until_ready(const Runtime &runtime, std::uint64_t count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (runtime.stats().max_ready < count && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50)); // let the helper finish handing them over
}

class Priority : public ::testing::TestWithParam<unsigned> {};

TEST_P(Priority, HighPriorityTasksRunFirst) {
  const unsigned cpus = GetParam();
  Runtime runtime(host_config(cpus));
  Gate gate;
  Log log;
  constexpr int normal = 16, high = 16;
  std::vector<int> slots(normal + high);

  // Hold every worker.
  for (unsigned w = 0; w < cpus; ++w)
    Task("gate").body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < normal; ++i)
    Task("normal").out(slots[i]).body([&log, i](TaskEnv) { log.record(i); }).submit(runtime);
  for (int i = 0; i < high; ++i)
    Task("urgent")
        .out(slots[normal + i])
        .high_priority()
        .body([&log, i](TaskEnv) { log.record(1000 + i); })
        .submit(runtime);
  wait_until_ready(runtime, normal + high);
  gate.open();
  runtime.barrier();

  ASSERT_FALSE(gate.ran_on_master()) << "gate task ran inside submit: no worker threads";
  ASSERT_EQ(log.order.size(), static_cast<std::size_t>(normal + high));
  // Several workers may each take one task at the instant the gate opens
  // and record slightly out of order; allow that many inversions.
  const auto last_high =
      std::find_if(log.order.rbegin(), log.order.rend(), [](int id) { return id >= 1000; });
  const auto normals_before_last_high =
      std::count_if(last_high, log.order.rend(), [](int id) { return id < 1000; });
  EXPECT_LE(normals_before_last_high, static_cast<long>(cpus))
      << "normal tasks overtook high-priority ones; first task run: " << log.order.front();
  EXPECT_GE(log.order.front(), 1000) << "the first task after the gate was not a high-priority one";
}

TEST_P(Priority, HighPriorityKeepsDependencies) {
  // A high-priority task that depends on a normal one still waits for it.
  Runtime runtime(host_config(GetParam()));
  int value = 1;
  for (int i = 0; i < 10; ++i) {
    Task("normal_step")
        .inout(value)
        .body([](TaskEnv env) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          *env.ptr<int>(0) *= 2;
        })
        .submit(runtime);
    Task("urgent_step")
        .inout(value)
        .high_priority()
        .body([](TaskEnv env) { *env.ptr<int>(0) += 1; })
        .submit(runtime);
  }
  runtime.barrier();
  int expected = 1;
  for (int i = 0; i < 10; ++i)
    expected = expected * 2 + 1;
  EXPECT_EQ(value, expected);
}

// With accelerators, a ready task that several others wait for (a panel
// task of a factorisation) goes ahead of ready tasks that nobody waits for,
// unless CSS_FAN_OUT_FIRST=0. One simulated device staging one task at a
// time, held by a gate; the wide task becomes ready when the gate's task
// ends, after eight leaf tasks queued up.
std::vector<int> order_after_gate(bool fan_out_first) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.prefetch_depth = 0;
  config.fan_out_first = fan_out_first;
  config.critical_path = false; // ranks at the barrier would reorder the queue too
  Runtime runtime(config);
  Gate gate;
  Log log;
  int held = 0, wide = 0;
  std::array<int, 8> leaves{};
  std::array<int, 2> readers{};
  Task("gate").out(held).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < 8; ++i)
    Task("leaf").out(leaves[i]).body([&log, i](TaskEnv) { log.record(i); }).submit(runtime);
  Task("wide").in(held).out(wide).body([&log](TaskEnv) { log.record(1000); }).submit(runtime);
  for (int r = 0; r < 2; ++r)
    Task("reader")
        .in(wide)
        .out(readers[r])
        .body([&log, r](TaskEnv) { log.record(2000 + r); })
        .submit(runtime);
  wait_until_ready(runtime, 8);
  gate.open();
  runtime.barrier();
  EXPECT_FALSE(gate.ran_on_master());
  return log.order;
}

TEST(FanOutFirst, TaskWithSeveralSuccessorsOvertakesQueuedLeaves) {
  std::vector<int> order = order_after_gate(true);
  ASSERT_EQ(order.size(), 11u);
  EXPECT_EQ(order.front(), 1000) << "the wide task waited behind the leaves";
}

TEST(FanOutFirst, DisabledKeepsReadyOrder) {
  std::vector<int> order = order_after_gate(false);
  ASSERT_EQ(order.size(), 11u);
  EXPECT_EQ(order[8], 1000)
      << "without CSS_FAN_OUT_FIRST the wide task runs after the leaves ready before it";
}

// With accelerators, a barrier ranks the waiting tasks by the longest chain
// after each (CSS_CRITICAL_PATH): the head of a chain of six goes ahead of
// eight leaves that became ready with it, and that were submitted before it.
// The gate opens only once the master waits in the barrier.
std::vector<int> order_with_ranks(bool critical_path) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.prefetch_depth = 0;
  config.critical_path = critical_path;
  Runtime runtime(config);
  Gate gate;
  Log log;
  int held = 0, chain = 0;
  std::array<int, 8> leaves{};
  Task("gate").out(held).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < 8; ++i)
    Task("leaf").in(held).out(leaves[i]).body([&log, i](TaskEnv) { log.record(i); }).submit(runtime);
  Task("chain_head").in(held).out(chain).body([&log](TaskEnv) { log.record(1000); }).submit(runtime);
  for (int c = 1; c < 6; ++c)
    Task("chain").inout(chain).body([&log, c](TaskEnv) { log.record(1000 + c); }).submit(runtime);
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    gate.open();
  });
  runtime.barrier();
  opener.join();
  EXPECT_FALSE(gate.ran_on_master());
  return log.order;
}

TEST(CriticalPath, ChainHeadOvertakesLeavesReadyWithIt) {
  std::vector<int> order = order_with_ranks(true);
  ASSERT_EQ(order.size(), 14u);
  EXPECT_EQ(order.front(), 1000) << "the long chain's head waited behind the leaves";
}

TEST(CriticalPath, DisabledKeepsReadyOrder) {
  std::vector<int> order = order_with_ranks(false);
  ASSERT_EQ(order.size(), 14u);
  EXPECT_EQ(order.front(), 0) << "without CSS_CRITICAL_PATH the first leaf submitted runs first";
}

INSTANTIATE_TEST_SUITE_P(Priority, Priority, ::testing::Values(1u, 2u),
                         [](const auto &info) { return "cpus" + std::to_string(info.param); });

} // namespace
} // namespace gpuss::test
