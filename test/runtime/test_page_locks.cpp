// PageLocks and the release hooks, without a GPU: a recording locker stands
// in for cudaHostRegister.
//
// PageLocks: whole pages are locked once and split copies at lock
// boundaries; a lock is undone only once the copies leasing it are done.
// Release hooks: memory the program frees, reallocates or unmaps is unlocked
// before it goes back, if tasks named any of it; other memory, releases by
// exempt threads and releases after detach are left alone.
#include "memory/HostReleaseHooks.hpp"
#include "memory/PageLocks.hpp"
#include "memory/PinService.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace gpuss {
namespace {

const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

// What the locker was asked, shared with the test.
struct LockLog {
  std::mutex mutex;
  std::vector<std::pair<std::uintptr_t, std::size_t>> locks; // every lock made
  std::set<std::uintptr_t> held;                             // starts locked now
  std::size_t unlocks = 0;
  bool refuse = false;
  std::atomic<bool> probe_on_unlock{true}; // off where a test frees memory it leaves locked

  std::size_t locks_made() {
    std::lock_guard lock(mutex);
    return locks.size();
  }
  std::size_t held_count() {
    std::lock_guard lock(mutex);
    return held.size();
  }
};

class RecordingLocker final : public PageLocker {
public:
  explicit RecordingLocker(std::shared_ptr<LockLog> log) : log_(std::move(log)) {}
  bool lock(void *start, std::size_t bytes) override {
    std::lock_guard lock(log_->mutex);
    if (log_->refuse) return false;
    log_->locks.emplace_back(reinterpret_cast<std::uintptr_t>(start), bytes);
    EXPECT_TRUE(log_->held.insert(reinterpret_cast<std::uintptr_t>(start)).second) << "locked twice";
    return true;
  }
  void unlock(void *start) override {
    // Touching the first page proves the memory is still the program's: a
    // lock undone after munmap would fault here.
    if (log_->probe_on_unlock) {
      volatile char first = *static_cast<volatile char *>(start);
      (void)first;
    }
    std::lock_guard lock(log_->mutex);
    EXPECT_EQ(log_->held.erase(reinterpret_cast<std::uintptr_t>(start)), 1u)
        << "unlocked what was not locked";
    ++log_->unlocks;
  }

private:
  std::shared_ptr<LockLog> log_;
};

// Page-aligned memory of `pages` pages, never freed through the hooks'
// subject (the tests free it after the PageLocks is gone).
struct Pages {
  explicit Pages(std::size_t pages)
      : bytes(pages * page), base(static_cast<std::byte *>(std::aligned_alloc(page, pages * page))) {
    std::memset(base, 1, bytes);
  }
  ~Pages() { std::free(base); }
  std::size_t bytes;
  std::byte *base;
};

class PageLocksTest : public ::testing::Test {
protected:
  std::shared_ptr<LockLog> log = std::make_shared<LockLog>();
  Pages memory{16};
  std::unique_ptr<PageLocks> locks = std::make_unique<PageLocks>(std::make_unique<RecordingLocker>(log));
};

TEST_F(PageLocksTest, LocksWholePagesOnceAndRemembersTheNamedBytes) {
  locks->ensure(memory.base + 100, 3 * page); // pages 0..3
  ASSERT_EQ(log->locks_made(), 1u);
  EXPECT_EQ(log->locks[0].first, reinterpret_cast<std::uintptr_t>(memory.base));
  EXPECT_EQ(log->locks[0].second, 4 * page);
  EXPECT_EQ(locks->locked_bytes(), 4 * page);
  EXPECT_TRUE(locks->named(memory.base + 100, 1));
  EXPECT_TRUE(locks->named(memory.base, 101));
  EXPECT_FALSE(locks->named(memory.base, 100)) << "the first 100 bytes were never named";
  EXPECT_FALSE(locks->named(memory.base + 100 + 3 * page, page));

  locks->ensure(memory.base + page, page); // already locked
  EXPECT_EQ(log->locks_made(), 1u);
  locks->ensure(memory.base, memory.bytes); // only the gap after the first lock
  ASSERT_EQ(log->locks_made(), 2u);
  EXPECT_EQ(log->locks[1].first, reinterpret_cast<std::uintptr_t>(memory.base + 4 * page));
  EXPECT_EQ(log->locks[1].second, 12 * page);
  EXPECT_TRUE(locks->named(memory.base, 100));
}

TEST_F(PageLocksTest, NamedBytesMergeInAnyOrder) {
  std::byte *base = memory.base;
  locks->ensure(base + 100, 100); // [100, 200)
  locks->ensure(base + 200, 100); // grows it at its end: [100, 300)
  locks->ensure(base + 150, 20);  // inside it
  locks->ensure(base + 500, 100); // apart: [500, 600)
  locks->ensure(base + 700, 100); // apart: [700, 800)
  locks->ensure(base + 20, 50);   // before everything: [20, 70)
  EXPECT_TRUE(locks->named(base + 100, 200));
  EXPECT_FALSE(locks->named(base + 300, 200));
  EXPECT_FALSE(locks->named(base + 70, 30));
  EXPECT_FALSE(locks->named(base + 600, 100));
  locks->ensure(base + 250, 500); // bridges [100, 300), [500, 600) and [700, 800)
  EXPECT_TRUE(locks->named(base + 300, 1));
  EXPECT_TRUE(locks->named(base + 650, 1));
  EXPECT_TRUE(locks->named(base + 799, 1));
  EXPECT_FALSE(locks->named(base + 800, page));
  EXPECT_FALSE(locks->named(base, 20));
  locks->ensure(base + 60, 50); // bridges [20, 70) and the rest
  EXPECT_TRUE(locks->named(base + 70, 30));
}

TEST_F(PageLocksTest, CopiesAreSplitAtLockBoundariesAndLeaseTheLocks) {
  locks->ensure(memory.base, 2 * page);            // pages 0..1
  locks->ensure(memory.base + 4 * page, 2 * page); // pages 4..5
  PageLocks::Leases leases;
  auto pieces = locks->pieces(memory.base + page, 5 * page, leases); // pages 1..5
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0].offset, 0u);
  EXPECT_EQ(pieces[0].length, page); // page 1, locked
  EXPECT_EQ(pieces[1].offset, page);
  EXPECT_EQ(pieces[1].length, 2 * page); // pages 2..3, pageable
  EXPECT_EQ(pieces[2].offset, 3 * page);
  EXPECT_EQ(pieces[2].length, 2 * page); // pages 4..5, locked
  EXPECT_EQ(leases.size(), 2u);
  locks->release(leases);
  EXPECT_TRUE(leases.empty());
}

