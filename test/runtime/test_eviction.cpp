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

#include <array>
#include <atomic>
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

// The ranked order expects D, then B, C and A last, but the task reading A
// is ready (waiting in a ready list) and the others are not: the device will
// take the ready one soon, so C, the furthest of the rest, goes and A stays.
// Once A's reader is placed, the expected order alone decides: A goes.
TEST(NextUseEviction, KeepsWhatAReadyTaskUses) {
  for (bool ready : {true, false}) {
    SCOPED_TRACE(ready ? "A's reader ready" : "A's reader placed");
    OneDevice device(Eviction::NextUse, 3, 4);
    for (int i : {A, B, C})
      ASSERT_EQ(device.run(OneDevice::task(device.object(i), false)), PlanOutcome::Ready);
    TaskRef reads_d = OneDevice::task(device.object(D), false, 4);
    TaskRef reads_b = OneDevice::task(device.object(B), false, 3);
    TaskRef reads_c = OneDevice::task(device.object(C), false, 2);
    TaskRef reads_a = OneDevice::task(device.object(A), false, 1);
    device.directory().expect_order({reads_d, reads_b, reads_c, reads_a});
    device.directory().note_ready(*reads_a);
    if (!ready) device.directory().note_placed(*reads_a);
    EXPECT_EQ(device.object(A)->ready_uses, ready ? 1u : 0u);
    ASSERT_EQ(device.run(reads_d), PlanOutcome::Ready);
    EXPECT_EQ(device.resident(A), ready);
    EXPECT_TRUE(device.resident(B)) << "B is used next after D";
    EXPECT_EQ(device.resident(C), !ready);
  }
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
  barrier_then_open(runtime, [&] { ranked.set(); }); // the barrier ranks meanwhile
  EXPECT_EQ(sum, static_cast<double>(passes * tiles));
  return runtime.stats().bytes_h2d;
}

TEST(NextUseEviction, MovesLessThanLruOnACyclicSweep) {
  const std::uint64_t lru = cyclic_sweep_h2d(Eviction::Lru);
  const std::uint64_t next_use = cyclic_sweep_h2d(Eviction::NextUse);
  EXPECT_LT(next_use * 4, lru * 3) << "next-use " << next_use << " bytes in, LRU " << lru;
}

// ---- Out-of-core ranking by working sets (master/OutOfCoreOrder.hpp)

// A right-looking tiled factorisation (the loops of a Cholesky, with cheap
// element-wise bodies) over nt x nt tiles through a cache of `cache_tiles`:
// returns the bytes copied in, after checking every value against the
// sequential loops. A gate holds the first task until the barrier has ranked
// the graph, so that the whole graph runs with its ranks.
std::uint64_t right_looking_h2d(bool ooc_order, std::size_t nt, std::size_t cache_tiles, unsigned *sets) {
  constexpr std::size_t tile = 2048; // doubles: 16 KiB
  std::vector<std::vector<double>> blocks(nt * nt), expected;
  for (std::size_t b = 0; b < blocks.size(); ++b)
    blocks[b].assign(tile, 1.0 + static_cast<double>(b % 13) * 0.25);
  expected = blocks;
  auto at = [&](std::vector<std::vector<double>> &m, std::size_t i, std::size_t j) {
    return m[i * nt + j].data();
  };
  auto diagonal = [](double *a) {
    for (std::size_t e = 0; e < tile; ++e)
      a[e] = a[e] * 0.5 + 1.0;
  };
  auto panel = [](const double *d, double *b) {
    for (std::size_t e = 0; e < tile; ++e)
      b[e] -= 0.125 * d[e];
  };
  auto update = [](const double *a, const double *b, double *c) {
    for (std::size_t e = 0; e < tile; ++e)
      c[e] -= 0.0625 * a[e] * b[e] - 0.5;
  };
  for (std::size_t k = 0; k < nt; ++k) {
    diagonal(at(expected, k, k));
    for (std::size_t i = k + 1; i < nt; ++i)
      panel(at(expected, k, k), at(expected, i, k));
    for (std::size_t i = k + 1; i < nt; ++i)
      for (std::size_t j = k + 1; j <= i; ++j)
        update(at(expected, i, k), at(expected, j, k), at(expected, i, j));
  }

  Config config =
      sim_config(0, 1, CachePolicy::WriteBack, std::to_string(cache_tiles * tile * sizeof(double)));
  config.ooc_order = ooc_order;
  config.load_ahead = false; // only the tasks' own fetches
  const std::size_t bytes = tile * sizeof(double);
  Flag ranked;
  std::uint64_t h2d = 0;
  {
    Runtime runtime(config);
    double gate_value = 0;
    Task("gate").inout(gate_value).body([&](TaskEnv) { EXPECT_TRUE(ranked.wait()); }).submit(runtime);
    for (std::size_t k = 0; k < nt; ++k) {
      Task("diagonal")
          .inout(at(blocks, k, k), bytes)
          .body([=](TaskEnv env) { diagonal(env.ptr<double>(0)); })
          .submit(runtime);
      for (std::size_t i = k + 1; i < nt; ++i)
        Task("panel")
            .in(at(blocks, k, k), bytes)
            .inout(at(blocks, i, k), bytes)
            .body([=](TaskEnv env) { panel(env.ptr<const double>(0), env.ptr<double>(1)); })
            .submit(runtime);
      for (std::size_t i = k + 1; i < nt; ++i)
        for (std::size_t j = k + 1; j <= i; ++j) {
          Task task("update");
          task.in(at(blocks, i, k), bytes);
          if (j != i) task.in(at(blocks, j, k), bytes);
          task.inout(at(blocks, i, j), bytes)
              .body([=](TaskEnv env) {
                const double *a = env.ptr<const double>(0);
                const double *b = j != i ? env.ptr<const double>(1) : a;
                update(a, b, env.ptr<double>(j != i ? 2 : 1));
              })
              .submit(runtime);
        }
    }
    barrier_then_open(runtime, [&] { ranked.set(); }); // the barrier ranks meanwhile
    const StatsSnapshot stats = runtime.stats();
    h2d = stats.bytes_h2d;
    *sets = static_cast<unsigned>(stats.working_sets);
  }
  for (std::size_t i = 0; i < nt; ++i)
    for (std::size_t j = 0; j <= i; ++j)
      EXPECT_EQ(blocks[i * nt + j], expected[i * nt + j]) << "tile (" << i << ", " << j << ")";
  return h2d;
}

