// Access groups: the regions a task body reaches through one pointer (one
// parameter's regions, css_access::group), and accesses that share bytes,
// live in one storage laid out as user memory is, wherever the task runs.
//
// Each body here does what translated code does: it rebases its pointer
// argument once, through the group's first access (css_translate), and
// reaches the other regions by pointer arithmetic from it. Before groups, a
// halo strip's address was taken from the first region's own buffer: a
// renamed one-element buffer on the host, a separate device block on
// devices, and the body read poison and wrote outside its data.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <span>
#include <thread>
#include <vector>

namespace gpuss::test {
namespace {

// ---------------------------------------------------------------- a Gauss-Seidel stencil

// Each task updates its block in place from the block and four one-wide
// halo strips around it, all of one array: five regions of one parameter,
// two of them strided columns. Dependencies come only from the halos' partial
// overlaps with the neighbours' blocks.
constexpr std::size_t kB = 8;            // block side
constexpr std::size_t kNB = 4;           // blocks per side
constexpr std::size_t kN = kNB * kB + 2; // with a one-wide border
using Grid = std::array<std::array<double, kN>, kN>;

struct RelaxArgs {
  double (*a)[kN]; // the whole grid, as the program passes it
  std::size_t i0, j0;
};

void relax(double (*a)[kN], std::size_t i0, std::size_t j0) {
  for (std::size_t i = i0; i < i0 + kB; ++i)
    for (std::size_t j = j0; j < j0 + kB; ++j)
      a[i][j] = (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1] + 2 * a[i][j]) / 6.0 + 0.125;
}

// What gpuss-translate emits for `relax(a, i0, j0)`: the pointer is rebased
// through the parameter's first access, here the top halo strip.
void relax_body(void *packed, const css_task_env *env) {
  RelaxArgs args;
  std::memcpy(&args, packed, sizeof args);
  relax(static_cast<double(*)[kN]>(css_translate(env, 0, args.a)), args.i0, args.j0);
}

void submit_relax(Runtime &runtime, Grid &grid, std::size_t i0, std::size_t j0) {
  const std::size_t row = kN * sizeof(double), strip = kB * sizeof(double);
  double(*a)[kN] = reinterpret_cast<double(*)[kN]>(grid.data());
  Task("relax")
      .access(css_region{&a[i0 - 1][j0], strip, 1, row}, CSS_IN, CSS_COPY_DEFAULT, 1)            // top
      .access(css_region{&a[i0 + kB][j0], strip, 1, row}, CSS_IN, CSS_COPY_DEFAULT, 1)           // bottom
      .access(css_region{&a[i0][j0 - 1], sizeof(double), kB, row}, CSS_IN, CSS_COPY_DEFAULT, 1)  // left
      .access(css_region{&a[i0][j0 + kB], sizeof(double), kB, row}, CSS_IN, CSS_COPY_DEFAULT, 1) // right
      .access(css_region{&a[i0][j0], strip, kB, row}, CSS_INOUT, CSS_COPY_DEFAULT, 1)            // centre
      .function(relax_body, RelaxArgs{a, i0, j0})
      .submit(runtime);
}

Grid initial_grid() {
  Grid grid;
  for (std::size_t i = 0; i < kN; ++i)
    for (std::size_t j = 0; j < kN; ++j)
      grid[i][j] = static_cast<double>((i * 37 + j * 11) % 23) - 7.0;
  return grid;
}

class HaloStencil : public ::testing::TestWithParam<Config> {};

TEST_P(HaloStencil, MatchesTheSequentialSweeps) {
  constexpr int sweeps = 3;
  Grid grid = initial_grid(), expected = initial_grid();
  for (int s = 0; s < sweeps; ++s)
    for (std::size_t bi = 0; bi < kNB; ++bi)
      for (std::size_t bj = 0; bj < kNB; ++bj)
        relax(reinterpret_cast<double(*)[kN]>(expected.data()), 1 + bi * kB, 1 + bj * kB);
  {
    Runtime runtime(GetParam());
    for (int s = 0; s < sweeps; ++s)
      for (std::size_t bi = 0; bi < kNB; ++bi)
        for (std::size_t bj = 0; bj < kNB; ++bj)
          submit_relax(runtime, grid, 1 + bi * kB, 1 + bj * kB);
    runtime.barrier();
    for (std::size_t i = 0; i < kN; ++i)
      for (std::size_t j = 0; j < kN; ++j)
        ASSERT_EQ(grid[i][j], expected[i][j]) << "element (" << i << ", " << j << ") after the barrier";
  }
}

std::vector<Config> stencil_configs() {
  // Without CPU workers every task runs on a device; with one, both kinds
  // of space write the grid. Guard zones around every replica (device_guard)
  // make a task that reaches outside its data an error, not a silent write.
  std::vector<Config> configs{host_config(1), host_config(3)};
  for (unsigned cpus : {0u, 1u})
    for (unsigned devices : {1u, 3u})
      for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack})
        for (const char *memory : {"1M", "8K"}) {
          Config config = sim_config(cpus, devices, policy, memory);
          config.device_guard = 512;
          configs.push_back(config);
        }
  return configs;
}

