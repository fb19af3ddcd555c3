// Releasing task memory before a barrier: the program frees, reallocs or
// unmaps memory right after calling tasks that use it, which is legal
// sequential code. The release waits for those tasks and brings their
// results home first (realloc copies them), and memory allocated later at
// the same addresses starts afresh: no old device copy is read for it, and
// no region of the old memory stands in the way of renaming.
//
// These run where libgpuss sees the program's free() (plain builds); under
// a sanitizer its allocator comes first and they skip (HostReleaseHooks.hpp).
#include "memory/HostReleaseHooks.hpp"
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace gpuss::test {
namespace {

constexpr std::size_t count = 4096;
constexpr std::size_t bytes = count * sizeof(int);

int *filled_block(int value) {
  auto *block = static_cast<int *>(std::malloc(bytes));
  std::fill_n(block, count, value);
  return block;
}

bool all_equal(const int *block, std::size_t n, int value) {
  return std::all_of(block, block + n, [&](int v) { return v == value; });
}

// From a fixture's SetUp only: GTEST_SKIP returns from the function it is in.
void skip_unless_hooks_run() {
  if (!release_hooks::active())
    GTEST_SKIP() << "free() does not reach libgpuss in this build (a sanitizer's allocator comes first)";
}

// Host workers, and simulated devices under write-back (values stay on the
// devices until something brings them home).
class EarlyRelease : public ::testing::TestWithParam<Config> {
protected:
  void SetUp() override { skip_unless_hooks_run(); }
};

TEST_P(EarlyRelease, FreeWaitsForTheTasksThatUseTheMemory) {
  Runtime runtime(GetParam());
  int *block = filled_block(3);
  std::atomic<bool> reader_done{false};
  long seen = 0;
  Task("slow_reader")
      .in(block, bytes)
      .body([&](TaskEnv env) {
        // Long enough that a free() that does not wait returns first.
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const int *values = env.ptr<int>(0);
        seen = std::accumulate(values, values + count, 0L);
        reader_done = true;
      })
      .submit(runtime);
  std::free(block);
  EXPECT_TRUE(reader_done.load()) << "free() returned while a task still read the memory";
  runtime.barrier();
  EXPECT_EQ(seen, 3L * count);
  EXPECT_EQ(runtime.stats().early_releases, 1u);
}

TEST_P(EarlyRelease, ReallocKeepsTheResultsOfEarlierTasks) {
  Config config = GetParam();
  config.rename_memory = 1 << 20;
  Runtime runtime(config);
  int *block = filled_block(1);
  std::atomic<bool> let_reader_finish{false};
  long reader_saw = 0;
  // The reader holds the old value while the writer runs on a renamed
  // buffer: the writer's value reaches user memory only by a copy-back,
  // which the realloc must wait for.
  Task("held_reader")
      .in(block, bytes)
      .body([&](TaskEnv env) {
        while (!let_reader_finish.load())
          std::this_thread::yield();
        const int *values = env.ptr<int>(0);
        reader_saw = std::accumulate(values, values + count, 0L);
      })
      .submit(runtime);
  Task("writer")
      .out(block, bytes)
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), count, 9); })
      .submit(runtime);
  Task("updater").inout(block, bytes).body([](TaskEnv env) { env.ptr<int>(0)[0] += 1; }).submit(runtime);
  let_reader_finish = true;
  auto *grown = static_cast<int *>(std::realloc(block, 2 * bytes));
  ASSERT_NE(grown, nullptr);
  EXPECT_EQ(grown[0], 10);
  EXPECT_TRUE(all_equal(grown + 1, count - 1, 9))
      << "realloc copied memory the tasks had not finished writing";
  runtime.barrier();
  EXPECT_EQ(reader_saw, 1L * count);
  EXPECT_EQ(runtime.stats().renamed, 1u) << "the writer was meant to run on a renamed buffer";
  std::free(grown);
}

TEST_P(EarlyRelease, NewMemoryAtTheSameAddressesGetsItsOwnValues) {
  Runtime runtime(GetParam());
  int *old_block = filled_block(1);
  Task("add_one")
      .inout(old_block, bytes)
      .body([](TaskEnv env) {
        for (std::size_t i = 0; i < count; ++i)
          env.ptr<int>(0)[i] += 1;
      })
      .submit(runtime);
  const void *old_address = old_block;
  std::free(old_block);
  // glibc hands a block of the same size straight back: same addresses, same region.
  int *new_block = filled_block(7);
  std::vector<int> copied(count, 0);
  Task("copy")
      .in(new_block, bytes)
      .out(copied.data(), bytes)
      .body([](TaskEnv env) { std::copy_n(env.ptr<int>(0), count, env.ptr<int>(1)); })
      .submit(runtime);
  runtime.barrier();
  EXPECT_TRUE(all_equal(copied.data(), count, 7)) << "the new memory was read from a copy of the old one";
  EXPECT_TRUE(all_equal(new_block, count, 7));
  if (new_block != old_address) std::printf("note: the new block did not reuse the old addresses\n");
  std::free(new_block);
}

TEST_P(EarlyRelease, FreeingAfterABarrierDoesNotWait) {
  Runtime runtime(GetParam());
  int *block = filled_block(1);
  Task("touch").inout(block, bytes).body([](TaskEnv env) { env.ptr<int>(0)[0] = 2; }).submit(runtime);
  runtime.barrier();
  EXPECT_EQ(block[0], 2);
  std::free(block);
  EXPECT_EQ(runtime.stats().early_releases, 0u);
}

