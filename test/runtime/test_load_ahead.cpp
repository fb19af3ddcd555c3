// Load-ahead (CSS_LOAD_AHEAD): when the master waits in a barrier, the data
// of ranked tasks that are not ready yet goes to the devices ahead of them.
//
// A gate task holds every other task back until the master is in the
// barrier. Eight blocks are first used by gated updates (read and written),
// so their values in host memory are final for those updates and are loaded
// ahead; two blocks are first written by gated producers, so their host
// values are obsolete and must not be; every result must still be exact.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <thread>
#include <vector>

namespace gpuss::test {
namespace {

constexpr int N = 256;
using Block = std::array<int, N>;

struct Outcome {
  std::uint64_t loads_ahead = 0;
  bool exact = true;
};

Outcome run_gated(bool load_ahead, unsigned cpus, unsigned devices) {
  Config config = sim_config(cpus, devices, CachePolicy::WriteBack, "1M");
  config.load_ahead = load_ahead;
  Runtime runtime(config);
  Gate gate;
  int held = 0;
  std::vector<Block> updated(8), produced(2);
  for (std::size_t b = 0; b < updated.size(); ++b)
    updated[b].fill(static_cast<int>(b));
  for (Block &block : produced)
    block.fill(-1); // obsolete once produced: a load of it would carry this

  Task("gate").out(held).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (Block &block : updated)
    Task("update")
        .in(held)
        .inout(block)
        .body([](TaskEnv env) {
          for (int i = 0; i < N; ++i)
            env.ptr<int>(1)[i] += 100; // access 0 is the gate's output
        })
        .submit(runtime);
  for (std::size_t p = 0; p < produced.size(); ++p) {
    Task("produce")
        .in(held)
        .out(produced[p])
        .body([p](TaskEnv env) {
          for (int i = 0; i < N; ++i)
            env.ptr<int>(1)[i] = static_cast<int>(1000 + p);
        })
        .submit(runtime);
    Task("consume")
        .in(produced[p])
        .inout(updated[p])
        .body([](TaskEnv env) {
          for (int i = 0; i < N; ++i)
            env.ptr<int>(1)[i] += env.ptr<const int>(0)[i];
        })
        .submit(runtime);
  }
  // The gate opens once the barrier has ranked the graph and issued every
  // load (the eight updated blocks): with loads ahead off, once it ranked.
  const std::uint64_t expected_loads = load_ahead ? updated.size() : 0;
  barrier_then_open(runtime, [&] { gate.open(); },
                    [&] { return runtime.stats().loads_ahead >= expected_loads; });

  Outcome outcome;
  outcome.loads_ahead = runtime.stats().loads_ahead;
  for (std::size_t b = 0; b < updated.size(); ++b) {
    int expected = static_cast<int>(b) + 100 + (b < produced.size() ? static_cast<int>(1000 + b) : 0);
    for (int value : updated[b])
      if (value != expected) {
        ADD_FAILURE() << "updated block " << b << " holds " << value << ", expected " << expected;
        outcome.exact = false;
        break;
      }
  }
  for (std::size_t p = 0; p < produced.size(); ++p)
    for (int value : produced[p])
      if (value != static_cast<int>(1000 + p)) {
        ADD_FAILURE() << "produced block " << p << " holds " << value;
        outcome.exact = false;
        break;
      }
  return outcome;
}

class LoadAhead : public ::testing::TestWithParam<std::pair<unsigned, unsigned>> {};

TEST_P(LoadAhead, LoadsOnlyValuesFinalForTheirReaders) {
  auto [cpus, devices] = GetParam();
  Outcome outcome = run_gated(true, cpus, devices);
  EXPECT_TRUE(outcome.exact);
  // Every load is issued while the gate is shut, even those queued behind
  // the gate on the device that runs it.
  EXPECT_EQ(outcome.loads_ahead, 8u) << "the eight updated blocks, and not the two produced ones";
}

TEST_P(LoadAhead, DisabledLoadsNothing) {
  auto [cpus, devices] = GetParam();
  Outcome outcome = run_gated(false, cpus, devices);
  EXPECT_TRUE(outcome.exact);
  EXPECT_EQ(outcome.loads_ahead, 0u);
}

INSTANTIATE_TEST_SUITE_P(Devices, LoadAhead,
                         ::testing::Values(std::pair{1u, 2u}, std::pair{0u, 2u}, std::pair{1u, 3u}),
                         [](const auto &info) {
                           return "cpus" + std::to_string(info.param.first) + "_sim" +
                                  std::to_string(info.param.second);
                         });

} // namespace
} // namespace gpuss::test
