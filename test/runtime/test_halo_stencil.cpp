// Halo stencils whose master runs ahead (issue 16, item 12). Each step, each
// block's task updates its block in place (inout) from halo strips of its
// neighbours' blocks (input: strips inside those blocks, so they overlap
// them partially; in 2-D the left and right strips are strided columns).
// Many steps are submitted with no barrier, behind a gated first task that
// every other task depends on, so that nothing finishes while the graph is
// built and every dependency becomes an edge (Stats::edges).
//
// A block's writer must wait for the readers of its halo strips since the
// block's previous write, and for no earlier ones: those are ordered before
// the previous write already. A tracker that keeps them gives each writer
// one more edge per step, so that the in-degree, and the master's work per
// task, grow with the number of steps. Here the edges per task must not
// grow with the number of steps, and the results must equal a sequential run.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace gpuss::test {
namespace {

std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Visits the elements of `region` as they lie at `where` (its address in
// the memory the task runs on).
template <class F> void for_each_element(const css_region &region, void *where, F &&visit) {
  auto *base = static_cast<std::byte *>(where);
  const std::size_t rows = region.rows == 0 ? 1 : region.rows;
  for (std::size_t r = 0; r < rows; ++r) {
    auto *row = reinterpret_cast<std::uint32_t *>(base + r * (rows > 1 ? region.stride : 0));
    for (std::size_t c = 0; c < region.row_bytes / sizeof(std::uint32_t); ++c)
      visit(row[c], static_cast<std::uint32_t>(r * 1024 + c));
  }
}

// One step of one block: accesses[0] is the block (inout), the others its
// halo strips (input). The new block depends on every value read, in order.
void update_block(const css_access *accesses, void *const *addresses, std::uint32_t count,
                  std::uint32_t salt) {
  std::uint32_t seed = mix(salt);
  for (std::uint32_t i = 1; i < count; ++i)
    for_each_element(accesses[i].region, addresses[i],
                     [&](std::uint32_t &v, std::uint32_t) { seed = seed * 31 + v; });
  for_each_element(accesses[0].region, addresses[0],
                   [&](std::uint32_t &v, std::uint32_t k) { v = mix(v * 3 + seed + k); });
}

struct UpdateArgs {
  std::uint32_t salt;
  Gate *gate; // the first task waits here until the master has submitted everything
  bool *opened;
};

void update_body(void *packed, const css_task_env *env) {
  UpdateArgs args;
  std::memcpy(&args, packed, sizeof args);
  if (args.gate) *args.opened = args.gate->wait();
  update_block(env->accesses, env->addresses, env->num_accesses, args.salt);
}

// The tasks of one step over an array at `data`: each one's accesses, the
// block first. Submission order (block by block) is the sequential order.
using StepTasks = std::vector<std::vector<css_access>>;

css_access access(void *base, std::size_t row_bytes, std::size_t rows, std::size_t stride,
                  css_direction direction) {
  return css_access{css_region{base, row_bytes, rows, stride}, static_cast<std::uint32_t>(direction),
                    CSS_COPY_DEFAULT, 0};
}

// 1-D: 8 blocks of 64 elements; block i reads the last 4 elements of block
// i - 1 and the first 4 of block i + 1.
constexpr std::size_t kBlocks1 = 8, kBlock1 = 64, kHalo1 = 4;
constexpr std::size_t kElements1 = kBlocks1 * kBlock1;

StepTasks step_1d(std::uint32_t *data) {
  constexpr std::size_t block = kBlock1 * sizeof(std::uint32_t), halo = kHalo1 * sizeof(std::uint32_t);
  StepTasks tasks;
  for (std::size_t i = 0; i < kBlocks1; ++i) {
    std::uint32_t *centre = data + i * kBlock1;
    std::vector<css_access> accesses{access(centre, block, 1, block, CSS_INOUT)};
    if (i > 0) accesses.push_back(access(centre - kHalo1, halo, 1, halo, CSS_IN));
    if (i + 1 < kBlocks1) accesses.push_back(access(centre + kBlock1, halo, 1, halo, CSS_IN));
    tasks.push_back(std::move(accesses));
  }
  return tasks;
}

// 2-D: a 64 x 64 matrix, row-major, in 4 x 4 blocks of 16 x 16; each block
// reads 2-wide strips of its four neighbours: two strided column strips
// (left and right) and two row strips (top and bottom, 2 rows each).
constexpr std::size_t kBlocks2 = 4, kBlock2 = 16, kHalo2 = 2, kSide2 = kBlocks2 * kBlock2;
constexpr std::size_t kElements2 = kSide2 * kSide2;

StepTasks step_2d(std::uint32_t *data) {
  constexpr std::size_t row = kSide2 * sizeof(std::uint32_t), width = kBlock2 * sizeof(std::uint32_t),
                        halo = kHalo2 * sizeof(std::uint32_t);
  auto at = [&](std::size_t r, std::size_t c) { return data + r * kSide2 + c; };
  StepTasks tasks;
  for (std::size_t bi = 0; bi < kBlocks2; ++bi)
    for (std::size_t bj = 0; bj < kBlocks2; ++bj) {
      const std::size_t r0 = bi * kBlock2, c0 = bj * kBlock2;
      std::vector<css_access> accesses{access(at(r0, c0), width, kBlock2, row, CSS_INOUT)};
      if (bj > 0) accesses.push_back(access(at(r0, c0 - kHalo2), halo, kBlock2, row, CSS_IN));
      if (bj + 1 < kBlocks2) accesses.push_back(access(at(r0, c0 + kBlock2), halo, kBlock2, row, CSS_IN));
      if (bi > 0) accesses.push_back(access(at(r0 - kHalo2, c0), width, kHalo2, row, CSS_IN));
      if (bi + 1 < kBlocks2) accesses.push_back(access(at(r0 + kBlock2, c0), width, kHalo2, row, CSS_IN));
      tasks.push_back(std::move(accesses));
    }
  return tasks;
}

struct Layout {
  const char *name;
  std::size_t elements;
  StepTasks (*step)(std::uint32_t *data);
};

const Layout kLayout1d{"1-D", kElements1, step_1d};
const Layout kLayout2d{"2-D", kElements2, step_2d};

struct Outcome {
  std::uint64_t tasks = 0;
  std::uint64_t edges = 0; // made while every task was unfinished
  double edges_per_task() const { return static_cast<double>(edges) / static_cast<double>(tasks); }
};

// Submits `steps` steps with no barrier behind the gated first task, then
// opens the gate and compares the result with a sequential run.
Outcome run_stencil(const Config &config, const Layout &layout, int steps) {
  std::vector<std::uint32_t> data(layout.elements), shadow(layout.elements);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = shadow[i] = mix(static_cast<std::uint32_t>(i) + 77);
  const StepTasks tasks = layout.step(data.data()), sequential = layout.step(shadow.data());

  Outcome outcome;
  Gate gate;
  bool opened = false;
  {
    Runtime runtime(config);
    for (int s = 0; s < steps; ++s)
      for (std::size_t t = 0; t < tasks.size(); ++t) {
        const auto salt = static_cast<std::uint32_t>(s * tasks.size() + t);
        Task task("stencil_block");
        for (const css_access &a : tasks[t])
          task.access(a.region, static_cast<css_direction>(a.direction));
        const bool first = s == 0 && t == 0;
        task.function(update_body, UpdateArgs{salt, first ? &gate : nullptr, &opened}).submit(runtime);
        ++outcome.tasks;

        const std::vector<css_access> &shadow_accesses = sequential[t];
        std::vector<void *> addresses;
        for (const css_access &a : shadow_accesses)
          addresses.push_back(a.region.base);
        update_block(shadow_accesses.data(), addresses.data(), static_cast<std::uint32_t>(addresses.size()),
                     salt);
      }
    outcome.edges = runtime.stats().edges;
    gate.open();
    runtime.barrier();
    EXPECT_EQ(runtime.stats().tasks, outcome.tasks);
  }
  EXPECT_TRUE(opened) << "the first task did not wait at the gate (or ran on the master)";
  std::size_t wrong = 0, first_wrong = 0;
  for (std::size_t i = 0; i < data.size(); ++i)
    if (data[i] != shadow[i] && wrong++ == 0) first_wrong = i;
  EXPECT_EQ(wrong, 0u) << layout.name << ", " << steps
                       << " steps: elements differ from the sequential run; first at " << first_wrong;
  return outcome;
}

class HaloStencilEdges : public ::testing::TestWithParam<Config> {
protected:
  // A short and a long run of the same stencil: the long one's edges per
  // task may exceed the short one's only by what the first steps lack
  // (blocks not yet read or written), never by anything that grows.
  void expect_flat(const Layout &layout) {
    const int short_steps = quick_mode() ? 20 : 50, long_steps = 8 * short_steps;
    const Outcome short_run = run_stencil(GetParam(), layout, short_steps);
    const Outcome long_run = run_stencil(GetParam(), layout, long_steps);
    RecordProperty("edges_per_task_short", std::to_string(short_run.edges_per_task()));
    RecordProperty("edges_per_task_long", std::to_string(long_run.edges_per_task()));
    EXPECT_LE(long_run.edges_per_task(), short_run.edges_per_task() + 0.25)
        << layout.name << ": " << short_run.edges << " edges for " << short_run.tasks << " tasks ("
        << short_steps << " steps), " << long_run.edges << " for " << long_run.tasks << " (" << long_steps
        << " steps)";
  }
};

TEST_P(HaloStencilEdges, OneDimensionalEdgesPerTaskStayFlat) {
  expect_flat(kLayout1d);
}

TEST_P(HaloStencilEdges, TwoDimensionalWithStridedColumnsEdgesPerTaskStayFlat) {
  expect_flat(kLayout2d);
}

std::vector<Config> stencil_configs() {
  std::vector<Config> configs;
  for (unsigned cpus : {1u, 2u, 4u})
    configs.push_back(host_config(cpus));
  configs.push_back(sim_config(1, 2, CachePolicy::WriteBack, "1M"));
  configs.push_back(sim_config(2, 2, CachePolicy::WriteThrough, "1M"));
  configs.push_back(sim_config(1, 1, CachePolicy::NoCache, "1M"));
  return configs;
}

INSTANTIATE_TEST_SUITE_P(Dependencies, HaloStencilEdges, ::testing::ValuesIn(stencil_configs()),
                         [](const auto &info) { return config_name(info.param); });

} // namespace
} // namespace gpuss::test
