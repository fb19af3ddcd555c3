// The MPI layer's decisions (runtime/mpi/Distribution.hpp) for four ranks,
// without MPI: owner computes, the cache of inputs and its invalidation,
// placed tasks and the barrier's way home, gathers, moves, misuse, and that
// ranks whose data lie at other addresses decide alike. Then the C API with
// one rank (css_mpi_ calls outside mpirun), which also runs in the sanitizer
// builds (libgpuss without MPI there). The runs on several ranks are in
// test/mpi (label mpi).
#include "Distribution.hpp"
#include "TaskBuilder.hpp"
#include "gpuss_mpi.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace gpuss::test {
namespace {

using mpi::Distribution;
using mpi::TaskPlacement;
using mpi::Transfer;

constexpr std::size_t kBytes = 256;

// Eight blocks of one rank's memory.
struct Blocks {
  std::array<std::array<char, kBytes>, 8> block{};
  Region region(int b) const {
    return Region::contiguous(reinterpret_cast<std::uintptr_t>(block[b].data()), kBytes);
  }
  char *at(int b) { return block[b].data(); }
};

css_access use(void *base, css_direction direction, std::size_t bytes = kBytes) {
  return css_access{css_contiguous(base, bytes), static_cast<std::uint32_t>(direction), CSS_COPY_DEFAULT, 0};
}

TaskPlacement place(Distribution &distribution, std::vector<css_access> accesses, const char *label = "t",
                    int line = 1) {
  css_task_desc desc{GPUSS_ABI_VERSION,
                     CSS_DEVICE_SMP,
                     0,
                     static_cast<std::uint32_t>(accesses.size()),
                     accesses.data(),
                     nullptr,
                     nullptr,
                     0,
                     label,
                     "program.c",
                     line};
  return distribution.place(desc);
}

// (from, to) of each transfer.
std::vector<std::pair<int, int>> moves(const std::vector<Transfer> &transfers) {
  std::vector<std::pair<int, int>> result;
  for (const Transfer &t : transfers)
    result.emplace_back(t.from, t.to);
  return result;
}

class MpiDistribution : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    for (int b = 0; b < 8; ++b)
      distribution.declare(blocks.region(b), b % 4, {"program.c", 10, "css_mpi_owner"});
  }
  Distribution distribution{4};
  Blocks blocks;
};

TEST_F(MpiDistribution, ATaskRunsWhereItsWrittenDataLivesAndGetsItsInputsOnce) {
  // Block 2 is rank 2's, block 5 rank 1's.
  TaskPlacement first = place(distribution, {use(blocks.at(5), CSS_IN), use(blocks.at(2), CSS_INOUT)});
  EXPECT_EQ(first.rank, 2);
  EXPECT_EQ(moves(first.transfers), (std::vector<std::pair<int, int>>{{1, 2}}));
  // Cached on rank 2 now: read again, it does not move.
  TaskPlacement again = place(distribution, {use(blocks.at(5), CSS_IN), use(blocks.at(6), CSS_INOUT)});
  EXPECT_EQ(again.rank, 2);
  EXPECT_TRUE(again.transfers.empty());
  // Its owner writes it: the cached copy is stale, and the next reader there gets the new value.
  EXPECT_EQ(place(distribution, {use(blocks.at(5), CSS_INOUT)}).rank, 1);
  EXPECT_EQ(moves(place(distribution, {use(blocks.at(5), CSS_IN), use(blocks.at(2), CSS_INOUT)}).transfers),
            (std::vector<std::pair<int, int>>{{1, 2}}));
}

TEST_F(MpiDistribution, AWholeOutputNeedsNoValueAndAPartialOneDoes) {
  EXPECT_TRUE(
      place(distribution, {use(blocks.at(1), CSS_IN), use(blocks.at(1 + 4), CSS_OUT)}).transfers.empty());
  // Rank 1 writes only half of block 2 (rank 2's)... placed there, it needs the rest.
  distribution.place_next(1, {"program.c", 20, "css_mpi_task_rank"});
  TaskPlacement partial = place(distribution, {use(blocks.at(2), CSS_OUT, kBytes / 2)});
  EXPECT_EQ(partial.rank, 1);
  EXPECT_EQ(moves(partial.transfers), (std::vector<std::pair<int, int>>{{2, 1}}));
}

