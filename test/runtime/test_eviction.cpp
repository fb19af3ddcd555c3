// Eviction under pressure (CSS_EVICTION, issue 20): which replica a full
// device cache gives up (Directory::make_room), and data larger than the
// caches on simulated devices under every cache policy and both rules.
//
// The first tests drive a Directory by hand, as the helper does: plan a
// task, complete the copies ordered, complete the task.
#include "TaskBuilder.hpp"
#include "memory/Directory.hpp"
#include "support/StatsCounters.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

namespace gpuss::test {
namespace {

constexpr std::size_t block = 1024; // a multiple of MemoryPool::alignment: one block per object

class Node : public MemoryNode {
public:
  std::string name() const override { return "sim1"; }
  bool can_copy_from_device(int) const override { return false; }
};

// One device (space 1) whose cache holds `blocks` objects of `block` bytes.
class OneDevice {
public:
  OneDevice(Eviction eviction, std::size_t blocks, std::size_t objects)
      : device_memory_(blocks * block), host_(objects * block) {
    std::vector<std::unique_ptr<SoftwareCache>> caches;
    caches.push_back(std::make_unique<SoftwareCache>(1, device_memory_.data(), device_memory_.size()));
    directory_ = std::make_unique<Directory>(CachePolicy::WriteBack, std::vector<MemoryNode *>{&node_},
                                             std::move(caches), store_, stats_, nullptr, false, eviction);
    for (std::size_t i = 0; i < objects; ++i)
      objects_.push_back(store_.make_original(
          Region::contiguous(reinterpret_cast<std::uintptr_t>(&host_[i * block]), block)));
  }

  ~OneDevice() {
    // Every value home, then the objects retired as the helper would.
    std::vector<DataObjectRef> all(objects_.begin(), objects_.end());
    directory_->flush_to_host(all);
    settle();
    all.clear();
    objects_.clear();
    for (DataObject *object : retired_.drain())
      directory_->retire(object);
  }

  const DataObjectRef &object(std::size_t i) const { return objects_[i]; }
  Directory &directory() { return *directory_; }
  const Stats &stats() const { return stats_; }

  // A task that reads object `i` (and writes it when `writes`), with `rank`.
  static TaskRef task(const DataObjectRef &object, bool writes, std::uint32_t rank = 0) {
    auto task = std::make_shared<gpuss::Task>();
    task->label = writes ? "update" : "read";
    BoundAccess access;
    access.region = object->shape;
    access.object = object;
    access.reads = true;
    access.writes = writes;
    task->accesses.push_back(access);
    task->rank.store(rank, std::memory_order_relaxed);
    return task;
  }

  // Completes every copy the directory has ordered (write-backs), as a
  // device would once they end.
  void settle() {
    for (CopyOrder &order : directory_->take_copy_orders()) {
      Completion done;
      done.space = order.executing_space;
      done.transfers.push_back(std::move(order.transfer));
      directory_->complete(done);
    }
  }

  // Plans `task` on the device; when the plan is made, runs it: its
  // fetches land and it completes.
  PlanOutcome run(const TaskRef &task) {
    TaskPlan plan;
    const PlanOutcome outcome = directory_->plan(*task, 1, plan);
    settle();
    if (outcome == PlanOutcome::Blocked) return outcome;
    Completion done;
    done.task = task;
    done.space = 1;
    done.transfers = std::move(plan.before);
    directory_->complete(done);
    task->completed.store(true, std::memory_order_relaxed);
    task->accesses.clear();
    return outcome;
  }