// Out of core, the devices work through the data a working set at a time
// (block columns in the order their values become final) instead of
// streaming the trailing matrix at every step: far less comes in. On one
// H200 at n = 131072 through 24 GiB, 1.9 times the matrix against 6.8
// (performance.md); here, 16 x 16 tiles (136 in the lower triangle, 2.2
// MB) through a cache of 64: about 1.45 times the data against 1.9-2.2.
TEST(OutOfCoreOrder, WorkingSetsMoveLessThanTheCriticalPathOrder) {
  constexpr std::size_t nt = 16, cache_tiles = 64, tile_bytes = 2048 * sizeof(double);
  constexpr std::uint64_t data = nt * (nt + 1) / 2 * tile_bytes;
  unsigned sets_on = 0, sets_off = 0;
  const std::uint64_t on = right_looking_h2d(true, nt, cache_tiles, &sets_on);
  const std::uint64_t off = right_looking_h2d(false, nt, cache_tiles, &sets_off);
  EXPECT_GT(sets_on, 1u) << "136 tiles through a cache of 64 are out of core";
  EXPECT_EQ(sets_off, 0u);
  EXPECT_LT(on * 10, data * 16) << "working sets: " << on << " bytes in for " << data << " bytes of data";
  EXPECT_LT(on, off) << "working sets " << on << " bytes in, critical path " << off;
}

// In core (the cache holds every tile), the ranking stays the critical path's.
TEST(OutOfCoreOrder, InCoreGraphsKeepTheirRanks) {
  unsigned sets = 0;
  right_looking_h2d(true, 6, 64, &sets);
  EXPECT_EQ(sets, 0u);
}

// ---- Shared extents (SoftwareCache.hpp): the replicas of strided regions of one matrix

// An n x n column-major matrix of doubles, lda = n, in nb x nb tiles: tile
// (i, j) is nb runs (columns) of nb doubles, lda doubles apart.
struct ColumnMajor {
  std::size_t n, nb;
  std::vector<double> a;
  ColumnMajor(std::size_t n, std::size_t nb) : n(n), nb(nb), a(n * n) {}
  std::uintptr_t at(std::size_t row, std::size_t column) const {
    return reinterpret_cast<std::uintptr_t>(&a[column * n + row]);
  }
  Region tile(std::size_t i, std::size_t j) const {
    return Region{at(i * nb, j * nb), nb * sizeof(double), nb, n * sizeof(double)};
  }
  // Rows k nb .. n-1 of block column k: it contains tiles (k, k) .. (n/nb - 1, k).
  Region panel(std::size_t k) const {
    return Region{at(k * nb, k * nb), (n - k * nb) * sizeof(double), nb, n * sizeof(double)};
  }
};

// Device memory for a cache, aligned as a real pool is.
class PoolMemory {
public:
  explicit PoolMemory(std::size_t bytes) : bytes_(bytes + MemoryPool::alignment) {}
  std::byte *data() {
    auto address = reinterpret_cast<std::uintptr_t>(bytes_.data());
    return bytes_.data() + (MemoryPool::alignment - address % MemoryPool::alignment) % MemoryPool::alignment;
  }
  std::size_t size() const { return bytes_.size() - MemoryPool::alignment; }

private:
  std::vector<std::byte> bytes_;
};

DataObjectRef object_of(const Region &region) {
  auto object = std::make_shared<DataObject>();
  object->shape = region;
  object->host = reinterpret_cast<std::byte *>(region.base);
  return object;
}

