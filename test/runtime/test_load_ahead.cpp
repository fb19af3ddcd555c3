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

// CSS_RANKED_FETCHES: the link into a device serves the ranks. On one
// modelled device (bodies do not run; a 1 MiB block takes 10 ms to copy in,
// a task 1 ms), a gate of 40 ms holds a chain of six tasks, each reading a
// block of its own, and six independent tasks, also reading a block each,
// submitted after the chain (program order: the chain ranks higher). While
// the gate runs, the blocks are loaded ahead in rank order, the chain's
// first; when it ends, the independent tasks are ready, their blocks not
// loaded yet, and the chain's later blocks still on their way. With the
// rule the device stages one of them copying in at a time and the rest wait
// for the chain's loads (link_yields); without it, it stages as many as the
// prefetch depth allows, and their copies queue ahead of the chain's.
void nothing(void *, const css_task_env *) {}

StatsSnapshot chain_beside_independent_tasks(bool ranked_fetches) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "256M");
  config.sim_model = "gate=40ms,default=1ms,h2d=0.1G,d2h=100G";
  config.ranked_fetches = ranked_fetches;
  config.program_order = ProgramOrder::Always;
  Runtime runtime(config);
  constexpr std::size_t block_bytes = std::size_t{1} << 20;
  std::vector<std::vector<char>> chain_blocks(6, std::vector<char>(block_bytes)),
      own_blocks(6, std::vector<char>(block_bytes));
  int held = 0, token = 0;
  std::array<int, 6> results{};
  Task("gate").out(held).function(&nothing).submit(runtime);
  for (std::vector<char> &block : chain_blocks)
    Task("chain").in(held).inout(token).in(block.data(), block.size()).function(&nothing).submit(runtime);
  for (std::size_t i = 0; i < own_blocks.size(); ++i)
    Task("independent")
        .in(held)
        .in(own_blocks[i].data(), own_blocks[i].size())
        .inout(results[i])
        .function(&nothing)
        .submit(runtime);
  runtime.barrier();
  return runtime.stats();
}

TEST(RankedFetches, LowerRankedTasksWaitForTheLoadsOfHigherRankedOnes) {
  const StatsSnapshot stats = chain_beside_independent_tasks(true);
  EXPECT_EQ(stats.tasks, 13u);
  EXPECT_GT(stats.loads_ahead, 0u);
  EXPECT_GT(stats.link_yields, 0u) << "every independent task was staged beside the chain's loads";
}

// Where every rank is held by many tasks (here eight chains, each a gate of
// 10 ms and four updates reading a block of their own: GEMM's shape), no
// chain holds the others up: the link does not serve the ranks, and nothing
// is held back (GEMM n = 32768 on one H200 lost 1.5% when it was:
// performance.md, twelfth session).
TEST(RankedFetches, AWideGraphHoldsNothingBack) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "256M");
  config.sim_model = "gate=10ms,default=1ms,h2d=0.1G,d2h=100G";
  Runtime runtime(config);
  constexpr std::size_t block_bytes = std::size_t{1} << 20;
  std::vector<std::vector<char>> blocks(32, std::vector<char>(block_bytes));
  std::array<int, 8> held{}, tiles{};
  for (std::size_t chain = 0; chain < tiles.size(); ++chain) {
    Task("gate").out(held[chain]).function(&nothing).submit(runtime);
    for (std::size_t step = 0; step < 4; ++step) {
      std::vector<char> &block = blocks[chain * 4 + step];
      Task("update")
          .in(held[chain])
          .in(block.data(), block.size())
          .inout(tiles[chain])
          .function(&nothing)
          .submit(runtime);
    }
  }
  runtime.barrier();
  const StatsSnapshot stats = runtime.stats();
  EXPECT_EQ(stats.program_ordered, 1u) << "every rank is held by eight tasks";
  EXPECT_GT(stats.loads_ahead, 0u);
  EXPECT_EQ(stats.link_yields, 0u);
}

TEST(RankedFetches, DisabledStagesAsDeepAsThePrefetchDepth) {
  const StatsSnapshot stats = chain_beside_independent_tasks(false);
  EXPECT_EQ(stats.tasks, 13u);
  EXPECT_EQ(stats.link_yields, 0u);
}

INSTANTIATE_TEST_SUITE_P(Devices, LoadAhead,
                         ::testing::Values(std::pair{1u, 2u}, std::pair{0u, 2u}, std::pair{1u, 3u}),
                         [](const auto &info) {
                           return "cpus" + std::to_string(info.param.first) + "_sim" +
                                  std::to_string(info.param.second);
                         });