  bool resident(std::size_t i) const { return objects_[i]->replicas[1].holds_value(); }

private:
  Node node_;
  RenameBudget budget_{0};
  BatchQueue<DataObject *> retired_;
  WakeSignal signal_;
  ObjectStore store_{2, budget_, retired_, signal_};
  Stats stats_{0, 1};
  std::vector<std::byte> device_memory_;
  std::vector<std::byte> host_;
  std::unique_ptr<Directory> directory_;
  std::vector<DataObjectRef> objects_;
};

enum { A, B, C, D };

// A, B and C fill a cache of three (A least recently used); the tasks to
// come read D, then A, then B: C is never used again. Returns the objects
// still on the device once the task reading D is placed.
std::vector<bool> resident_after_belady_scenario(Eviction eviction) {
  OneDevice device(eviction, 3, 4);
  for (int i : {A, B, C})
    EXPECT_EQ(device.run(OneDevice::task(device.object(i), false)), PlanOutcome::Ready);
  TaskRef reads_d = OneDevice::task(device.object(D), false, 3);
  TaskRef reads_a = OneDevice::task(device.object(A), false, 2);
  TaskRef reads_b = OneDevice::task(device.object(B), false, 1);
  device.directory().expect_order({reads_d, reads_a, reads_b});
  EXPECT_EQ(device.run(reads_d), PlanOutcome::Ready);
  EXPECT_EQ(device.stats().evictions.load(), 1u);
  return {device.resident(A), device.resident(B), device.resident(C), device.resident(D)};
}

TEST(NextUseEviction, EvictsTheReplicaWithNoFutureUse) {
  EXPECT_EQ(resident_after_belady_scenario(Eviction::NextUse), (std::vector<bool>{true, true, false, true}))
      << "next-use must give up C, which no task to come uses, and keep A, read next";
}

TEST(NextUseEviction, LruEvictsTheReplicaNeededNext) {
  // The same scenario under LRU: A, the least recently used, goes, and the
  // next task must load it again. This is what next-use fixes.
  EXPECT_EQ(resident_after_belady_scenario(Eviction::Lru), (std::vector<bool>{false, true, true, true}));
}

TEST(NextUseEviction, EvictsTheFurthestNextUse) {
  // All three are used again: in the order C, A, B. B goes.
  OneDevice device(Eviction::NextUse, 3, 4);
  for (int i : {A, B, C})
    ASSERT_EQ(device.run(OneDevice::task(device.object(i), false)), PlanOutcome::Ready);
  TaskRef reads_d = OneDevice::task(device.object(D), false, 4);
  device.directory().expect_order({reads_d, OneDevice::task(device.object(C), false, 3),
                                   OneDevice::task(device.object(A), false, 2),
                                   OneDevice::task(device.object(B), false, 1)});
  ASSERT_EQ(device.run(reads_d), PlanOutcome::Ready);
  EXPECT_TRUE(device.resident(A));
  EXPECT_FALSE(device.resident(B));
  EXPECT_TRUE(device.resident(C));
}

TEST(NextUseEviction, NextUseAdvancesAsTasksComplete) {
  OneDevice device(Eviction::NextUse, 3, 4);
  TaskRef first = OneDevice::task(device.object(A), false, 2);
  TaskRef second = OneDevice::task(device.object(A), false, 1);
  device.directory().expect_order({first, second});
  const std::uint64_t at_first = Directory::next_use(*device.object(A));
  EXPECT_EQ(at_first, first->expected_position);
  EXPECT_LT(first->expected_position, second->expected_position);
  ASSERT_EQ(device.run(first), PlanOutcome::Ready);
  EXPECT_EQ(Directory::next_use(*device.object(A)), second->expected_position);
  ASSERT_EQ(device.run(second), PlanOutcome::Ready);
  EXPECT_EQ(Directory::next_use(*device.object(A)), Directory::no_known_use);
}

// A is dirty, B clean; the tasks to come read D, C, C, B, then A. A's next
// use is the furthest, but only just: giving up clean B costs one reload,
// dirty A a write-back and a reload.
TEST(NextUseEviction, PrefersACleanVictimWhenNextUsesAreClose) {
  OneDevice device(Eviction::NextUse, 3, 4);
  ASSERT_EQ(device.run(OneDevice::task(device.object(A), true)), PlanOutcome::Ready);
  for (int i : {B, C})
    ASSERT_EQ(device.run(OneDevice::task(device.object(i), false)), PlanOutcome::Ready);
  ASSERT_EQ(device.object(A)->dirty_space, 1);
  TaskRef reads_d = OneDevice::task(device.object(D), false, 5);
  device.directory().expect_order(
      {reads_d, OneDevice::task(device.object(C), false, 4), OneDevice::task(device.object(C), false, 3),
       OneDevice::task(device.object(B), false, 2), OneDevice::task(device.object(A), false, 1)});
  ASSERT_EQ(device.run(reads_d), PlanOutcome::Ready);
  EXPECT_TRUE(device.resident(A));
  EXPECT_FALSE(device.resident(B));
  EXPECT_EQ(device.stats().evictions_clean.load(), 1u);
  EXPECT_EQ(device.stats().evictions_dirty.load(), 0u);
}

// Every replica is dirty: the victim is written back, and the task waits
// for that copy rather than have the other two given up as well (they
// would free nothing sooner: their blocks also wait for write-backs).
TEST(NextUseEviction, WaitsForADirtyVictimInsteadOfEvictingMore) {
  for (Eviction eviction : {Eviction::Lru, Eviction::NextUse}) {
    SCOPED_TRACE(to_string(eviction));
    OneDevice device(eviction, 3, 4);
    for (int i : {A, B, C})
      ASSERT_EQ(device.run(OneDevice::task(device.object(i), true)), PlanOutcome::Ready);
    TaskRef reads_d = OneDevice::task(device.object(D), false, 4);
    device.directory().expect_order({reads_d, OneDevice::task(device.object(B), false, 3),
                                     OneDevice::task(device.object(C), false, 2),
                                     OneDevice::task(device.object(A), false, 1)});
    TaskPlan plan;
    EXPECT_EQ(device.directory().plan(*reads_d, 1, plan), PlanOutcome::Blocked);
    EXPECT_EQ(device.stats().evictions_dirty.load(), 1u)
        << "more dirty replicas given up than the task needs";
    const std::vector<CopyOrder> orders = device.directory().take_copy_orders();
    EXPECT_EQ(orders.size(), 1u);
    ASSERT_FALSE(orders.empty());
    EXPECT_EQ(orders[0].transfer.to_space, 0);
    if (eviction == Eviction::NextUse) {
      EXPECT_EQ(orders[0].transfer.object, device.object(A));
    }
    // The write-back ends: its block is free, and the task is placed.
    for (const CopyOrder &order : orders) {
      Completion done;
      done.space = order.executing_space;
      done.transfers.push_back(order.transfer);
      device.directory().complete(done);
    }
    EXPECT_EQ(device.run(reads_d), PlanOutcome::Ready);
    EXPECT_EQ(device.stats().evictions.load(), 1u);
  }
}

// ------------------------------------------------ simulated devices, whole runs

struct OutOfCoreCase {
  CachePolicy policy;
  Eviction eviction;
  unsigned devices;
};

std::string case_name(const ::testing::TestParamInfo<OutOfCoreCase> &info) {
  return std::string(to_string(info.param.policy)) + "_" +
         (info.param.eviction == Eviction::Lru ? "lru" : "nextuse") + "_sim" +
         std::to_string(info.param.devices);
}

class OutOfCore : public ::testing::TestWithParam<OutOfCoreCase> {};

// A blocked sweep over eight times more data than a cache holds: each tile
// is updated from two others, step after step. Every value must come out
// as the sequential loop computes it, whatever is evicted, dirty or clean.
TEST_P(OutOfCore, ResultsAreExactUnderPressure) {
  const OutOfCoreCase param = GetParam();
  constexpr std::size_t tile = 512; // doubles: 4 KiB
  const std::size_t tiles = quick_mode() ? 24 : 48;
  const int steps = quick_mode() ? 3 : 6;
  std::vector<double> data(tiles * tile), expected;
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<double>(i % 97) * 0.5;
  expected = data;
  for (int step = 0; step < steps; ++step)
    for (std::size_t t = 0; t < tiles; ++t) {
      const std::size_t a = (t + 1) % tiles, b = (t * 7 + step) % tiles;
      if (a == t || b == t) continue;
      for (std::size_t k = 0; k < tile; ++k)
        expected[t * tile + k] =
            expected[t * tile + k] * 0.5 + expected[a * tile + k] - 0.25 * expected[b * tile + k];
    }

  Config config =
      sim_config(0, param.devices, param.policy, std::to_string(tiles * tile * sizeof(double) / 8));
  config.eviction = param.eviction;
  config.stats = false;
  {
    Runtime runtime(config);
    for (int step = 0; step < steps; ++step) {
      for (std::size_t t = 0; t < tiles; ++t) {
        const std::size_t a = (t + 1) % tiles, b = (t * 7 + step) % tiles;
        if (a == t || b == t) continue;
        Task("update")
            .inout(&data[t * tile], tile * sizeof(double))
            .in(&data[a * tile], tile * sizeof(double))
            .in(&data[b * tile], tile * sizeof(double))
            .body([](TaskEnv env) {
              double *x = env.ptr<double>(0);
              const double *y = env.ptr<double>(1), *z = env.ptr<double>(2);
              for (std::size_t k = 0; k < tile; ++k)
                x[k] = x[k] * 0.5 + y[k] - 0.25 * z[k];
            })
            .submit(runtime);
      }
      if (step % 2 == 1) runtime.barrier(); // several barriers: several rankings
    }
    runtime.barrier();
    const StatsSnapshot stats = runtime.stats();
    // nocache frees a task's device copies when it ends: nothing to evict.
    if (param.policy != CachePolicy::NoCache) {
      EXPECT_GT(stats.evictions, 0u) << "the caches were meant to be too small";
    }
    EXPECT_EQ(stats.evictions, stats.evictions_clean + stats.evictions_dirty);
    EXPECT_EQ(stats.bytes_named, tiles * tile * sizeof(double));
  }
  for (std::size_t i = 0; i < data.size(); ++i)
    ASSERT_EQ(data[i], expected[i]) << "element " << i << " (tile " << i / tile << ")";
}

std::vector<OutOfCoreCase> out_of_core_cases() {
  std::vector<OutOfCoreCase> cases;
  for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack})
    for (Eviction eviction : {Eviction::Lru, Eviction::NextUse})
      for (unsigned devices : {1u, 2u})
        cases.push_back({policy, eviction, devices});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Eviction, OutOfCore, ::testing::ValuesIn(out_of_core_cases()), case_name);