TEST(SharedExtents, TilesOfOneBlockColumnShareOneBlockLaidOutAsInUserMemory) {
  ColumnMajor m(256, 32); // a tile spans 31 whole columns and 32 doubles: 63.75 KiB for 8 KiB of data
  PoolMemory device(1 << 20);
  SoftwareCache cache(1, device.data(), device.size());
  std::vector<DataObjectRef> tiles;
  std::vector<DeviceBlock> views;
  for (std::size_t i = 0; i < m.n / m.nb; ++i) {
    tiles.push_back(object_of(m.tile(i, 2)));
    std::optional<DeviceBlock> view = cache.reserve(*tiles.back());
    ASSERT_TRUE(view) << "tile " << i;
    views.push_back(*view);
  }
  EXPECT_EQ(cache.extent_count(), 1u);
  EXPECT_EQ(cache.views_in_extents(), 8u);
  // One block of the block column's span and a column either side, not eight of 63.75 KiB.
  const std::size_t used = cache.capacity() - cache.pool().free_bytes();
  EXPECT_LE(used, (m.nb + 2) * m.n * sizeof(double) + 2 * MemoryPool::alignment);
  for (std::size_t i = 0; i < views.size(); ++i) {
    EXPECT_EQ(views[i].address - views[0].address,
              static_cast<std::ptrdiff_t>(tiles[i]->shape.base - tiles[0]->shape.base))
        << "tile " << i << " must sit where user memory has it, relative to the others";
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(views[i].address) % MemoryPool::alignment,
              tiles[i]->shape.base % MemoryPool::alignment)
        << "a view keeps its region's alignment";
    EXPECT_EQ(views[i].usable, tiles[i]->shape.span());
  }
  EXPECT_EQ(cache.freed_by_release(views[3]), 0u) << "seven other tiles still use the extent";
  for (std::size_t i = 0; i + 1 < tiles.size(); ++i)
    cache.release(*tiles[i], views[i]);
  EXPECT_GT(cache.freed_by_release(views.back()), 0u) << "the last view gives the extent back";
  cache.release(*tiles.back(), views.back());
  EXPECT_EQ(cache.extent_count(), 0u);
  EXPECT_EQ(cache.pool().free_bytes(), cache.capacity());
}

TEST(SharedExtents, ARegionSharingBytesWithAViewGetsStorageOfItsOwn) {
  // The panel of block column 1 contains tiles (1, 1) .. (7, 1): its device
  // copy must not be theirs (the directory keeps overlapping objects
  // coherent through their own copies).
  ColumnMajor m(256, 32);
  PoolMemory device(1 << 20);
  SoftwareCache cache(1, device.data(), device.size());
  DataObjectRef above = object_of(m.tile(0, 1)), inside = object_of(m.tile(3, 1)), panel = object_of(m.panel(1));
  const DeviceBlock above_view = *cache.reserve(*above), inside_view = *cache.reserve(*inside);
  const DeviceBlock panel_block = *cache.reserve(*panel);
  EXPECT_EQ(above_view.extent, inside_view.extent);
  EXPECT_NE(panel_block.extent, inside_view.extent);
  const std::byte *panel_start = panel_block.address, *panel_end = panel_start + panel_block.usable;
  const std::byte *inside_start = inside_view.address, *inside_end = inside_start + inside_view.usable;
  EXPECT_TRUE(panel_end <= inside_start || inside_end <= panel_start)
      << "the panel's storage and the tile's share no device byte";
  // Gone from the extent, the tile that overlapped it no longer keeps the
  // panel out: a second copy of the panel joins.
  cache.release(*inside, inside_view);
  DataObjectRef panel_again = object_of(m.panel(1));
  const DeviceBlock second = *cache.reserve(*panel_again);
  EXPECT_TRUE(second.extent == above_view.extent || second.extent == panel_block.extent);
  for (auto [object, block] : {std::pair{above, above_view}, {panel, panel_block}, {panel_again, second}})
    cache.release(*object, block);
  EXPECT_EQ(cache.pool().free_bytes(), cache.capacity());
}

TEST(SharedExtents, OffWithGuardZonesOrWhenDisabled) {
  ColumnMajor m(256, 32);
  PoolMemory device(1 << 20);
  for (CacheOptions options : {CacheOptions{0, false}, CacheOptions{4096, true}}) {
    SoftwareCache cache(1, device.data(), device.size(), options);
    DataObjectRef first = object_of(m.tile(0, 0)), second = object_of(m.tile(1, 0));
    const DeviceBlock a = *cache.reserve(*first), b = *cache.reserve(*second);
    EXPECT_EQ(a.extent, 0u);
    EXPECT_EQ(b.extent, 0u);
    EXPECT_EQ(cache.extent_count(), 0u);
    cache.release(*first, a);
    cache.release(*second, b);
  }
}