// A strided region whose span crosses locks: runs of rows inside one lock (or
// unlocked) make one 2-D piece each, and only a row across a boundary is
// cut. Row by row, a 2048-row tile took 2048 copies (performance.md).
TEST_F(PageLocksTest, StridedRowsAreCopiedInRunsPerLock) {
  const std::size_t row_bytes = 100, stride = 1000, rows = 40; // rows at 0, 1000, ..., 39000
  locks->ensure(memory.base, 3 * page);            // lock 1: pages 0..2
  locks->ensure(memory.base + 3 * page, 4 * page); // lock 2: pages 3..6; pages 7.. unlocked
  ASSERT_EQ(log->locks_made(), 2u);
  PageLocks::Leases leases;
  auto pieces = locks->row_pieces(memory.base, row_bytes, rows, stride, leases);
  // Every byte of every row once, in order, each piece inside one lock or unlocked.
  std::vector<std::pair<std::size_t, std::size_t>> covered; // (offset, length) of each row's part
  for (const auto &piece : pieces) {
    ASSERT_GE(piece.rows, 1u);
    for (std::size_t r = 0; r < piece.rows; ++r)
      covered.emplace_back(piece.offset + r * stride, piece.length);
    // Lock 1 is [0, 3 pages), lock 2 [3, 7), then unlocked: a piece lies in one.
    const std::size_t first = piece.offset, last = piece.offset + (piece.rows - 1) * stride + piece.length;
    auto zone = [](std::size_t at) { return at < 3 * page ? 0 : at < 7 * page ? 1 : 2; };
    EXPECT_EQ(zone(first), zone(last - 1)) << "a piece from byte " << first << " to " << last
                                           << " crosses a lock boundary";
  }
  std::size_t expect_row = 0, expect_at = 0;
  for (auto [offset, length] : covered) {
    EXPECT_EQ(offset, expect_row * stride + expect_at);
    expect_at += length;
    if (expect_at == row_bytes) ++expect_row, expect_at = 0;
  }
  EXPECT_EQ(expect_row, rows);
  // Page 3 starts at byte 3 * page and page 7 at 7 * page: the rows that
  // cross them (if any do) are cut; the rest come in three runs.
  std::size_t crossing = 0;
  for (std::size_t boundary : {3 * page, 7 * page})
    for (std::size_t r = 0; r < rows; ++r)
      if (r * stride < boundary && r * stride + row_bytes > boundary) ++crossing;
  EXPECT_EQ(pieces.size(), 3u + 2u * crossing) << "three runs, and each crossing row in two";
  EXPECT_EQ(leases.size(), 2u) << "each lock leased once";
  locks->release(leases);
}