// A cyclic sweep over eight tiles through a cache of six and an
// accumulator: LRU gives up, every time, the tile needed soonest and loads
// every tile at every pass; next-use keeps most of them. A gate holds the
// first task until the barrier has ranked the graph, so the whole sweep
// runs with the expected order known.
std::uint64_t cyclic_sweep_h2d(Eviction eviction) {
  constexpr std::size_t tile = 8192; // doubles: 64 KiB
  constexpr std::size_t tiles = 8;
  const int passes = 4;
  std::vector<double> data(tiles * tile, 1.0);
  double sum = 0;
  Config config = sim_config(0, 1, CachePolicy::WriteBack, std::to_string(7 * tile * sizeof(double)));
  config.eviction = eviction;
  config.load_ahead = false; // only the tasks' own fetches
  config.prefetch_depth = 0;
  Flag ranked;
  Runtime runtime(config);
  Task("gate").inout(sum).body([&](TaskEnv) { EXPECT_TRUE(ranked.wait()); }).submit(runtime);
  for (int pass = 0; pass < passes; ++pass)
    for (std::size_t t = 0; t < tiles; ++t)
      Task("accumulate")
          .in(&data[t * tile], tile * sizeof(double))
          .inout(sum)
          .body([](TaskEnv env) { *env.ptr<double>(1) += env.ptr<const double>(0)[0]; })
          .submit(runtime);
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the barrier ranks meanwhile
    ranked.set();
  });
  runtime.barrier();
  opener.join();
  EXPECT_EQ(sum, static_cast<double>(passes * tiles));
  return runtime.stats().bytes_h2d;
}

TEST(NextUseEviction, MovesLessThanLruOnACyclicSweep) {
  const std::uint64_t lru = cyclic_sweep_h2d(Eviction::Lru);
  const std::uint64_t next_use = cyclic_sweep_h2d(Eviction::NextUse);
  EXPECT_LT(next_use * 4, lru * 3) << "next-use " << next_use << " bytes in, LRU " << lru;
}

} // namespace
} // namespace gpuss::test