// Every tile of a 64 x 64 column-major matrix (32 KiB) updated twice on one
// simulated device whose cache is 48 KiB: the tiles' extents fit, so each
// tile is copied in once; a replica of its own per tile (3.6 KiB each, 64 of
// them) would not.
struct TileSweep {
  std::uint64_t evictions = 0, bytes_h2d = 0;
};
TileSweep sweep_tiles(bool extents) {
  ColumnMajor m(64, 8);
  for (std::size_t i = 0; i < m.a.size(); ++i)
    m.a[i] = static_cast<double>(i);
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "48K");
  config.device_extents = extents;
  config.load_ahead = false;
  TileSweep result;
  {
    Runtime runtime(config);
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t j = 0; j < m.n / m.nb; ++j)
        for (std::size_t i = 0; i < m.n / m.nb; ++i) {
          const Region tile = m.tile(i, j);
          Task("add_one")
              .strided(CSS_INOUT, reinterpret_cast<void *>(tile.base), tile.row_bytes, tile.rows, tile.stride)
              .body([nb = m.nb](TaskEnv env) {
                for (std::size_t c = 0; c < nb; ++c)
                  for (std::size_t r = 0; r < nb; ++r)
                    env.at<double>(0, c, r) += 1.0;
              })
              .submit(runtime);
        }
    runtime.barrier();
    result.evictions = runtime.stats().evictions;
    result.bytes_h2d = runtime.stats().bytes_h2d;
  }
  for (std::size_t i = 0; i < m.a.size(); ++i)
    EXPECT_EQ(m.a[i], static_cast<double>(i) + 2.0) << "element " << i;
  return result;
}

TEST(SharedExtents, AMatrixOfStridedTilesFitsAboutItsOwnSize) {
  const TileSweep shared = sweep_tiles(true);
  EXPECT_EQ(shared.evictions, 0u);
  EXPECT_EQ(shared.bytes_h2d, 64u * 64u * sizeof(double)) << "each tile copied in once";
  const TileSweep own = sweep_tiles(false); // CSS_DEVICE_EXTENTS=0: what it cost before
  EXPECT_GT(own.evictions, 0u);
  EXPECT_GT(own.bytes_h2d, shared.bytes_h2d);
}

// The Gauss-Seidel stencil of issue 15: each task names one parameter in
// five regions, its block (inout) and the four one-wide halo strips around
// it (input; the left and right ones strided columns), and its body reaches
// all of them from the block's address with the grid's row length. Blocks
// next to each other share halo bytes, so they cannot share an extent; every
// other block of a block row can. 8 x 8 blocks of 16 x 16 in a 130 x 130
// grid (132 KiB): each task's object (its five regions) spans 18 whole rows
// of the grid, 18 KiB for 2.1 KiB of data.
constexpr std::size_t stencil_blocks = 8, stencil_b = 16, stencil_n = stencil_blocks * stencil_b + 2;
constexpr std::size_t stencil_row = stencil_n * sizeof(double);

struct StencilRegions {
  std::array<css_region, 5> regions; // above, below, left, right (input), then the block (inout)
};
StencilRegions stencil_regions(double *grid, std::size_t bi, std::size_t bj) {
  constexpr std::size_t b = stencil_b, n = stencil_n, row = stencil_row;
  const std::size_t i0 = 1 + bi * b, j0 = 1 + bj * b;
  auto at = [&](std::size_t r, std::size_t c) { return grid + r * n + c; };
  return {{css_region{at(i0 - 1, j0), b * sizeof(double), 1, row}, css_region{at(i0 + b, j0), b * sizeof(double), 1, row},
           css_region{at(i0, j0 - 1), sizeof(double), b, row}, css_region{at(i0, j0 + b), sizeof(double), b, row},
           css_region{at(i0, j0), b * sizeof(double), b, row}}};
}

// The object the dependency tracker makes for one task's five regions: the
// bytes from the first region's first byte to the last one's end, with the
// regions as its parts.
DataObjectRef stencil_object(double *grid, std::size_t bi, std::size_t bj) {
  auto object = std::make_shared<DataObject>();
  std::uintptr_t first = UINTPTR_MAX, last = 0;
  const StencilRegions task = stencil_regions(grid, bi, bj);
  for (std::size_t i = 0; i < task.regions.size(); ++i) {
    const Region region = Region::from(task.regions[i]);
    object->parts.push_back(ObjectPart{region, true, i == 4});
    first = std::min(first, region.base);
    last = std::max(last, region.end());
  }
  object->shape = Region::contiguous(first, last - first);
  object->host = reinterpret_cast<std::byte *>(first);
  return object;
}