TEST_F(PageLocksTest, StridedRowsInOneLockAreOnePiece) {
  locks->ensure(memory.base, memory.bytes);
  PageLocks::Leases leases;
  auto pieces = locks->row_pieces(memory.base + 10, 512, 20, 3000, leases);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].offset, 0u);
  EXPECT_EQ(pieces[0].length, 512u);
  EXPECT_EQ(pieces[0].rows, 20u);
  EXPECT_EQ(leases.size(), 1u);
  locks->release(leases);
  // Nothing locked: one piece, nothing leased.
  Pages other(4);
  auto unlocked = locks->row_pieces(other.base, 64, 10, 1024, leases);
  ASSERT_EQ(unlocked.size(), 1u);
  EXPECT_EQ(unlocked[0].rows, 10u);
  EXPECT_TRUE(leases.empty());
}

TEST_F(PageLocksTest, ALockIsUndoneOnlyOnceTheCopiesThroughItAreDone) {
  locks->ensure(memory.base, 4 * page);
  PageLocks::Leases leases;
  locks->pieces(memory.base, page, leases); // a copy in flight
  std::atomic<bool> forgotten{false};
  std::thread forgetter([&] {
    locks->forget(memory.base + 2 * page, page); // touches the same lock
    forgotten = true;
  });
  // Once forget() has closed the lock, it takes no new leases: later copies
  // run pageable.
  bool closing = false;
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       !closing && std::chrono::steady_clock::now() < deadline;) {
    PageLocks::Leases more;
    auto pieces = locks->pieces(memory.base, 4 * page, more);
    closing = more.empty();
    if (closing) {
      EXPECT_EQ(pieces.size(), 1u);
    }
    locks->release(more);
    if (!closing) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(closing) << "forget() never closed the lock";
  // A second thread forgetting the same pages (the program freeing them, say)
  // must not return while the first is still waiting to undo the lock.
  std::atomic<bool> also_forgotten{false};
  std::thread second([&] {
    locks->forget(memory.base, page);
    also_forgotten = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(forgotten) << "the lock was undone under a copy";
  EXPECT_FALSE(also_forgotten) << "a second forget() returned before the lock was undone";
  EXPECT_EQ(log->held_count(), 1u);
  locks->release(leases);
  forgetter.join();
  second.join();
  EXPECT_TRUE(forgotten);
  EXPECT_TRUE(also_forgotten);
  EXPECT_EQ(log->held_count(), 0u);
  EXPECT_EQ(locks->locked_bytes(), 0u);
  EXPECT_FALSE(locks->named(memory.base, memory.bytes));
}

// ---------------------------------------------------------------- the pinning service

// A locker whose first lock waits at a gate: the test can queue work while a
// service thread is busy, and see the order in which the rest is locked.
class GatedLocker final : public PageLocker {
public:
  GatedLocker(std::shared_ptr<LockLog> log, std::shared_ptr<std::atomic<bool>> open)
      : inner_(log), open_(std::move(open)) {}
  bool lock(void *start, std::size_t bytes) override {
    while (!open_->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return inner_.lock(start, bytes);
  }
  void unlock(void *start) override { inner_.unlock(start); }

private:
  RecordingLocker inner_;
  std::shared_ptr<std::atomic<bool>> open_;
};

class PinServiceTest : public ::testing::Test {
protected:
  std::shared_ptr<LockLog> log = std::make_shared<LockLog>();
  std::shared_ptr<std::atomic<bool>> gate = std::make_shared<std::atomic<bool>>(false);
  Pages memory{16};
  PageLocks locks{std::make_unique<GatedLocker>(log, gate)};

  std::byte *page_at(std::size_t i) { return memory.base + i * page; }
  // Waits until the locker has been asked `count` times (or gives up).
  void wait_for_locks(std::size_t count) {
    for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
         log->locks_made() < count && std::chrono::steady_clock::now() < deadline;)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // The starts of the locks made, in order.
  std::vector<std::uintptr_t> lock_order() {
    std::lock_guard lock(log->mutex);
    std::vector<std::uintptr_t> starts;
    for (auto [start, bytes] : log->locks)
      starts.push_back(start);
    return starts;
  }
  static std::uintptr_t at(const std::byte *address) { return reinterpret_cast<std::uintptr_t>(address); }
  // Waits until the service thread is inside the locker, at the gate, with
  // the range at `address` (it has taken it from the queue).
  void wait_until_locking(const std::byte *address) {
    for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
         std::chrono::steady_clock::now() < deadline;) {
      if (!locks.named(address, 1)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20)); // now at the gate
      return;
    }
  }
};

TEST_F(PinServiceTest, LocksInTheOrderTasksWillNeedTheMemory) {
  PinService service(locks, 1);
  service.want(page_at(0), page, 10); // taken at once; waits at the gate
  wait_until_locking(page_at(0));
  service.want(page_at(2), page, 30);
  service.want(page_at(4), page, 20);
  service.want(page_at(6), page, 25);
  gate->store(true);
  wait_for_locks(4);
  EXPECT_EQ(lock_order(), (std::vector{at(page_at(0)), at(page_at(4)), at(page_at(6)), at(page_at(2))}));
}

TEST_F(PinServiceTest, ABarriersOrderComesFirst) {
  PinService service(locks, 1);
  service.want(page_at(0), page, 1);
  wait_until_locking(page_at(0));
  service.want(page_at(2), page, 2);
  service.want(page_at(4), page, 3);
  service.reorder({{page_at(6), page}, {page_at(4), page}});
  gate->store(true);
  wait_for_locks(4);
  // page 4 again (its submission order) finds it locked: no second lock.
  EXPECT_EQ(lock_order(), (std::vector{at(page_at(0)), at(page_at(6)), at(page_at(4)), at(page_at(2))}));
}

TEST_F(PinServiceTest, AWorkerWaitsForALockTheServiceHasStarted) {
  PinService service(locks, 1);
  service.want(page_at(0), 2 * page, 1);
  wait_until_locking(page_at(0));
  std::atomic<bool> copied{false};
  std::thread worker([&] {
    locks.ensure_now(page_at(0), 2 * page);
    copied = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(copied) << "the worker copied memory whose lock was still being made";
  gate->store(true);
  worker.join();
  EXPECT_EQ(log->locks_made(), 1u) << "the worker locked again what the service was locking";
  EXPECT_EQ(locks.locked_bytes(), 2 * page);
}

TEST_F(PinServiceTest, AWorkerLocksWhatTheServiceHasNotReachedItself) {
  PinService service(locks, 1);
  service.want(page_at(0), page, 1);
  wait_until_locking(page_at(0));
  service.want(page_at(4), page, 2); // queued behind the gated lock
  std::thread worker([&] { locks.ensure_now(page_at(4), page); });
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  gate->store(true); // the worker's own lock waits at the gate too
  worker.join();
  EXPECT_TRUE(locks.named(page_at(4), page));
  wait_for_locks(2);
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       locks.locked_bytes() < 2 * page && std::chrono::steady_clock::now() < deadline;)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(locks.locked_bytes(), 2 * page);
  {
    // The worker locked page 4 itself: the service's turn found it locked.
    std::lock_guard lock(log->mutex);
    EXPECT_EQ(std::count_if(log->locks.begin(), log->locks.end(),
                            [&](const auto &made) { return made.first == at(page_at(4)); }),
              1);
  }
}

// CSS_UNLOCKED_COPIES=pageable: a worker copies what is not locked as it
// is, while the service locks behind it. CUDA refuses a copy whose host range
// is partly registered (cudaErrorInvalidValue on two H100s, 2026-11-28: the
// service locked a neighbour's block, which shared a page with the block
// being copied). So the pages of a pageable copy are not locked until its
// calls return, and a pageable copy waits for a lock under way over its pages.
TEST_F(PinServiceTest, NoLockStartsOverTheUnlockedPiecesOfAPageableCopy) {
  gate->store(true);
  locks.ensure(page_at(0), page); // page 0 locked: the copy's first piece goes through it
  log->locks.clear();
  PageLocks::Leases leases;
  PageLocks::PageableClaim claim;
  // Bytes from the middle of page 0 to the middle of page 3.
  auto pieces = locks.pieces_pageable(page_at(0) + page / 2, 3 * page, leases, claim);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].length, page / 2) << "the locked part of page 0";
  EXPECT_EQ(pieces[1].length, 2 * page + page / 2) << "pages 1 to the middle of 3, pageable";
  EXPECT_EQ(leases.size(), 1u);
  ASSERT_EQ(claim.pages.size(), 1u);
  EXPECT_EQ(claim.pages[0], std::make_pair(at(page_at(1)), at(page_at(4)))) << "whole pages, 1..3";

  PinService service(locks, 2); // one thread waits for the copy, the other goes on
  service.want(page_at(3), page, 1); // a neighbour sharing page 3
  service.want(page_at(8), page, 2); // elsewhere
  wait_for_locks(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(lock_order(), std::vector{at(page_at(8))}) << "page 3 was locked under a pageable copy of it";
  locks.end_pageable(claim);
  EXPECT_TRUE(claim.pages.empty());
  wait_for_locks(2);
  EXPECT_EQ(lock_order(), (std::vector{at(page_at(8)), at(page_at(3))}));
  locks.release(leases);
}

TEST_F(PinServiceTest, APageableCopyWaitsForALockUnderWayOverItsPages) {
  PinService service(locks, 1);
  service.want(page_at(2), 2 * page, 1);
  wait_until_locking(page_at(2)); // at the gate, pages 2..3 being locked
  std::atomic<bool> copying{false};
  PageLocks::Leases leases;
  PageLocks::PageableClaim claim;
  std::vector<PageLocks::Piece> pieces;
  std::thread worker([&] {
    pieces = locks.pieces_pageable(page_at(3), page, leases, claim);
    copying = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(copying) << "a pageable copy started over pages being locked";
  gate->store(true);
  worker.join();
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(leases.size(), 1u) << "once the lock is made, the copy goes through it";
  EXPECT_TRUE(claim.pages.empty());
  locks.end_pageable(claim);
  locks.release(leases);
}

TEST_F(PinServiceTest, CancelDropsWhatIsQueuedAndWaitsForWhatHasStarted) {
  PinService service(locks, 1);
  service.want(page_at(0), page, 1);
  wait_until_locking(page_at(0));
  service.want(page_at(4), page, 2);
  service.cancel(page_at(4), page); // queued: dropped
  std::atomic<bool> cancelled{false};
  std::thread releaser([&] {
    service.cancel(page_at(0), page); // started: waited for
    cancelled = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(cancelled) << "cancel returned while the service was still locking the memory";
  gate->store(true);
  releaser.join();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(lock_order(), (std::vector{at(page_at(0))})) << "a cancelled range was locked";
  locks.forget(page_at(0), page);
}

TEST_F(PinServiceTest, ClearDropsTheQueue) {
  PinService service(locks, 1);
  service.want(page_at(0), page, 1);
  wait_until_locking(page_at(0));
  for (std::size_t i = 2; i < 16; i += 2)
    service.want(page_at(i), page, static_cast<std::int64_t>(i));
  service.clear();
  // Wanted after every cleared range (a later order), so the service locks
  // it only once it has been through whatever clear() left. A fixed 50 ms
  // after the gate opened stood here until 2026-11-29: a service thread held
  // up that long had not even made the first lock.
  service.want(page_at(15), page, 100);
  gate->store(true);
  auto locked_last = [&] {
    const std::vector<std::uintptr_t> order = lock_order();
    return std::find(order.begin(), order.end(), at(page_at(15))) != order.end();
  };
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60); !locked_last();) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the last range wanted was never locked";
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(lock_order(), (std::vector{at(page_at(0)), at(page_at(15))})) << "a cleared range was locked";
}

TEST_F(PageLocksTest, ForgottenMemoryIsLockedAgainWhenNamedAgain) {
  locks->ensure(memory.base, 2 * page);
  locks->forget(memory.base, 2 * page);
  EXPECT_EQ(log->held_count(), 0u);
  locks->ensure(memory.base, 2 * page);
  EXPECT_EQ(log->locks_made(), 2u);
  EXPECT_EQ(log->held_count(), 1u);
  locks->forget_all();
  EXPECT_EQ(log->held_count(), 0u);
  EXPECT_EQ(locks->locked_bytes(), 0u);
}

TEST_F(PageLocksTest, MemoryThatCannotBeLockedIsCopiedPageable) {
  log->refuse = true;
  locks->ensure(memory.base, 2 * page);
  EXPECT_EQ(locks->locked_bytes(), 0u);
  PageLocks::Leases leases;
  auto pieces = locks->pieces(memory.base, 2 * page, leases);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].length, 2 * page);
  EXPECT_TRUE(leases.empty());
}

TEST_F(PageLocksTest, DestructionUndoesEveryLock) {
  locks->ensure(memory.base, page);
  locks->ensure(memory.base + 8 * page, page);
  EXPECT_EQ(log->held_count(), 2u);
  locks.reset();
  EXPECT_EQ(log->held_count(), 0u);
}

// ---------------------------------------------------------------- the release hooks

// Larger than glibc's largest mmap threshold (32 MiB): always a mapping of
// its own, so free() unmaps it, as with the 32 MiB blocks of a Cholesky.
constexpr std::size_t big = std::size_t{48} << 20;

// What the runtime's listener does with page locks (Runtime.cpp).
class UnlockOnRelease final : public release_hooks::Listener {
public:
  explicit UnlockOnRelease(PageLocks &locks) : locks_(locks) {}
  void before_release(void *address, std::size_t bytes, release_hooks::ReleaseKind) override {
    if (locks_.named(address, bytes)) locks_.forget(address, bytes);
  }

private:
  PageLocks &locks_;
};

class ReleaseHooks : public ::testing::Test {
protected:
  void SetUp() override {
    if (!release_hooks::active())
      GTEST_SKIP() << "free() does not reach libgpuss in this build (a sanitizer's allocator comes first); "
                      "the runtime then unlocks at every barrier instead";
    ASSERT_TRUE(release_hooks::attach(unlocker)) << "another listener is attached";
  }
  void TearDown() override { release_hooks::detach(unlocker); }

  // A block of `bytes` from malloc, written, with `named` bytes of it named by tasks.
  void *named_block(std::size_t bytes, std::size_t offset, std::size_t named) {
    void *block = std::malloc(bytes);
    std::memset(block, 2, bytes);
    locks->ensure(static_cast<std::byte *>(block) + offset, named);
    return block;
  }

  std::shared_ptr<LockLog> log = std::make_shared<LockLog>();
  std::unique_ptr<PageLocks> locks = std::make_unique<PageLocks>(std::make_unique<RecordingLocker>(log));
  UnlockOnRelease unlocker{*locks};
};

TEST_F(ReleaseHooks, FreeingNamedMemoryUnlocksItBeforeItGoes) {
  void *block = named_block(big, 3 * page, 1 << 20);
  ASSERT_EQ(log->held_count(), 1u);
  std::free(block); // the locker reads the pages as it unlocks them: they are still mapped
  EXPECT_EQ(log->held_count(), 0u);
  EXPECT_EQ(locks->locked_bytes(), 0u);
}

TEST_F(ReleaseHooks, SmallBlocksAreUnlockedToo) {
  // A block inside one page: its page may go back to the system once its
  // neighbours are freed too.
  void *block = named_block(200, 0, 200);
  ASSERT_EQ(log->held_count(), 1u);
  std::free(block);
  EXPECT_EQ(log->held_count(), 0u);
}

TEST_F(ReleaseHooks, ReallocAndReallocarrayUnlockTheOldBlock) {
  void *block = named_block(big, 0, big);
  block = std::realloc(block, 2 * big);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(log->held_count(), 0u);
  locks->ensure(block, big);
  ASSERT_EQ(log->held_count(), 1u);
  block = reallocarray(block, 2, big);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(log->held_count(), 0u);
  std::free(block);
}

TEST_F(ReleaseHooks, UnmappingNamedMemoryUnlocksIt) {
  void *mapping = mmap(nullptr, 64 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  std::memset(mapping, 3, 64 * page);
  locks->ensure(static_cast<std::byte *>(mapping) + 10 * page, 4 * page);
  ASSERT_EQ(log->held_count(), 1u);
  ASSERT_EQ(munmap(mapping, 64 * page), 0);
  EXPECT_EQ(log->held_count(), 0u);
}

TEST_F(ReleaseHooks, OperatorDeleteIsSeenThroughFree) {
  {
    std::vector<char> storage(big, 4);
    locks->ensure(storage.data(), storage.size());
    ASSERT_EQ(log->held_count(), 1u);
  }
  EXPECT_EQ(log->held_count(), 0u);
}

TEST_F(ReleaseHooks, OtherMemoryKeepsItsLocks) {
  void *block = named_block(big, 0, big);
  void *other = std::malloc(big);
  std::memset(other, 5, big);
  std::free(other);
  void *small = std::malloc(64);
  std::free(small);
  EXPECT_EQ(log->held_count(), 1u);
  locks->forget(block, big);
  std::free(block);
}

TEST_F(ReleaseHooks, ExemptThreadsAreNotChecked) {
  void *block = named_block(big, 0, page);
  log->probe_on_unlock = false; // the block goes while still locked
  std::thread runtime_thread([&] {
    release_hooks::Exemption exempt; // as the runtime's own threads and API calls are
    std::free(block);
  });
  runtime_thread.join();
  EXPECT_EQ(log->held_count(), 1u);
  locks->forget_all();
}

TEST_F(ReleaseHooks, NothingIsToldAfterDetach) {
  void *block = named_block(big, 0, page);
  release_hooks::detach(unlocker);
  log->probe_on_unlock = false; // the block goes while still locked
  std::free(block);
  EXPECT_EQ(log->held_count(), 1u);
  locks->forget_all();
}

TEST_F(ReleaseHooks, OnlyOneListenerAtATime) {
  void *block = named_block(big, 0, page); // named before the other tries
  auto other_log = std::make_shared<LockLog>();
  PageLocks other(std::make_unique<RecordingLocker>(other_log));
  UnlockOnRelease other_unlocker(other);
  EXPECT_FALSE(release_hooks::attach(other_unlocker));
  release_hooks::detach(other_unlocker); // not attached: no effect
  std::free(block);
  EXPECT_EQ(log->held_count(), 0u) << "the other listener's attempts stopped this one's watch";
}

TEST_F(ReleaseHooks, AForkedChildWatchesNothing) {
  void *block = named_block(big, 0, page);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::free(block); // would unlock through a PageLocks the child cannot use
    _exit(log->held_count() == 1 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child's free() reached the PageLocks";
  std::free(block);
  EXPECT_EQ(log->held_count(), 0u);
}

// Whether libgpuss sees the program's free(): yes in a plain build; no where
// something ahead of it defines free(), such as a sanitizer's runtime or a
// preloaded allocator (runtime.release-hooks-shadowed preloads one).
TEST(ReleaseHooksDetection, SeesFreeUnlessSomethingComesFirst) {
  if (std::getenv("GPUSS_TEST_FREE_SHADOWED")) {
    EXPECT_FALSE(release_hooks::active()) << "the preloaded free() did not come first";
    return;
  }
#ifdef GPUSS_TEST_SANITIZER
  EXPECT_FALSE(release_hooks::active())
      << "the " GPUSS_TEST_SANITIZER " sanitizer's free() should come first";
#else
  EXPECT_TRUE(release_hooks::active()) << "libgpuss's free() is not reached in a plain build";
#endif
}

} // namespace
} // namespace gpuss