INSTANTIATE_TEST_SUITE_P(AccessGroups, HaloStencil, ::testing::ValuesIn(stencil_configs()),
                         [](const auto &info) { return config_name(info.param); });

// A device replica of the five regions is one block spanning them (the rows
// of the parameter's type from the top strip to the bottom one), not a block
// per region with full-stride rows: 3.0 KiB for this task, where the centre
// and the two column strips alone asked for 2.4 KiB each.
TEST(AccessGroupsFootprint, ADeviceCopyOfSeveralRegionsIsOneBlockOverTheirSpan) {
  const std::size_t centre_span = (kB - 1) * kN * sizeof(double) + kB * sizeof(double);
  const std::size_t group_span = (kB + 1) * kN * sizeof(double) + kB * sizeof(double);
  ASSERT_LT(group_span, 2 * centre_span);
  Config config = sim_config(0, 1, CachePolicy::WriteBack, std::to_string(2 * centre_span)); // on the device
  Grid grid = initial_grid(), expected = initial_grid();
  relax(reinterpret_cast<double(*)[kN]>(expected.data()), 1, 1);
  Runtime runtime(config);
  submit_relax(runtime, grid, 1, 1);
  runtime.barrier();
  EXPECT_EQ(grid, expected);
  EXPECT_EQ(runtime.stats().device_tasks.at(0), 1u);
}

// The guard zones themselves: a task that writes one element past its
// region on a simulated device is reported, with its label and call site.
void write_one_past(void *, const css_task_env *env) {
  static_cast<double *>(env->addresses[0])[32] = 2.0; // one past its 32-element region
}

TEST(AccessGroupsGuard, ATaskWritingPastItsRegionIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Task task("overrun");
  std::vector<double> data(64, 1.0);
  task.access(css_contiguous(data.data(), 32 * sizeof(double)), CSS_INOUT).function(write_one_past);
  EXPECT_DEATH(
      {
        Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
        config.device_guard = 256;
        Runtime runtime(config);
        task.submit(runtime);
        runtime.barrier();
      },
      "gpuss: error: " + regex_escape(task.file()) + ":" + std::to_string(task.line()) +
          ": task 'overrun': wrote outside its data on sim0: up to 8 bytes past the end of a replica of 256 "
          "bytes");
}

// ---------------------------------------------------------------- regions of one pointer and renaming

// `input(v[0;1]) output(v[1;1])` on one pointer, after a writer of v[0] that
// was renamed (a slow reader of v[0] still runs): the body's pointer must be
// user memory, not the renamed one-element buffer of v[0], or its write to
// v[1] lands past that buffer and v[1] is never written.
TEST(AccessGroupsRenaming, RegionsOfOnePointerNeverLiveInARenamedBuffer) {
  Config config = host_config(2);
  config.rename_memory = 1 << 20;
  Runtime runtime(config);
  std::array<long, 2> v{1, 0};
  long seen = 0;
  Gate gate;
  Task("slow_reader")
      .in(&v[0], sizeof v[0])
      .out(seen)
      .body([&](TaskEnv env) {
        gate.wait();
        *env.ptr<long>(1) = *env.ptr<long>(0);
      })
      .submit(runtime);
  Task("writer").out(&v[0], sizeof v[0]).body([](TaskEnv env) { *env.ptr<long>(0) = 41; }).submit(runtime);
  EXPECT_GE(runtime.stats().renamed, 1u) << "the writer of v[0] must have been renamed for this test";
  Task("next")
      .access(css_contiguous(&v[0], sizeof v[0]), CSS_IN, CSS_COPY_DEFAULT, 1)
      .access(css_contiguous(&v[1], sizeof v[1]), CSS_OUT, CSS_COPY_DEFAULT, 1)
      .body([&](TaskEnv env) {
        long *p = static_cast<long *>(css_translate(&env.raw(), 0, v.data()));
        p[1] = p[0] + 1;
      })
      .submit(runtime);
  gate.open();
  runtime.barrier();
  EXPECT_EQ(seen, 1);
  EXPECT_EQ(v[0], 41);
  EXPECT_EQ(v[1], 42) << "the write through the pointer of v[0] to v[1] was lost";
}

// ---------------------------------------------------------------- load-ahead