TEST_F(MpiDistribution, APlacedTasksValueGoesHomeAtTheBarrier) {
  distribution.place_next(3, {"program.c", 20, "css_mpi_task_rank"});
  TaskPlacement placed = place(distribution, {use(blocks.at(0), CSS_INOUT)});
  EXPECT_EQ(placed.rank, 3);
  EXPECT_EQ(moves(placed.transfers), (std::vector<std::pair<int, int>>{{0, 3}}));
  // A reader on rank 1 gets it from rank 3, where it was made.
  EXPECT_EQ(moves(place(distribution, {use(blocks.at(0), CSS_IN), use(blocks.at(1), CSS_INOUT)}).transfers),
            (std::vector<std::pair<int, int>>{{3, 1}}));
  // The barrier brings it home to rank 0, and drops every cached copy.
  EXPECT_EQ(moves(distribution.home()), (std::vector<std::pair<int, int>>{{3, 0}}));
  EXPECT_TRUE(distribution.home().empty());
  EXPECT_EQ(moves(place(distribution, {use(blocks.at(0), CSS_IN), use(blocks.at(1), CSS_INOUT)}).transfers),
            (std::vector<std::pair<int, int>>{{0, 1}}));
}

TEST_F(MpiDistribution, ATaskThatWritesNothingRunsWithItsFirstDatumAndOneWithoutDataOnRankZero) {
  EXPECT_EQ(place(distribution, {use(blocks.at(3), CSS_IN), use(blocks.at(1), CSS_IN)}).rank, 3);
  EXPECT_EQ(place(distribution, {}).rank, 0);
}

TEST_F(MpiDistribution, ARunOfWholeBlocksIsReadFromEachOwner) {
  // Blocks 0..3 are contiguous in memory only within one array: declare a run.
  std::vector<char> run(4 * kBytes);
  for (int b = 0; b < 4; ++b)
    distribution.declare(
        Region::contiguous(reinterpret_cast<std::uintptr_t>(run.data() + b * kBytes), kBytes), b,
        {"program.c", 30, "css_mpi_owner"});
  TaskPlacement reader =
      place(distribution, {use(run.data(), CSS_IN, 4 * kBytes), use(blocks.at(2), CSS_INOUT)});
  EXPECT_EQ(reader.rank, 2);
  EXPECT_EQ(moves(reader.transfers), (std::vector<std::pair<int, int>>{{0, 2}, {1, 2}, {3, 2}}));
}

TEST_F(MpiDistribution, GatherToEveryRankThenTheOwnerAloneHoldsIt) {
  place(distribution, {use(blocks.at(1), CSS_INOUT)});
  EXPECT_EQ(moves(distribution.gather(blocks.region(1), CSS_MPI_ALL)),
            (std::vector<std::pair<int, int>>{{1, 0}, {1, 2}, {1, 3}}));
  EXPECT_EQ(moves(distribution.gather(blocks.region(1), 2)), (std::vector<std::pair<int, int>>{{1, 2}}));
  // Gathered to rank 2, it is cached there: a move to rank 2 is now allowed.
  EXPECT_TRUE(distribution.gather(blocks.region(1), 2).empty());
  distribution.declare(blocks.region(1), 2, {"program.c", 40, "css_mpi_owner"});
  EXPECT_EQ(place(distribution, {use(blocks.at(1), CSS_INOUT)}).rank, 2);
}

TEST_F(MpiDistribution, RanksDecideAlikeWhereverTheirDataLie) {
  // Another rank's memory: the same blocks at other addresses, in reverse order.
  std::vector<char> elsewhere(8 * kBytes + 64);
  auto other_at = [&](int b) { return elsewhere.data() + 32 + (7 - b) * kBytes; };
  Distribution other(4);
  for (int b = 0; b < 8; ++b)
    other.declare(Region::contiguous(reinterpret_cast<std::uintptr_t>(other_at(b)), kBytes), b % 4,
                  {"program.c", 10, "css_mpi_owner"});
  for (int t = 0; t < 200; ++t) {
    const int in = (t * 5 + 1) % 8, out = (t * 3) % 8;
    if (in == out) continue;
    if (t % 7 == 0) {
      distribution.place_next(t % 4, {"program.c", 50, "css_mpi_task_rank"});
      other.place_next(t % 4, {"program.c", 50, "css_mpi_task_rank"});
    }
    TaskPlacement here = place(distribution, {use(blocks.at(in), CSS_IN), use(blocks.at(out), CSS_INOUT)});
    TaskPlacement there = place(other, {use(other_at(in), CSS_IN), use(other_at(out), CSS_INOUT)});
    ASSERT_EQ(here.rank, there.rank) << "task " << t;
    ASSERT_EQ(moves(here.transfers), moves(there.transfers)) << "task " << t;
    if (t % 50 == 49) {
      ASSERT_EQ(moves(distribution.home()), moves(other.home()));
    }
  }
  EXPECT_EQ(distribution.digest(), other.digest());
  place(distribution, {use(blocks.at(1), CSS_INOUT)});
  EXPECT_NE(distribution.digest(), other.digest()) << "a call one rank made and another did not goes unseen";
}

// ---------------------------------------------------------------- misuse