TEST_P(EarlyRelease, FreeingOtherMemoryDoesNotWait) {
  Runtime runtime(GetParam());
  int *used = filled_block(1);
  int *other = filled_block(2);
  Gate gate;
  bool opened = false;
  Task("gated").inout(used, bytes).body([&](TaskEnv) { opened = gate.wait(); }).submit(runtime);
  std::free(other); // would wait for the gated task, and the gate never opens
  gate.open();
  runtime.barrier();
  EXPECT_TRUE(opened) << "free() of memory no task used waited for a task";
  EXPECT_EQ(runtime.stats().early_releases, 0u);
  std::free(used);
}

// Freeing memory whose task results have not reached it, with no task
// reading them, drops them; a copy the program made just before (a
// std::vector growing: new memory, copy, free the old) holds the values
// from before the tasks. The runtime cannot see the copy, so it warns at the
// free, once per call site of the writer. A gate holds the writer back
// until the free has looked (the free then waits for it: opened from
// another thread).
std::string stderr_of_freeing_gated_results(const Config &config, bool with_reader, int frees) {
  Runtime runtime(config);
  testing::internal::CaptureStderr();
  for (int round = 0; round < frees; ++round) {
    int *block = filled_block(0);
    int held = 0;
    Gate gate;
    Task("gate").inout(held).body([&](TaskEnv) { EXPECT_TRUE(gate.wait()); }).submit(runtime);
    Task("write_results")
        .in(held)
        .out(block, bytes)
        .body([](TaskEnv env) { std::fill_n(env.ptr<int>(1), count, 7); })
        .submit(runtime);
    long sum = 0;
    if (with_reader)
      Task("read_results")
          .in(block, bytes)
          .body([&sum](TaskEnv env) { sum = std::accumulate(env.ptr<const int>(0), env.ptr<const int>(0) + count, 0L); })
          .submit(runtime);
    std::thread opener([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      gate.open();
    });
    std::free(block); // looks, then waits for the tasks
    opener.join();
    if (with_reader) {
      EXPECT_EQ(sum, 7L * count);
    }
  }
  runtime.barrier();
  return testing::internal::GetCapturedStderr();
}

TEST_P(EarlyRelease, FreeingResultsNoTaskReadWarnsOncePerCallSite) {
  const std::string printed = stderr_of_freeing_gated_results(GetParam(), false, 3);
  const std::string warning = "gpuss: warning: memory that task 'write_results'";
  const auto first = printed.find(warning);
  ASSERT_NE(first, std::string::npos) << printed;
  EXPECT_NE(printed.find("a std::vector growing", first), std::string::npos) << printed;
  EXPECT_EQ(printed.find(warning, first + 1), std::string::npos) << "warned more than once for one call site:\n"
                                                                 << printed;
}

TEST_P(EarlyRelease, FreeingResultsATaskReadsIsSilent) {
  const std::string printed = stderr_of_freeing_gated_results(GetParam(), true, 2);
  EXPECT_EQ(printed.find("gpuss: warning"), std::string::npos) << printed;
}

INSTANTIATE_TEST_SUITE_P(Release, EarlyRelease,
                         ::testing::Values(host_config(1), host_config(3), sim_config(0, 2), sim_config(1, 2),
                                           sim_config(0, 2, CachePolicy::WriteThrough)),
                         [](const auto &info) { return config_name(info.param); });

// ---------------------------------------------------------------- regions of released memory

// A region the program used stays tracked after a barrier (its storage,
// for later tasks); once its memory is released it must go, or new memory
// at the same addresses, cut into other regions, would overlap it, and
// overlapping regions are never renamed (DependencyTracker.hpp).
class ReleasedRegions : public ::testing::Test {
protected:
  void SetUp() override { skip_unless_hooks_run(); }
};

TEST_F(ReleasedRegions, AreForgottenSoNewMemoryThereIsRenamed) {
  Config config = host_config(2);
  config.rename_memory = 1 << 20;
  Runtime runtime(config);
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void *area = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(area, MAP_FAILED);
  Task("whole").inout(area, 4 * page).body([](TaskEnv) {}).submit(runtime);
  runtime.barrier();
  ASSERT_EQ(munmap(area, 4 * page), 0);
  void *again =
      mmap(area, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (again != area) {
    if (again != MAP_FAILED) munmap(again, 4 * page);
    GTEST_SKIP() << "the old addresses could not be mapped again";
  }
  // One page of the new memory: a held reader, then an output-only writer,
  // which is renamed only if it overlaps no other tracked region.
  std::atomic<bool> let_reader_finish{false};
  Task("held_reader")
      .in(again, page)
      .body([&](TaskEnv) {
        while (!let_reader_finish.load())
          std::this_thread::yield();
      })
      .submit(runtime);
  Task("writer").out(again, page).body([](TaskEnv env) { std::memset(env.ptr(0), 5, 16); }).submit(runtime);
  let_reader_finish = true;
  runtime.barrier();
  EXPECT_EQ(runtime.stats().renamed, 1u) << "the old region of the released memory was still tracked";
  EXPECT_EQ(static_cast<unsigned char *>(again)[15], 5);
  munmap(again, 4 * page);
}

} // namespace
} // namespace gpuss::test
