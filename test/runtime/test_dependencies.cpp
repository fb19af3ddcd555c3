// Dependency tracking: RAW, WAR and WAW ordering over overlapping regions
// (contiguous, partial and strided), and the absence of dependencies where
// regions do not share a byte or only scalars are passed.
//
// Ordering tests make the earlier task slow, so that a runtime that lets the
// later one overtake it produces a wrong value. Independence tests make two
// tasks meet at a timed rendezvous: if the runtime serialises them, the first
// gives up after a timeout and the test fails instead of hanging.
#include "TaskBuilder.hpp"
#include "graph/Region.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <thread>

namespace gpuss::test {
namespace {

using namespace std::chrono_literals;

void pause() {
  std::this_thread::sleep_for(20ms);
}

// ---------------------------------------------------------------- ordering, over thread counts and devices

class Ordering : public ::testing::TestWithParam<Config> {
protected:
  Runtime runtime{GetParam()};
};

TEST_P(Ordering, ReadAfterWrite) {
  std::array<int, 256> data{};
  long observed = -1;
  Task("slow_writer")
      .out(data)
      .body([](TaskEnv env) {
        pause();
        int *d = env.ptr<int>(0);
        for (int i = 0; i < 256; ++i)
          d[i] = i + 1;
      })
      .submit(runtime);
  Task("reader")
      .in(data)
      .out(observed)
      .body([](TaskEnv env) {
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(d, d + 256, 0L);
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(observed, 256L * 257 / 2);
  EXPECT_EQ(data[255], 256);
}

TEST_P(Ordering, WriteAfterReadInout) {
  std::array<int, 256> data;
  data.fill(1);
  long observed = -1;
  Task("slow_reader")
      .in(data)
      .out(observed)
      .body([](TaskEnv env) {
        pause();
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(d, d + 256, 0L);
      })
      .submit(runtime);
  Task("writer")
      .inout(data)
      .body([](TaskEnv env) {
        int *d = env.ptr<int>(0);
        for (int i = 0; i < 256; ++i)
          d[i] += 4;
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(observed, 256);
  for (int v : data)
    ASSERT_EQ(v, 5);
}

TEST_P(Ordering, WriteAfterReadOutput) {
  // The writer may be renamed; the reader must still see the old value.
  std::array<int, 256> data;
  data.fill(1);
  long observed = -1;
  Task("slow_reader")
      .in(data)
      .out(observed)
      .body([](TaskEnv env) {
        pause();
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(d, d + 256, 0L);
      })
      .submit(runtime);
  Task("overwriter")
      .out(data)
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), 256, 9); })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(observed, 256);
  for (int v : data)
    ASSERT_EQ(v, 9);
}

TEST_P(Ordering, WriteAfterWrite) {
  std::array<int, 256> data{};
  long observed = -1;
  Task("slow_first_writer")
      .out(data)
      .body([](TaskEnv env) {
        pause();
        std::fill_n(env.ptr<int>(0), 256, 1);
      })
      .submit(runtime);
  Task("second_writer")
      .out(data)
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), 256, 2); })
      .submit(runtime);
  Task("reader")
      .in(data)
      .out(observed)
      .body([](TaskEnv env) {
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(d, d + 256, 0L);
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(observed, 512);
  for (int v : data)
    ASSERT_EQ(v, 2);
}

TEST_P(Ordering, InoutChain) {
  std::uint64_t counter = 0;
  const int n = quick_mode() ? 200 : 1000;
  for (int i = 0; i < n; ++i)
    Task("increment")
        .inout(counter)
        .body([i](TaskEnv env) {
          auto *c = env.ptr<std::uint64_t>(0);
          *c = *c * 3 + static_cast<std::uint64_t>(i); // order-sensitive
        })
        .submit(runtime);
  runtime.barrier();
  std::uint64_t expected = 0;
  for (int i = 0; i < n; ++i)
    expected = expected * 3 + static_cast<std::uint64_t>(i);
  EXPECT_EQ(counter, expected);
}

TEST_P(Ordering, PartialOverlap) {
  std::array<int, 200> data{};
  long ones_seen = -1;
  // [0,100) slowly set to 1; [50,150) read; [90,200) then set to 2.
  Task("slow_low_writer")
      .inout(&data[0], 100 * sizeof(int))
      .body([](TaskEnv env) {
        pause();
        std::fill_n(env.ptr<int>(0), 100, 1);
      })
      .submit(runtime);
  Task("middle_reader")
      .in(&data[50], 100 * sizeof(int))
      .out(ones_seen)
      .body([](TaskEnv env) {
        pause();
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::count(d, d + 100, 1);
      })
      .submit(runtime);
  Task("high_writer")
      .out(&data[90], 110 * sizeof(int))
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), 110, 2); })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(ones_seen, 50); // data[50..100) from the first writer, not yet the second
  for (int i = 0; i < 200; ++i)
    ASSERT_EQ(data[i], i < 90 ? 1 : 2) << "at " << i;
}