TEST_F(MpiDistribution, WrittenDataOfTwoOwnersIsAnError) {
  EXPECT_EXIT(
      place(distribution, {use(blocks.at(1), CSS_INOUT), use(blocks.at(2), CSS_OUT)}, "update", 77),
      ::testing::ExitedWithCode(1),
      "gpuss: error: program.c:77: task 'update': writes data of two owners: access 0 .* is rank 1's, "
      "access 1 .* rank 2's.*css_mpi_task_rank");
}

TEST_F(MpiDistribution, DataWithoutAnOwnerIsAnError) {
  std::array<char, 64> undeclared{};
  EXPECT_EXIT(
      place(distribution, {use(undeclared.data(), CSS_IN, 64)}, "reader", 78), ::testing::ExitedWithCode(1),
      "gpuss: error: program.c:78: task 'reader': access 0 \\(64 bytes at .*\\) lies in no data declared "
      "with css_mpi_owner");
}

TEST_F(MpiDistribution, AnAccessThatCutsThroughADatumIsAnError) {
  EXPECT_EXIT(place(distribution, {use(blocks.at(3) + kBytes / 2, CSS_IN, kBytes)}, "straddles", 79),
              ::testing::ExitedWithCode(1),
              "gpuss: error: program.c:79: task 'straddles': access 0 .* is neither inside one datum");
}

TEST_F(MpiDistribution, AnOwnerOutOfRangeIsAnError) {
  EXPECT_EXIT(distribution.declare(blocks.region(0), 4, {"program.c", 80, "css_mpi_owner"}),
              ::testing::ExitedWithCode(1),
              "gpuss: error: program.c:80: css_mpi_owner: owner 4 is not a rank: the program runs on 4 ranks "
              "\\(0 to 3\\)");
  EXPECT_EXIT(distribution.place_next(-1, {"program.c", 81, "css_mpi_task_rank"}),
              ::testing::ExitedWithCode(1),
              "gpuss: error: program.c:81: css_mpi_task_rank: rank -1 is not a rank");
}

TEST_F(MpiDistribution, MovingAComputedValueWithoutItIsAnError) {
  place(distribution, {use(blocks.at(1), CSS_INOUT)});
  distribution.home();
  EXPECT_EXIT(
      distribution.declare(blocks.region(1), 3, {"program.c", 82, "css_mpi_owner"}),
      ::testing::ExitedWithCode(1),
      "gpuss: error: program.c:82: css_mpi_owner: .* whose current value tasks computed on rank 1, and "
      "rank 3 lacks it: to move the data, call css_mpi_gather");
  // Data no task wrote yet move freely (their value is the program's, on every rank), as do forgotten ones.
  distribution.declare(blocks.region(2), 3, {"program.c", 83, "css_mpi_owner"});
  distribution.forget(blocks.region(1));
  distribution.declare(blocks.region(1), 3, {"program.c", 84, "css_mpi_owner"});
}

// ---------------------------------------------------------------- the C API, one rank

TEST(MpiOneRank, ADistributedProgramRunsOnOneProcess) {
  // Not under mpirun (or built without MPI): one rank, no message.
  ASSERT_EQ(css_mpi_init(), 1);
  EXPECT_EQ(css_mpi_rank(), 0);
  std::array<int, 64> a{}, b{};
  css_mpi_owner(a.data(), sizeof a, 0);
  css_mpi_owner(b.data(), sizeof b, css_mpi_block_cyclic_owner(3, 5, 0, 0));
  for (int i = 0; i < 10; ++i) {
    Task("add")
        .in(a)
        .inout(b)
        .body([](TaskEnv env) { env.ptr<int>(1)[0] += env.ptr<int>(0)[0] + 1; })
        .submit_c();
    Task("bump").inout(a).body([](TaskEnv env) { env.ptr<int>(0)[0] += 1; }).submit_c();
  }
  css_barrier();
  EXPECT_EQ(a[0], 10);
  EXPECT_EQ(b[0], 55);
  css_mpi_gather(b.data(), sizeof b, 0);
  css_mpi_counters counters{};
  css_mpi_get_counters(&counters);
  EXPECT_EQ(counters.tasks_run, 20u);
  EXPECT_EQ(counters.sends + counters.receives, 0u);
}

TEST(MpiOneRank, AnUndeclaredDatumIsAnErrorThere) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::array<int, 8> declared{}, undeclared{};
  Task task("unowned");
  task.in(declared).inout(undeclared);
  EXPECT_EXIT(
      {
        css_mpi_owner(declared.data(), sizeof declared, 0);
        task.submit_c();
      },
      ::testing::ExitedWithCode(1),
      "gpuss: error: " + regex_escape(task.file()) + ":" + std::to_string(task.line()) +
          ": task 'unowned': access 1 .* lies in no data declared with css_mpi_owner");
}

} // namespace
} // namespace gpuss::test