// A composite writes a region through its own object; a later plain reader
// of that region must not get the region's value loaded ahead of the
// writer (load-ahead takes a value as final when no task before the reader
// writes its object, and the composite is another object).
TEST(AccessGroupsLoadAhead, ARegionAGroupWritesIsNotLoadedAheadOfTheWriter) {
  for (unsigned cpus : {0u, 1u})
    for (int round = 0; round < 20; ++round) {
      std::vector<int> v(3 * 128, 1);
      long seen = 0;
      {
        Config config = sim_config(cpus, 1, CachePolicy::WriteBack, "1M", "round-robin");
        config.load_ahead = true;
        Runtime runtime(config);
        Task("group_writer")
            .access(css_contiguous(&v[0], 512), CSS_IN, CSS_COPY_DEFAULT, 1)
            .access(css_contiguous(&v[128], 512), CSS_OUT, CSS_COPY_DEFAULT, 1)
            .access(css_contiguous(&v[256], 512), CSS_IN, CSS_COPY_DEFAULT, 1)
            .body([&](TaskEnv env) {
              std::this_thread::sleep_for(std::chrono::microseconds(200));
              int *p = static_cast<int *>(css_translate(&env.raw(), 0, v.data()));
              for (int i = 0; i < 128; ++i)
                p[128 + i] = p[i] + p[256 + i] + 5;
            })
            .submit(runtime);
        Task("reader")
            .in(&v[128], 512)
            .out(seen)
            .body([](TaskEnv env) {
              long sum = 0;
              for (int i = 0; i < 128; ++i)
                sum += env.ptr<int>(0)[i];
              *env.ptr<long>(1) = sum;
            })
            .submit(runtime);
        runtime.barrier();
      }
      ASSERT_EQ(seen, 7 * 128) << "cpus " << cpus << ", round " << round;
    }
}

// ---------------------------------------------------------------- one parameter named twice

class OneParameterTwice : public ::testing::TestWithParam<Config> {};

// `input(a[4]) inout(a[8])`: the body gets one pointer, rebased through the
// first access, and writes all eight elements through it.
TEST_P(OneParameterTwice, TwoSizesOfOneArrayAreOneStorage) {
  std::array<int, 8> a{1, 2, 3, 4, 5, 6, 7, 8};
  {
    Runtime runtime(GetParam());
    for (int round = 0; round < 3; ++round)
      Task("twice")
          .access(css_contiguous(a.data(), 4 * sizeof(int)), CSS_IN, CSS_COPY_DEFAULT, 1)
          .access(css_contiguous(a.data(), 8 * sizeof(int)), CSS_INOUT, CSS_COPY_DEFAULT, 1)
          .body([&](TaskEnv env) {
            int *p = static_cast<int *>(css_translate(&env.raw(), 0, a.data()));
            for (int i = 0; i < 8; ++i)
              p[i] = p[i] * 2 + p[i % 4];
          })
          .submit(runtime);
    runtime.barrier();
  }
  std::array<int, 8> expected{1, 2, 3, 4, 5, 6, 7, 8};
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 8; ++i)
      expected[i] = expected[i] * 2 + expected[i % 4];
  EXPECT_EQ(a, expected);
}

// `input(x) output(x)` of exactly one region is one use that reads and
// writes: never a renamed output beside an input of user memory.
TEST_P(OneParameterTwice, InputAndOutputOfOneRegionReadTheOldValue) {
  Config config = GetParam();
  config.rename_memory = 1 << 20;
  std::array<int, 16> x{};
  int seen = 0;
  {
    Runtime runtime(config);
    Task("reader")
        .in(x)
        .out(seen)
        .body([](TaskEnv env) { *env.ptr<int>(1) = env.ptr<int>(0)[3]; })
        .submit(runtime);
    for (int round = 1; round <= 4; ++round)
      Task("increment")
          .in(x)
          .out(x)
          .body([&](TaskEnv env) {
            int *p = static_cast<int *>(css_translate(&env.raw(), 0, x.data()));
            for (int &value : std::span(p, 16))
              value += 1;
          })
          .submit(runtime);
    runtime.barrier();
    EXPECT_EQ(runtime.stats().renamed, 0u) << "an output that also reads must not be renamed";
  }
  EXPECT_EQ(seen, 0);
  for (int value : x)
    EXPECT_EQ(value, 4);
}

// Two pointer arguments that alias, `input(p[0;8]) inout(q[0;8])` with
// q = p + 4, rebased each through its own access: writes through q must be
// seen through p within the task, and both reach user memory.
TEST_P(OneParameterTwice, AliasingArgumentsSeeEachOthersWrites) {
  std::vector<long> data(16);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<long>(i * i);
  auto step = [](const long *p, long *q) {
    for (int i = 0; i < 8; ++i)
      q[i] += p[i];
  };
  std::vector<long> expected = data;
  {
    Runtime runtime(GetParam());
    for (int round = 0; round < 3; ++round) {
      Task("alias")
          .in(&data[0], 8 * sizeof(long))
          .inout(&data[4], 8 * sizeof(long))
          .body([&, step](TaskEnv env) { step(env.ptr<const long>(0), env.ptr<long>(1)); })
          .submit(runtime);
      step(&expected[0], &expected[4]);
    }
    runtime.barrier();
  }
  EXPECT_EQ(data, expected);
}

std::vector<Config> small_configs() {
  std::vector<Config> configs{host_config(2)};
  for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack})
    configs.push_back(sim_config(0, 2, policy, "4K"));
  return configs;
}

INSTANTIATE_TEST_SUITE_P(AccessGroups, OneParameterTwice, ::testing::ValuesIn(small_configs()),
                         [](const auto &info) { return config_name(info.param); });

} // namespace
} // namespace gpuss::test