// What a device holds while it has a block row's tasks staged: with shared
// extents, the even blocks' objects share one extent and the odd blocks'
// another; with a block per replica, each takes its 18 rows. (Issue 15 saw
// the tasks staged at once take several times their data.)
TEST(SharedExtents, AStencilsBlockRowFitsInTwoExtents) {
  std::vector<double> grid(stencil_n * stencil_n);
  PoolMemory device(1 << 20);
  std::size_t used[2] = {0, 0};
  for (bool extents : {true, false}) {
    SoftwareCache cache(1, device.data(), device.size(), CacheOptions{0, extents});
    std::vector<DataObjectRef> objects;
    std::vector<DeviceBlock> blocks;
    for (std::size_t bj = 0; bj < stencil_blocks; ++bj) {
      objects.push_back(stencil_object(grid.data(), 3, bj));
      std::optional<DeviceBlock> block = cache.reserve(*objects.back());
      ASSERT_TRUE(block) << "block (3, " << bj << ")";
      blocks.push_back(*block);
    }
    used[extents ? 0 : 1] = cache.capacity() - cache.pool().free_bytes();
    if (extents) {
      EXPECT_EQ(cache.extent_count(), 2u) << "the even blocks in one extent, the odd ones in another";
      EXPECT_EQ(cache.views_in_extents(), stencil_blocks);
      for (std::size_t bj = 2; bj < stencil_blocks; ++bj)
        EXPECT_EQ(blocks[bj].address - blocks[bj - 2].address,
                  static_cast<std::ptrdiff_t>(objects[bj]->shape.base - objects[bj - 2]->shape.base))
            << "block " << bj << " sits where user memory has it, relative to block " << bj - 2;
    }
    for (std::size_t i = 0; i < objects.size(); ++i)
      cache.release(*objects[i], blocks[i]);
    EXPECT_EQ(cache.pool().free_bytes(), cache.capacity());
  }
  const std::size_t span = stencil_object(grid.data(), 3, 0)->shape.span();
  EXPECT_GE(used[1], stencil_blocks * span) << "a block per replica";
  EXPECT_LE(used[0], 2 * (span + 2 * stencil_row + 2 * MemoryPool::alignment))
      << "two extents of a task's span and a grid row either side";
}

// The same stencil run end to end, two sweeps on one simulated device, with
// and without shared extents: each must compute what the host does, element
// for element. (How much device memory the run's staged tasks take at once
// depends on which tasks the device stages together, a matter of timing;
// the test above compares the memory for a set fixed in advance.)
std::vector<double> stencil_sweeps(bool extents, bool on_host) {
  std::vector<double> grid(stencil_n * stencil_n);
  for (std::size_t i = 0; i < grid.size(); ++i)
    grid[i] = static_cast<double>((i * 7919) % 1000) / 100.0;
  Config config = on_host ? host_config(1) : sim_config(0, 1, CachePolicy::WriteBack, "448K");
  config.device_extents = extents;
  config.load_ahead = false;
  {
    Runtime runtime(config);
    for (int sweep = 0; sweep < 2; ++sweep)
      for (std::size_t bi = 0; bi < stencil_blocks; ++bi)
        for (std::size_t bj = 0; bj < stencil_blocks; ++bj) {
          const StencilRegions regions = stencil_regions(grid.data(), bi, bj);
          Task relax("relax");
          for (std::size_t i = 0; i < regions.regions.size(); ++i)
            relax.access(regions.regions[i], i == 4 ? CSS_INOUT : CSS_IN, CSS_COPY_DEFAULT, 1);
          relax
              .body([](TaskEnv env) {
                constexpr std::size_t b = stencil_b, n = stencil_n;
                double *centre = env.ptr<double>(4);
                for (std::size_t r = 0; r < b; ++r)
                  for (std::size_t c = 0; c < b; ++c) {
                    double *x = centre + r * n + c;
                    *x = 0.25 * (x[-static_cast<std::ptrdiff_t>(n)] + x[n] + x[-1] + x[1]);
                  }
              })
              .submit(runtime);
        }
    runtime.barrier();
  }
  return grid;
}

TEST(SharedExtents, AStencilsFiveRegionTasksComputeWhatTheHostDoes) {
  const std::vector<double> reference = stencil_sweeps(true, true);
  EXPECT_EQ(stencil_sweeps(true, false), reference) << "the device run must equal the host's, element for element";
  EXPECT_EQ(stencil_sweeps(false, false), reference) << "the same with a block per replica";
}

// ---- Overlapping objects on one device (Directory.hpp, CSS_DEVICE_ALIASES)