// Tiles inside a panel, as LU's are: a 64 x 64 column-major matrix in 8 x 8
// tiles, and the panel of block column 1 (rows 8 .. 63), which holds tiles
// (1, 1) .. (7, 1). Gated readers use the tiles; a gated task that writes
// the whole panel comes after them (`panel_first` false) or before them.
// A tile's value in host memory is final for its reader unless a task
// before the reader writes bytes of it: after them, the panel's writer does
// not, so the seven tiles go ahead (until 2026-11-29 no region that overlaps
// another went ahead, so LU's lower tiles never did); before them, it
// does, and the readers must see what it wrote.
struct PanelOutcome {
  std::uint64_t loads_ahead = 0;
  std::vector<double> sums;
};

PanelOutcome tiles_inside_a_panel(bool panel_first) {
  constexpr std::size_t n = 64, nb = 8, nt = n / nb;
  std::vector<double> a(n * n);
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<double>(i % 13);
  auto at = [&](std::size_t row, std::size_t column) { return &a[column * n + row]; };
  // Two devices: the loads queued behind the gate on its device complete
  // only once it opens; the other device takes the rest meanwhile.
  Config config = sim_config(0, 2, CachePolicy::WriteBack, "1M");
  Runtime runtime(config);
  Gate gate;
  int held = 0;
  PanelOutcome outcome;
  outcome.sums.assign(nt, 0.0);
  Task("gate").out(held).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  auto write_panel = [&] {
    Task("panel")
        .in(held)
        .strided(CSS_INOUT, at(nb, nb), (n - nb) * sizeof(double), nb, n * sizeof(double))
        .body([&](TaskEnv env) {
          for (std::size_t c = 0; c < nb; ++c)
            for (std::size_t r = 0; r < n - nb; ++r)
              env.at<double>(1, c, r) += 1000.0;
        })
        .submit(runtime);
  };
  if (panel_first) write_panel();
  for (std::size_t i = 1; i < nt; ++i)
    Task("read_tile")
        .in(held)
        .strided(CSS_IN, at(i * nb, nb), nb * sizeof(double), nb, n * sizeof(double))
        .out(outcome.sums[i])
        .body([](TaskEnv env) {
          double sum = 0;
          for (std::size_t c = 0; c < nb; ++c)
            for (std::size_t r = 0; r < nb; ++r)
              sum += env.at<double>(1, c, r);
          *env.ptr<double>(2) = sum;
        })
        .submit(runtime);
  if (!panel_first) write_panel();
  // Opens once the loads are issued: the seven tiles, whose copies then
  // keep the panel from going too (the directory leaves objects that
  // overlap device copies to their tasks' fetches); or the panel alone,
  // which its task reads first.
  const std::uint64_t expected_loads = panel_first ? 1 : nt - 1;
  barrier_then_open(runtime, [&] { gate.open(); },
                    [&] { return runtime.stats().loads_ahead >= expected_loads; });
  outcome.loads_ahead = runtime.stats().loads_ahead;
  return outcome;
}

double tile_sum(std::size_t i, bool panel_written) {
  constexpr std::size_t n = 64, nb = 8;
  double sum = 0;
  for (std::size_t c = nb; c < 2 * nb; ++c)
    for (std::size_t r = i * nb; r < (i + 1) * nb; ++r)
      sum += static_cast<double>((c * n + r) % 13) + (panel_written ? 1000.0 : 0.0);
  return sum;
}

TEST(LoadAheadInsideAPanel, TilesGoAheadWhenNoEarlierTaskWritesTheirBytes) {
  const PanelOutcome outcome = tiles_inside_a_panel(false);
  EXPECT_EQ(outcome.loads_ahead, 7u) << "the seven tiles inside the panel";
  for (std::size_t i = 1; i < 8; ++i)
    EXPECT_EQ(outcome.sums[i], tile_sum(i, false)) << "tile " << i;
}

TEST(LoadAheadInsideAPanel, TilesStayWhereAnEarlierTaskWritesThePanel) {
  const PanelOutcome outcome = tiles_inside_a_panel(true);
  EXPECT_EQ(outcome.loads_ahead, 1u)
      << "the panel, and no tile: the panel's writer comes before the tiles' readers";
  for (std::size_t i = 1; i < 8; ++i)
    EXPECT_EQ(outcome.sums[i], tile_sum(i, true)) << "tile " << i << " must hold what the panel's task wrote";
}

} // namespace
} // namespace gpuss::test