TEST_P(Ordering, PartialWritesKeepTheReaderOfTheRest) {
  // A slow reader of [0,100), then writers of [0,50) and of [50,100): the
  // first covers only part of what the reader reads, so the second must
  // still wait for the reader. The same with a block of a matrix and
  // writers of its left and right column halves (strided).
  std::array<int, 100> data;
  data.fill(1);
  int matrix[16][16];
  for (auto &row : matrix)
    std::fill_n(row, 16, 1);
  long seen = -1, block_seen = -1;
  Task("slow_reader")
      .in(data)
      .out(seen)
      .body([](TaskEnv env) {
        pause();
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(d, d + 100, 0L);
      })
      .submit(runtime);
  Task("slow_block_reader")
      .strided(CSS_IN, &matrix[4][4], 8 * sizeof(int), 8, sizeof matrix[0])
      .out(block_seen)
      .body([](TaskEnv env) {
        pause();
        long sum = 0;
        for (int r = 0; r < 8; ++r)
          for (int c = 0; c < 8; ++c)
            sum += env.at<int>(0, r, c);
        *env.ptr<long>(1) = sum;
      })
      .submit(runtime);
  Task("low_half_writer")
      .out(&data[0], 50 * sizeof(int))
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), 50, 2); })
      .submit(runtime);
  Task("left_columns_writer")
      .strided(CSS_OUT, &matrix[4][4], 4 * sizeof(int), 8, sizeof matrix[0])
      .body([](TaskEnv env) {
        for (int r = 0; r < 8; ++r)
          std::fill_n(&env.at<int>(0, r, 0), 4, 2);
      })
      .submit(runtime);
  Task("high_half_writer")
      .out(&data[50], 50 * sizeof(int))
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), 50, 3); })
      .submit(runtime);
  Task("right_columns_writer")
      .strided(CSS_OUT, &matrix[4][8], 4 * sizeof(int), 8, sizeof matrix[0])
      .body([](TaskEnv env) {
        for (int r = 0; r < 8; ++r)
          std::fill_n(&env.at<int>(0, r, 0), 4, 3);
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(seen, 100) << "a writer of the half that the first writer left overtook the reader";
  EXPECT_EQ(block_seen, 64) << "a writer of the columns that the first writer left overtook the reader";
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(data[i], i < 50 ? 2 : 3) << "at " << i;
  for (int r = 4; r < 12; ++r)
    for (int c = 4; c < 12; ++c)
      ASSERT_EQ(matrix[r][c], c < 8 ? 2 : 3) << r << "," << c;
}

TEST_P(Ordering, ReaderOrderedThroughACoveringWrite) {
  // A slow reader of [20,30) of a block, a writer of the whole block (which
  // supersedes the reader: it waits for it, and later tasks find it), then a
  // writer of [25,27) and a reader of [20,30): both after the block's
  // writer, and so after the slow reader.
  std::array<int, 100> data;
  data.fill(1);
  long first_seen = -1, last_seen = -1;
  Task("slow_strip_reader")
      .in(&data[20], 10 * sizeof(int))
      .out(first_seen)
      .body([](TaskEnv env) {
        pause();
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(d, d + 10, 0L);
      })
      .submit(runtime);
  Task("block_writer")
      .inout(data)
      .body([](TaskEnv env) {
        int *d = env.ptr<int>(0);
        for (int i = 0; i < 100; ++i)
          d[i] += 1;
      })
      .submit(runtime);
  Task("inner_writer")
      .out(&data[25], 2 * sizeof(int))
      .body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), 2, 9); })
      .submit(runtime);
  Task("strip_reader")
      .in(&data[20], 10 * sizeof(int))
      .out(last_seen)
      .body([](TaskEnv env) {
        const int *d = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(d, d + 10, 0L);
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(first_seen, 10);
  EXPECT_EQ(last_seen, 8 * 2 + 2 * 9);
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(data[i], i == 25 || i == 26 ? 9 : 2) << "at " << i;
}

TEST_P(Ordering, StridedColumnThenContiguousRow) {
  int matrix[16][16] = {};
  long seen = -1;
  // Column 3: 16 rows of 4 bytes, 64 bytes apart.
  Task("slow_column_writer")
      .strided(CSS_OUT, &matrix[0][3], sizeof(int), 16, sizeof matrix[0])
      .body([](TaskEnv env) {
        pause();
        for (int r = 0; r < 16; ++r)
          env.at<int>(0, r, 0) = 7;
      })
      .submit(runtime);
  Task("row_reader")
      .in(matrix[5])
      .out(seen)
      .body([](TaskEnv env) {
        const int *row = env.ptr<const int>(0);
        *env.ptr<long>(1) = std::accumulate(row, row + 16, 0L);
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(seen, 7);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      ASSERT_EQ(matrix[r][c], c == 3 ? 7 : 0) << r << "," << c;
}

TEST_P(Ordering, ContiguousRowThenStridedColumn) {
  int matrix[16][16] = {};
  long seen = -1;
  Task("slow_row_writer")
      .out(matrix[9])
      .body([](TaskEnv env) {
        pause();
        std::fill_n(env.ptr<int>(0), 16, 3);
      })
      .submit(runtime);
  Task("column_reader")
      .strided(CSS_IN, &matrix[0][12], sizeof(int), 16, sizeof matrix[0])
      .out(seen)
      .body([](TaskEnv env) {
        long sum = 0;
        for (int r = 0; r < 16; ++r)
          sum += env.at<int>(0, r, 0);
        *env.ptr<long>(1) = sum;
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(seen, 3);
}

TEST_P(Ordering, OverlappingStridedBlocks) {
  int matrix[16][16] = {};
  long seen = -1;
  // Block rows 4..8, columns 4..8 written; block rows 6..10, columns 6..10 read: 2x2 shared.
  Task("slow_block_writer")
      .strided(CSS_INOUT, &matrix[4][4], 4 * sizeof(int), 4, sizeof matrix[0])
      .body([](TaskEnv env) {
        pause();
        for (int r = 0; r < 4; ++r)
          for (int c = 0; c < 4; ++c)
            env.at<int>(0, r, c) += 1;
      })
      .submit(runtime);
  Task("block_reader")
      .strided(CSS_IN, &matrix[6][6], 4 * sizeof(int), 4, sizeof matrix[0])
      .out(seen)
      .body([](TaskEnv env) {
        long sum = 0;
        for (int r = 0; r < 4; ++r)
          for (int c = 0; c < 4; ++c)
            sum += env.at<int>(0, r, c);
        *env.ptr<long>(1) = sum;
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(seen, 4);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      ASSERT_EQ(matrix[r][c], (r >= 4 && r < 8 && c >= 4 && c < 8) ? 1 : 0);
}

struct ScaleArgs {
  int factor;
  int addend;
};

void scale_body(void *args, const css_task_env *env) {
  ScaleArgs a;
  std::memcpy(&a, args, sizeof a);
  int *value = static_cast<int *>(env->addresses[0]);
  *value = *value * a.factor + a.addend;
}

TEST_P(Ordering, ScalarArgumentsAreCopiedAtSubmit) {
  int value = 1;
  ScaleArgs args{3, 1};
  Task("scale").inout(value).function(scale_body, args).submit(runtime);
  args = {5, 2}; // the task above must keep 3 and 1
  Task("scale").inout(value).function(scale_body, args).submit(runtime);
  runtime.barrier();
  EXPECT_EQ(value, (1 * 3 + 1) * 5 + 2);
}

std::vector<Config> ordering_configs() {
  std::vector<Config> configs;
  for (unsigned cpus : {1u, 2u, 4u})
    configs.push_back(host_config(cpus));
  for (unsigned cpus : {1u, 2u})
    configs.push_back(sim_config(cpus, 2, CachePolicy::WriteBack, "1M"));
  configs.push_back(sim_config(1, 1, CachePolicy::NoCache, "1M"));
  return configs;
}

INSTANTIATE_TEST_SUITE_P(Dependencies, Ordering, ::testing::ValuesIn(ordering_configs()),
                         [](const auto &info) { return config_name(info.param); });

// ---------------------------------------------------------------- independence (needs two host workers)

class Independence : public ::testing::TestWithParam<unsigned> {
protected:
  Runtime runtime{host_config(GetParam())};

  // Submits two tasks built by `make` that must run at the same time.
  template <class Make> void expect_concurrent(Make make) {
    Rendezvous meeting(2);
    std::atomic<int> met{0};
    for (int i = 0; i < 2; ++i)
      make(i).body([&](TaskEnv) { met += meeting.arrive() ? 1 : 0; }).submit(runtime);
    runtime.barrier();
    EXPECT_EQ(met.load(), 2) << "the two tasks did not run concurrently";
  }
};

struct RendezvousArgs {
  Rendezvous *meeting;
  std::atomic<int> *met;
  int value; // a by-value scalar, as translated code packs it
};

void rendezvous_body(void *args, const css_task_env *) {
  RendezvousArgs a;
  std::memcpy(&a, args, sizeof a);
  if (a.meeting->arrive()) *a.met += 1;
}

TEST_P(Independence, ScalarOnlyTasksHaveNoDependency) {
  Rendezvous meeting(2);
  std::atomic<int> met{0};
  int shared_scalar = 17;
  for (int i = 0; i < 2; ++i)
    Task("scalars_only")
        .function(rendezvous_body, RendezvousArgs{&meeting, &met, shared_scalar})
        .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(met.load(), 2) << "tasks with only by-value arguments were serialised";
}

TEST_P(Independence, ReadersOfTheSameRegion) {
  std::array<int, 64> data{};
  expect_concurrent([&](int) { return Task("reader").in(data); });
}

TEST_P(Independence, AdjacentContiguousRegions) {
  std::array<int, 128> data{};
  expect_concurrent([&](int i) { return Task("half_writer").inout(&data[64 * i], 64 * sizeof(int)); });
}

TEST_P(Independence, InterleavedStridedColumns) {
  // Columns 0 and 1 of a 16x16 matrix: their bounding spans overlap, their bytes do not.
  static int matrix[16][16];
  expect_concurrent([&](int i) {
    return Task("column_writer").strided(CSS_INOUT, &matrix[0][i], sizeof(int), 16, sizeof matrix[0]);
  });
}

TEST_P(Independence, StridedBlockBesideContiguousRow) {
  static int matrix[16][16];
  expect_concurrent([&](int i) {
    Task task("block_or_row");
    if (i == 0)
      task.strided(CSS_INOUT, &matrix[0][0], 8 * sizeof(int), 8, sizeof matrix[0]);
    else
      task.inout(matrix[8]);
    return task;
  });
}

TEST_P(Independence, ReaderOfBytesAPartialWriterLeavesDoesNotWaitForIt) {
  // After a reader of the whole array, a writer of its low half and a
  // reader of its high half share no byte: the writer takes over only what
  // it covers, not the rest of the earlier reader's region.
  std::array<int, 128> data{};
  Task("earlier_reader").in(data).submit(runtime);
  expect_concurrent([&](int i) {
    Task task(i == 0 ? "low_half_writer" : "high_half_reader");
    if (i == 0)
      task.out(&data[0], 64 * sizeof(int));
    else
      task.in(&data[64], 64 * sizeof(int));
    return task;
  });
}

INSTANTIATE_TEST_SUITE_P(Dependencies, Independence, ::testing::Values(2u, 4u),
                         [](const auto &info) { return "cpus" + std::to_string(info.param); });

// Region::overlaps and Region::contains against the bytes themselves, for
// random regions of one stride (the constant-time path for rectangles, and
// rows that cross a stride boundary, which take the row-by-row path) and of
// different strides.
TEST(RegionBytes, OverlapAndContainmentAgreeWithTheBytes) {
  std::uint64_t state = 12345;
  auto next = [&](std::uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  auto random_region = [&](std::size_t stride) {
    const std::size_t rows = 1 + next(6), row_bytes = 1 + next(stride);
    // As the runtime makes it (a stride of one row is contiguous).
    return Region::from(css_region{reinterpret_cast<void *>(4096 + next(600)), row_bytes, rows, stride});
  };
  auto bytes_of = [](const Region &r) {
    std::vector<bool> bytes(8192);
    for (std::size_t row = 0; row < r.rows; ++row)
      for (std::size_t b = 0; b < r.row_bytes; ++b)
        bytes[r.base - 4096 + row * r.stride + b] = true;
    return bytes;
  };
  int rectangles = 0;
  for (int round = 0; round < 20000; ++round) {
    const std::size_t stride = 8 + next(120);
    const Region a = random_region(stride), b = random_region(round % 3 == 0 ? 8 + next(120) : stride);
    const std::vector<bool> in_a = bytes_of(a), in_b = bytes_of(b);
    bool shared = false, b_within_a = true;
    for (std::size_t i = 0; i < in_a.size(); ++i) {
      shared |= in_a[i] && in_b[i];
      b_within_a &= !in_b[i] || in_a[i];
    }
    ASSERT_EQ(a.overlaps(b), shared) << "round " << round;
    ASSERT_EQ(b.overlaps(a), shared) << "round " << round;
    ASSERT_EQ(a.contains(b), b_within_a) << "round " << round;
    rectangles += a.compares_as_rectangles(b);
  }
  EXPECT_GT(rectangles, 1000) << "the constant-time path must be exercised";
}

// The tiles and panels of a column-major matrix whose first element is not
// at a multiple of its leading dimension (malloc's addresses seldom are):
// every pair compares as rectangles, and the answers are the bytes'. Lines
// counted from address 0 cut some tiles' rows in two, and the runtime
// compared those row by row, a thousand rows a tile at LU's sizes: half of
// the master's time submitting LU at n = 24576 on the dev VM.
TEST(RegionBytes, TilesOfAMatrixAtAnyAddressCompareAsRectangles) {
  constexpr std::size_t lda = 40, n = 32, nb = 8, nt = n / nb, element = 8;
  constexpr std::size_t stride = lda * element, bytes = n * stride;
  for (std::size_t start : {std::size_t{4096}, std::size_t{4096 + 200}, std::size_t{4096 + stride - 8}}) {
    std::vector<Region> regions;
    for (std::size_t j = 0; j < nt; ++j) {
      for (std::size_t i = 0; i < nt; ++i) // tile (i, j): nb columns of nb elements
        regions.push_back(Region::from(css_region{reinterpret_cast<void *>(start + (j * nb * lda + i * nb) * element),
                                                  nb * element, nb, stride}));
      // panel j: rows j nb .. n - 1 of block column j
      regions.push_back(Region::from(css_region{reinterpret_cast<void *>(start + (j * nb * lda + j * nb) * element),
                                                (n - j * nb) * element, nb, stride}));
    }
    auto bytes_of = [&](const Region &r) {
      std::vector<bool> in(bytes);
      for (std::size_t row = 0; row < r.rows; ++row)
        for (std::size_t b = 0; b < r.row_bytes; ++b)
          in[r.base - start + row * r.stride + b] = true;
      return in;
    };
    for (const Region &a : regions)
      for (const Region &b : regions) {
        EXPECT_TRUE(a.compares_as_rectangles(b)) << "start " << start;
        const std::vector<bool> in_a = bytes_of(a), in_b = bytes_of(b);
        bool shared = false, b_within_a = true;
        for (std::size_t i = 0; i < bytes; ++i) {
          shared |= in_a[i] && in_b[i];
          b_within_a &= !in_b[i] || in_a[i];
        }
        ASSERT_EQ(a.overlaps(b), shared) << "start " << start;
        ASSERT_EQ(a.contains(b), b_within_a) << "start " << start;
      }
  }
}

} // namespace
} // namespace gpuss::test