// For each block column k of a 64 x 64 column-major matrix in 8 x 8 tiles:
// the tiles (i, k), i >= k, are updated one by one (their copies on the
// device are dirty), then the panel, rows 8k .. 63 of block column k, which
// contains them, is updated whole (a writer that contains dirty copies), then
// each tile is read again (a reader contained in the panel's dirty copy).
// On one simulated device with room for everything.
struct PanelRun {
  std::vector<double> matrix, sums;
  std::uint64_t bytes_h2d = 0, bytes_d2h = 0, bytes_on_device = 0;
};
PanelRun panels_and_tiles(bool aliases, bool on_host, CachePolicy policy = CachePolicy::WriteBack,
                          int reads_per_tile = 1, bool tiles_written_after = false) {
  ColumnMajor m(64, 8);
  for (std::size_t i = 0; i < m.a.size(); ++i)
    m.a[i] = static_cast<double>(i % 97);
  const std::size_t nt = m.n / m.nb;
  PanelRun run;
  run.sums.assign(nt * nt * static_cast<std::size_t>(reads_per_tile), 0.0);
  Config config = on_host ? host_config(2) : sim_config(0, 1, policy, "4M");
  config.device_aliases = aliases;
  config.load_ahead = false;
  auto strided = [](Task &task, css_direction direction, const Region &r) {
    task.strided(direction, reinterpret_cast<void *>(r.base), r.row_bytes, r.rows, r.stride);
  };
  {
    Runtime runtime(config);
    for (std::size_t k = 0; k < nt; ++k) {
      for (std::size_t i = k; i < nt; ++i) {
        Task update("tile_update");
        strided(update, CSS_INOUT, m.tile(i, k));
        update.body([nb = m.nb](TaskEnv env) {
          for (std::size_t c = 0; c < nb; ++c)
            for (std::size_t r = 0; r < nb; ++r)
              env.at<double>(0, c, r) += static_cast<double>(r + 1);
        });
        update.submit(runtime);
      }
      Task panel("panel");
      const Region p = m.panel(k);
      strided(panel, CSS_INOUT, p);
      panel.body([rows = p.row_bytes / sizeof(double), nb = m.nb](TaskEnv env) {
        for (std::size_t c = 0; c < nb; ++c)
          for (std::size_t r = 0; r < rows; ++r)
            env.at<double>(0, c, r) = 2.0 * env.at<double>(0, c, r) - static_cast<double>(c);
      });
      panel.submit(runtime);
      for (int again = 0; again < reads_per_tile; ++again)
        for (std::size_t i = k; i < nt; ++i) {
          Task read("tile_read");
          strided(read, CSS_IN, m.tile(i, k));
          read.out(run.sums[(static_cast<std::size_t>(again) * nt + i) * nt + k]);
          read.body([nb = m.nb](TaskEnv env) {
            double sum = 0;
            for (std::size_t c = 0; c < nb; ++c)
              for (std::size_t r = 0; r < nb; ++r)
                sum += env.at<double>(0, c, r) * static_cast<double>(1 + c + r);
            *env.ptr<double>(1) = sum;
          });
          read.submit(runtime);
        }
      if (tiles_written_after)
        // As LU's left interchanges at each step: the panel's tiles below its
        // diagonal tile, each written alone once the panel has been read.
        for (std::size_t i = k + 1; i < nt; ++i) {
          Task after("tile_after");
          strided(after, CSS_INOUT, m.tile(i, k));
          after.body([nb = m.nb](TaskEnv env) {
            for (std::size_t c = 0; c < nb; ++c)
              for (std::size_t r = 0; r < nb; ++r)
                env.at<double>(0, c, r) = 0.5 * env.at<double>(0, c, r) + static_cast<double>(c);
          });
          after.submit(runtime);
        }
      if (reads_per_tile > 1) {
        // The panel written again after the reads: its copy stays newer than
        // host memory through them (not final, so not sent home early).
        Task again("panel_again");
        strided(again, CSS_INOUT, p);
        again.body([rows = p.row_bytes / sizeof(double), nb = m.nb](TaskEnv env) {
          for (std::size_t c = 0; c < nb; ++c)
            for (std::size_t r = 0; r < rows; ++r)
              env.at<double>(0, c, r) += 1.0;
        });
        again.submit(runtime);
      }
    }
    runtime.barrier();
    run.bytes_h2d = runtime.stats().bytes_h2d;
    run.bytes_d2h = runtime.stats().bytes_d2h;
    run.bytes_on_device = runtime.stats().bytes_on_device;
  }
  run.matrix = m.a;
  return run;
}

TEST(DeviceAliases, APanelAndItsTilesMeetOnTheDeviceAndComputeWhatTheHostDoes) {
  const PanelRun reference = panels_and_tiles(true, true);
  const PanelRun aliased = panels_and_tiles(true, false);
  EXPECT_EQ(aliased.matrix, reference.matrix);
  EXPECT_EQ(aliased.sums, reference.sums);
  const PanelRun through_host = panels_and_tiles(false, false); // CSS_DEVICE_ALIASES=0: before
  EXPECT_EQ(through_host.matrix, reference.matrix);
  EXPECT_EQ(through_host.sums, reference.sums);
  // The lower triangle's tiles go in once; through the host, each panel's
  // tiles are written back before it and its rows copied in again, twice.
  const std::uint64_t lower_tiles = 36 * 8 * 8 * sizeof(double);
  EXPECT_EQ(aliased.bytes_h2d, lower_tiles);
  EXPECT_GT(aliased.bytes_on_device, 0u);
  EXPECT_EQ(through_host.bytes_on_device, 0u);
  EXPECT_GE(through_host.bytes_h2d, 2 * lower_tiles);
  EXPECT_LT(aliased.bytes_d2h, through_host.bytes_d2h);
}

