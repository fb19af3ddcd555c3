// StagedCopies (issue 19): how a region not yet page-locked is cut into
// staging-buffer parts, the copy threads that fill and drain the buffers,
// and the count of staged copies after which a range is locked instead. The
// buffers and DMAs themselves are CUDA's (CudaDevice.cpp): the GPU tests
// and the Cholesky checks on the node run through them on every first copy.
#include "memory/PageLocks.hpp"
#include "memory/StagedCopies.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <numeric>
#include <thread>
#include <vector>

namespace gpuss {
namespace {

// Every byte of the region exactly once, none between its rows, each part
// within a buffer, in address order.
void expect_exact_cover(const Region &shape, std::size_t buffer_bytes) {
  SCOPED_TRACE("rows=" + std::to_string(shape.rows) + " row_bytes=" + std::to_string(shape.row_bytes) +
               " stride=" + std::to_string(shape.stride) + " buffer=" + std::to_string(buffer_bytes));
  std::vector<int> covered(shape.span(), 0);
  std::size_t last = 0;
  for (const StagedPart &part : plan_staged_parts(shape, buffer_bytes)) {
    EXPECT_LE(part.rows * part.row_bytes, buffer_bytes);
    EXPECT_GE(part.offset, last);
    last = part.offset;
    for (std::size_t row = 0; row < part.rows; ++row)
      for (std::size_t byte = 0; byte < part.row_bytes; ++byte)
        ++covered.at(part.offset + row * shape.stride + byte);
  }
  for (std::size_t at = 0; at < covered.size(); ++at) {
    const bool in_region = at % shape.stride < shape.row_bytes || shape.is_contiguous();
    ASSERT_EQ(covered[at], in_region ? 1 : 0) << "byte " << at;
  }
}

TEST(StagedParts, ContiguousRegionsInBufferSizedPieces) {
  expect_exact_cover(Region::contiguous(0x1000, 100), 32);
  expect_exact_cover(Region::contiguous(0x1000, 96), 32);
  expect_exact_cover(Region::contiguous(0x1000, 7), 4096);
  EXPECT_EQ(plan_staged_parts(Region::contiguous(0x1000, 96), 32).size(), 3u);
}

TEST(StagedParts, StridedRegionsInWholeRowsOrRowPieces) {
  expect_exact_cover(Region{0x1000, 8, 10, 24}, 32);  // four rows a part
  expect_exact_cover(Region{0x1000, 8, 10, 24}, 8);   // one row a part
  expect_exact_cover(Region{0x1000, 40, 5, 64}, 16);  // rows larger than a buffer
  expect_exact_cover(Region{0x1000, 48, 3, 48}, 100); // a stride equal to the row
  EXPECT_EQ(plan_staged_parts(Region{0x1000, 8, 10, 24}, 32).size(), 3u);
}

TEST(StagedParts, NothingForAnEmptyRegion) {
  EXPECT_TRUE(plan_staged_parts(Region{0x1000, 0, 1, 0}, 32).empty());
}

// The copy threads move rows between strides (packing into a buffer and
// unpacking out of one), many jobs at once, and count the bytes.
TEST(CopyThreads, PacksAndUnpacksStridedRowsInParallel) {
  CopyThreads threads(4);
  constexpr std::size_t rows = 64, row_bytes = 40, stride = 96;
  std::vector<std::byte> source(rows * stride), packed(rows * row_bytes);
  std::vector<std::byte> unpacked(rows * stride, std::byte{0});
  for (std::size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<std::byte>(i * 7 + 3);
  std::deque<CopyThreads::Job> jobs;
  for (std::size_t row = 0; row < rows; row += 8) {
    CopyThreads::Job &job = jobs.emplace_back();
    job.from = source.data() + row * stride;
    job.to = packed.data() + row * row_bytes;
    job.row_bytes = row_bytes;
    job.rows = 8;
    job.from_stride = stride;
    job.to_stride = row_bytes;
    threads.post(job);
  }
  for (const CopyThreads::Job &job : jobs)
    threads.wait(job);
  CopyThreads::Job back;
  back.from = packed.data();
  back.to = unpacked.data();
  back.row_bytes = row_bytes;
  back.rows = rows;
  back.from_stride = row_bytes;
  back.to_stride = stride;
  threads.post(back);
  threads.wait(back);
  for (std::size_t row = 0; row < rows; ++row) {
    ASSERT_EQ(std::memcmp(packed.data() + row * row_bytes, source.data() + row * stride, row_bytes), 0);
    ASSERT_EQ(std::memcmp(unpacked.data() + row * stride, source.data() + row * stride, row_bytes), 0);
    for (std::size_t byte = row_bytes; byte < stride && row * stride + byte < unpacked.size(); ++byte)
      ASSERT_EQ(unpacked[row * stride + byte], std::byte{0}) << "between rows: not the region's";
  }
  EXPECT_EQ(threads.totals().bytes, 2 * rows * row_bytes);
}

class NeverLocks final : public PageLocker {
public:
  bool lock(void *, std::size_t) override { return true; }
  void unlock(void *) override {}
};

// A range's staged copies are counted until its memory is forgotten; a
// range of other extent at the same first byte is other data.
TEST(CountStaged, CountsCopiesOfARangeUntilItsMemoryIsForgotten) {
  PageLocks locks(std::make_unique<NeverLocks>());
  alignas(4096) static std::byte memory[3 * 4096];
  EXPECT_EQ(locks.count_staged(memory, 4096), 1u);
  EXPECT_EQ(locks.count_staged(memory, 4096), 2u);
  EXPECT_EQ(locks.count_staged(memory + 4096, 4096), 1u);
  EXPECT_EQ(locks.count_staged(memory, 4096), 3u);
  EXPECT_EQ(locks.count_staged(memory, 2 * 4096), 1u) << "another extent: other data";
  locks.forget(memory, 4096);
  EXPECT_EQ(locks.count_staged(memory, 2 * 4096), 1u) << "forgotten with the memory";
  EXPECT_EQ(locks.count_staged(memory + 4096, 4096), 2u) << "other memory keeps its count";
  locks.forget_all();
  EXPECT_EQ(locks.count_staged(memory + 4096, 4096), 1u);
}

// CSS_STAGING_THREADS=auto: staging for one GPU, with as many threads as
// the node has (at most 16), where it has at least four; never with several
// GPUs, which copy memory not locked yet as it is (performance.md).
TEST(AutoStaging, OneGpuStagesWithTheNodesThreads) {
  EXPECT_EQ(auto_staging_threads(1, 16), 16u);
  EXPECT_EQ(auto_staging_threads(1, 64), 16u) << "at most 16";
  EXPECT_EQ(auto_staging_threads(1, 8), 8u);
  EXPECT_EQ(auto_staging_threads(1, 4), 4u);
  EXPECT_EQ(auto_staging_threads(1, 2), 0u) << "too few threads to copy beside the runtime's";
  EXPECT_EQ(auto_staging_threads(2, 32), 0u) << "two GPUs: pageable copies";
  EXPECT_EQ(auto_staging_threads(4, 64), 0u);
  EXPECT_EQ(auto_staging_threads(0, 16), 0u) << "no GPU";
}

// CSS_UNLOCKED_COPIES=auto: pageable copies where two or more GPUs copy
// (four workers locking at once add up to less than their pageable copies),
// locking with one GPU or none (performance.md, 2026-11-28).
TEST(UnlockedCopiesChoice, PageableFromTwoGpus) {
  EXPECT_EQ(choose_unlocked_copies(UnlockedCopies::Auto, 0), UnlockedCopies::Lock);
  EXPECT_EQ(choose_unlocked_copies(UnlockedCopies::Auto, 1), UnlockedCopies::Lock);
  EXPECT_EQ(choose_unlocked_copies(UnlockedCopies::Auto, 2), UnlockedCopies::Pageable);
  EXPECT_EQ(choose_unlocked_copies(UnlockedCopies::Auto, 4), UnlockedCopies::Pageable);
  EXPECT_EQ(choose_unlocked_copies(UnlockedCopies::Lock, 4), UnlockedCopies::Lock) << "asked for";
  EXPECT_EQ(choose_unlocked_copies(UnlockedCopies::Pageable, 1), UnlockedCopies::Pageable) << "asked for";
}

} // namespace
} // namespace gpuss