// A tile read twice from a panel whose copy on the device is newer than
// host memory (and is written again later, so not final): the tile's copy,
// taken from the panel's at the first read, is current for every byte at the
// second, so nothing goes home but the panels at the barrier. Until 2026-11-28 the second read sent the whole
// panel home first (LU at n = 49152 wrote its 9.9 GB lower triangle back twice).
TEST(DeviceAliases, ATileReadTwiceFromADirtyPanelSendsNothingHomeEarly) {
  const PanelRun reference = panels_and_tiles(true, true, CachePolicy::WriteBack, 2);
  const PanelRun aliased = panels_and_tiles(true, false, CachePolicy::WriteBack, 2);
  EXPECT_EQ(aliased.matrix, reference.matrix);
  EXPECT_EQ(aliased.sums, reference.sums);
  const std::uint64_t lower_tiles = 36 * 8 * 8 * sizeof(double);
  EXPECT_EQ(aliased.bytes_h2d, lower_tiles);
  const std::uint64_t sums = 2 * 36 * sizeof(double); // the reads' results, computed on the device
  EXPECT_EQ(aliased.bytes_d2h, lower_tiles + sums) << "each panel goes home once, at the barrier";
}

// LU's pivots: each panel task writes its own piece of one vector on the
// device, and each left-swap task then reads a suffix of the vector, a
// container of pieces the device holds newer than host memory. Then a piece
// is written again and every suffix read again (the copies the suffixes
// took must not outlive that write).
struct PiecesRun {
  std::vector<double> pieces, sums;
  std::uint64_t bytes_h2d = 0, bytes_d2h = 0;
};
PiecesRun pieces_then_suffixes(bool on_host, CachePolicy policy = CachePolicy::WriteBack, unsigned devices = 1) {
  static constexpr std::size_t count = 6, piece = 32;
  PiecesRun run;
  run.pieces.assign(count * piece, -1.0);
  run.sums.assign(2 * count, 0.0);
  Config config = on_host ? host_config(2) : sim_config(0, devices, policy, "1M");
  config.load_ahead = false;
  {
    Runtime runtime(config);
    double *v = run.pieces.data();
    auto write_piece = [&](std::size_t k, double scale) {
      Task("piece")
          .out(v + k * piece, piece * sizeof(double))
          .body([k, scale](TaskEnv env) {
            for (std::size_t r = 0; r < piece; ++r)
              env.ptr<double>(0)[r] = scale * static_cast<double>(k * piece + r + 1);
          })
          .submit(runtime);
    };
    auto read_suffixes = [&](std::size_t round) {
      for (std::size_t j = 0; j < count; ++j) {
        const std::size_t length = (count - j) * piece;
        Task("suffix_sum")
            .in(v + j * piece, length * sizeof(double))
            .out(&run.sums[round * count + j], sizeof(double))
            .body([length](TaskEnv env) {
              double sum = 0;
              for (std::size_t r = 0; r < length; ++r)
                sum += env.ptr<const double>(0)[r] * static_cast<double>(r % 7 + 1);
              *env.ptr<double>(1) = sum;
            })
            .submit(runtime);
      }
    };
    for (std::size_t k = 0; k < count; ++k)
      write_piece(k, 1.0);
    read_suffixes(0);
    write_piece(2, -3.0);
    read_suffixes(1);
    runtime.barrier();
    run.bytes_h2d = runtime.stats().bytes_h2d;
    run.bytes_d2h = runtime.stats().bytes_d2h;
  }
  return run;
}

// A read of an object whose bytes lie in other objects' copies on the same
// device is filled from those copies: nothing goes home before the barrier,
// nothing comes in. Until 2026-11-28 (eighth session) the pieces went home and the suffix came
// back through the host, and LU's last left-swap tasks waited 0.3 s for their
// pivots behind the write-back of L (performance.md, seventh session).
TEST(DeviceAliases, AReadOfPiecesTheDeviceHoldsIsAssembledThere) {
  const PiecesRun reference = pieces_then_suffixes(true);
  const PiecesRun run = pieces_then_suffixes(false);
  EXPECT_EQ(run.pieces, reference.pieces);
  EXPECT_EQ(run.sums, reference.sums);
  EXPECT_EQ(run.bytes_h2d, 0u) << "the suffixes come from the pieces' copies on the device";
  constexpr std::uint64_t vector_bytes = 6 * 32 * sizeof(double), sums_bytes = 12 * sizeof(double);
  EXPECT_EQ(run.bytes_d2h, vector_bytes + sums_bytes) << "the pieces go home once, at the barrier";
  for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack})
    for (unsigned devices : {1u, 3u}) {
      // Three devices: the values, wherever the suffixes are assembled
      // (whether another device copies one before its copies land is left
      // to timing here; Transfer::lands keeps it Filling until then).
      SCOPED_TRACE(std::string(to_string(policy)) + " on " + std::to_string(devices));
      const PiecesRun other = pieces_then_suffixes(false, policy, devices);
      EXPECT_EQ(other.pieces, reference.pieces);
      EXPECT_EQ(other.sums, reference.sums);
    }
}

// Tiles written one by one inside a panel whose copy on the device is newer
// than host memory, after the tiles were read from it (LU's left
// interchanges at each step, --left-swaps steps): the panel's value is
// handed to its tiles' copies, which hold all its bytes, and nothing goes
// home before the barrier. Until 2026-11-28 (eighth session) the first such write sent the
// whole panel home first (LU at n = 49152: its lower triangle, 9.9 GB, once
// more).
// A reader that needs the host's copy for some bytes takes from the device
// only the parts newer there, and must not lose one that lies inside a clean
// lender: piece 4 is written on the device, a suffix read there takes it (its
// copy is then clean and holds piece 4's new bytes), and the whole vector,
// whose first pieces no device holds, is read last.
std::vector<double> newer_piece_inside_a_clean_suffix(bool on_host) {
  constexpr std::size_t piece = 32, count = 6;
  std::vector<double> v(piece * count), sums(1, 0.0);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<double>(i % 11);
  Config config = on_host ? host_config(2) : sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.load_ahead = false;
  {
    Runtime runtime(config);
    Task("piece")
        .out(v.data() + 4 * piece, piece * sizeof(double))
        .body([](TaskEnv env) {
          for (std::size_t r = 0; r < piece; ++r)
            env.ptr<double>(0)[r] = 100.0 + static_cast<double>(r);
        })
        .submit(runtime);
    auto sum_of = [&](std::size_t first, std::size_t slot) {
      const std::size_t length = (count - first) * piece;
      Task("sum")
          .in(v.data() + first * piece, length * sizeof(double))
          .inout(&sums[slot], sizeof(double)) // not renamed: the three tasks on it stay in order
          .body([length](TaskEnv env) {
            double sum = 0;
            for (std::size_t r = 0; r < length; ++r)
              sum += env.ptr<const double>(0)[r] * static_cast<double>(r + 1);
            *env.ptr<double>(1) = sum;
          })
          .submit(runtime);
    };
    // All three update sums[0]: the suffix's read comes first, and the
    // whole vector's read is planned once the suffix's copy has settled
    // (the pause between them leaves the helper time to see it land).
    sum_of(3, 0);
    Task("pause")
        .inout(&sums[0], sizeof(double))
        .body([](TaskEnv) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); })
        .submit(runtime);
    sum_of(0, 0);
    // Piece 4 written again last, so that it is not final (and not sent home
    // early) while the sums read it.
    Task("piece_again")
        .inout(v.data() + 4 * piece, piece * sizeof(double))
        .body([](TaskEnv env) {
          for (std::size_t r = 0; r < piece; ++r)
            env.ptr<double>(0)[r] += 1.0;
        })
        .submit(runtime);
    runtime.barrier();
  }
  sums.insert(sums.end(), v.begin(), v.end());
  return sums;
}

TEST(DeviceAliases, AReaderKeepsANewerPieceThatACleanLenderContains) {
  EXPECT_EQ(newer_piece_inside_a_clean_suffix(false), newer_piece_inside_a_clean_suffix(true));
}

TEST(DeviceAliases, ATileWrittenInsideADirtyPanelSplitsThePanelIntoItsTiles) {
  const PanelRun reference = panels_and_tiles(true, true, CachePolicy::WriteBack, 1, true);
  const PanelRun aliased = panels_and_tiles(true, false, CachePolicy::WriteBack, 1, true);
  EXPECT_EQ(aliased.matrix, reference.matrix);
  EXPECT_EQ(aliased.sums, reference.sums);
  const std::uint64_t lower_tiles = 36 * 8 * 8 * sizeof(double), sums = 36 * sizeof(double);
  EXPECT_EQ(aliased.bytes_h2d, lower_tiles);
  EXPECT_EQ(aliased.bytes_d2h, lower_tiles + sums) << "each tile goes home once, the panels never whole";
  for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough}) {
    SCOPED_TRACE(to_string(policy));
    const PanelRun run = panels_and_tiles(true, false, policy, 1, true);
    EXPECT_EQ(run.matrix, reference.matrix);
    EXPECT_EQ(run.sums, reference.sums);
  }
}

TEST(DeviceAliases, EveryPolicyComputesWhatTheHostDoes) {
  const PanelRun reference = panels_and_tiles(true, true);
  const PanelRun reference_twice = panels_and_tiles(true, true, CachePolicy::WriteBack, 2);
  for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack}) {
    SCOPED_TRACE(to_string(policy));
    const PanelRun run = panels_and_tiles(true, false, policy);
    EXPECT_EQ(run.matrix, reference.matrix);
    EXPECT_EQ(run.sums, reference.sums);
    const PanelRun twice = panels_and_tiles(true, false, policy, 2);
    EXPECT_EQ(twice.matrix, reference_twice.matrix);
    EXPECT_EQ(twice.sums, reference_twice.sums);
  }
}

} // namespace
} // namespace gpuss::test
