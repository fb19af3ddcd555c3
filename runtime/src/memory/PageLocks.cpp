#include "memory/PageLocks.hpp"
#include "memory/HostReleaseHooks.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iterator>
#include <sys/mman.h>
#include <unistd.h>

namespace gpuss {

namespace {

// [lo, hi): the whole pages that hold [address, address + bytes).
std::pair<std::uintptr_t, std::uintptr_t> pages(const void *address, std::size_t bytes) {
  static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  std::uintptr_t start = reinterpret_cast<std::uintptr_t>(address);
  std::uintptr_t end = bytes > UINTPTR_MAX - start ? UINTPTR_MAX : start + bytes;
  std::uintptr_t hi =
      end > UINTPTR_MAX - (page - 1) ? UINTPTR_MAX / page * page : (end + page - 1) / page * page;
  return {start / page * page, hi};
}

std::uintptr_t end_of(const std::pair<const std::uintptr_t, std::uintptr_t> &range) {
  return range.second;
}
template <typename Lock> std::uintptr_t end_of(const std::pair<const std::uintptr_t, Lock> &lock) {
  return lock.second.end;
}

// The first entry of `ranges` (disjoint, by start) that ends after `at`: the
// one holding `at`, else the next one (end() if none).
template <typename Map> auto first_ending_after(Map &ranges, std::uintptr_t at) {
  auto it = ranges.upper_bound(at);
  if (it != ranges.begin() && end_of(*std::prev(it)) > at) --it;
  return it;
}

// Adds [lo, hi) to disjoint `ranges`, merging what it overlaps or touches.
// On the master's submit path: a range already there, or one that grows an
// existing range at its end (blocks named in address order), allocates
// nothing.
void add_merged(std::map<std::uintptr_t, std::uintptr_t> &ranges, std::uintptr_t lo, std::uintptr_t hi) {
  auto it = ranges.upper_bound(lo);
  if (it != ranges.begin() && std::prev(it)->second >= lo) --it;
  if (it != ranges.end() && it->first <= lo) {
    if (it->second >= hi) return;
    for (auto next = std::next(it); next != ranges.end() && next->first <= hi; next = ranges.erase(next))
      hi = std::max(hi, next->second);
    it->second = hi;
    return;
  }
  while (it != ranges.end() && it->first <= hi) {
    lo = std::min(lo, it->first);
    hi = std::max(hi, it->second);
    it = ranges.erase(it);
  }
  ranges.emplace(lo, hi);
}

// Removes [lo, hi) from disjoint `ranges`, keeping what lies outside it.
void erase_range(std::map<std::uintptr_t, std::uintptr_t> &ranges, std::uintptr_t lo, std::uintptr_t hi) {
  auto it = first_ending_after(ranges, lo);
  while (it != ranges.end() && it->first < hi) {
    auto [start, end] = *it;
    it = ranges.erase(it);
    if (start < lo) ranges.emplace(start, lo);
    if (end > hi) it = ranges.emplace(hi, end).first;
  }
}

} // namespace

// Every entry point exempts its thread from the free() hook: PageLocks frees
// memory of its own while it holds its mutex, and the hook would come back
// here for it.
using Exempt = release_hooks::Exemption;

PageLocks::PageLocks(std::unique_ptr<PageLocker> locker) : locker_(std::move(locker)) {}

PageLocks::~PageLocks() {
  Exempt exempt;
  for (auto &[start, lock] : locks_)
    locker_->unlock(reinterpret_cast<void *>(start));
}

void PageLocks::ensure(const void *address, std::size_t bytes) {
  Exempt exempt;
  if (bytes == 0) return;
  auto [lo, hi] = pages(address, bytes);
  std::uintptr_t first = reinterpret_cast<std::uintptr_t>(address);
  release_hooks::watch(first, first + bytes);
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> claimed;
  {
    std::unique_lock held(mutex_);
    add_merged(named_, first, first + bytes);
    // Pages a pageable copy is using are locked once it is done with them.
    released_.wait(held, [&] { return !copying_pageable(lo, hi); });
    for (std::uintptr_t at = lo; at < hi;) {
      // The first range locked, being locked or closing that ends after `at`.
      std::pair<std::uintptr_t, std::uintptr_t> covered{UINTPTR_MAX, UINTPTR_MAX};
      auto consider = [&](std::uintptr_t start, std::uintptr_t end) {
        if (start < covered.first) covered = {start, end};
      };
      if (auto it = first_ending_after(locks_, at); it != locks_.end()) consider(it->first, it->second.end);
      if (auto it = first_ending_after(closing_, at); it != closing_.end())
        consider(it->first, it->second.end);
      if (auto it = first_ending_after(pending_, at); it != pending_.end()) consider(it->first, it->second);
      if (covered.first <= at) {
        at = covered.second;
        continue;
      }
      // CUDA refuses registrations that overlap earlier ones: only gaps.
      std::uintptr_t gap_end = std::min(hi, covered.first);
      claimed.emplace_back(at, gap_end);
      pending_.emplace(at, gap_end);
      at = gap_end;
    }
  }
  if (claimed.empty()) return;
  std::vector<bool> locked;
  const auto started = std::chrono::steady_clock::now();
  std::uint64_t bytes_locked = 0;
  for (auto [start, end] : claimed) {
    locked.push_back(locker_->lock(reinterpret_cast<void *>(start), end - start));
    if (locked.back()) bytes_locked += end - start;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < claimed.size(); ++i) {
      pending_.erase(claimed[i].first);
      if (locked[i]) locks_.emplace(claimed[i].first, Lock{claimed[i].second, 0});
    }
    totals_.bytes += bytes_locked;
    totals_.seconds += seconds;
  }
  released_.notify_all(); // forget() and ensure_now() wait for pending locks
}

void PageLocks::ensure_now(const void *address, std::size_t bytes) {
  ensure(address, bytes);
  Exempt exempt;
  if (bytes == 0) return;
  auto [lo, hi] = pages(address, bytes);
  std::unique_lock held(mutex_);
  released_.wait(held, [&] { return !being_locked(lo, hi); });
}

bool PageLocks::being_locked(std::uintptr_t lo, std::uintptr_t hi) const {
  auto it = first_ending_after(pending_, lo);
  return it != pending_.end() && it->first < hi;
}

bool PageLocks::copying_pageable(std::uintptr_t lo, std::uintptr_t hi) const {
  return std::any_of(pageable_.begin(), pageable_.end(),
                     [&](const auto &range) { return range.first < hi && range.second > lo; });
}

bool PageLocks::locked(const void *address, std::size_t bytes) const {
  Exempt exempt;
  auto [lo, hi] = pages(address, bytes);
  std::lock_guard lock(mutex_);
  for (std::uintptr_t at = lo; at < hi;) {
    auto it = first_ending_after(locks_, at);
    if (it == locks_.end() || it->first > at) return false;
    at = it->second.end;
  }
  return true;
}

PageLocks::Totals PageLocks::totals() const {
  Exempt exempt;
  std::lock_guard lock(mutex_);
  return totals_;
}

void PageLocks::forget(const void *address, std::size_t bytes) {
  Exempt exempt;
  if (bytes == 0) return;
  auto [lo, hi] = pages(address, bytes);
  std::unique_lock held(mutex_);
  // A lock another thread is making over these pages is waited for, so that
  // it is undone too.
  released_.wait(held, [&] {
    auto it = first_ending_after(pending_, lo);
    return it == pending_.end() || it->first >= hi;
  });
  Locks doomed;
  erase_range(named_, lo, hi);
  staged_.erase(staged_.lower_bound(lo), staged_.lower_bound(hi));
  for (auto it = first_ending_after(locks_, lo); it != locks_.end() && it->first < hi;) {
    erase_range(named_, it->first, it->second.end);
    auto next = std::next(it);
    doomed.insert(locks_.extract(it));
    it = next;
  }
  unlock_when_unleased(held, doomed);
  // Another thread may be closing a lock over these pages: the memory may
  // go back to the system only once that lock is undone too.
  released_.wait(held, [&] {
    auto it = first_ending_after(closing_, lo);
    return it == closing_.end() || it->first >= hi;
  });
}

unsigned PageLocks::count_staged(const void *address, std::size_t bytes) {
  Exempt exempt;
  std::lock_guard lock(mutex_);
  const auto start = reinterpret_cast<std::uintptr_t>(address);
  Staged &staged = staged_[start];
  // The same first byte with another extent is other data (memory reused
  // in another shape): counted afresh.
  if (staged.end != start + bytes) staged = Staged{start + bytes, 0};
  return ++staged.copies;
}

void PageLocks::forget_all() {
  Exempt exempt;
  std::unique_lock held(mutex_);
  released_.wait(held, [&] { return pending_.empty(); });
  Locks doomed;
  doomed.swap(locks_);
  named_.clear();
  staged_.clear();
  unlock_when_unleased(held, doomed);
  released_.wait(held, [&] { return closing_.empty(); });
}

void PageLocks::unlock_when_unleased(std::unique_lock<std::mutex> &held, Locks &doomed) {
  if (doomed.empty()) return;
  // Closing locks still count as locked for ensure() (CUDA would refuse to
  // lock their pages again) but take no new leases: copies through them
  // from now on run pageable.
  std::vector<std::uintptr_t> starts;
  for (auto &entry : doomed)
    starts.push_back(entry.first);
  closing_.merge(doomed);
  released_.wait(held, [&] {
    return std::all_of(starts.begin(), starts.end(),
                       [&](std::uintptr_t start) { return closing_.at(start).leases == 0; });
  });
  held.unlock();
  for (std::uintptr_t start : starts)
    locker_->unlock(reinterpret_cast<void *>(start));
  held.lock();
  for (std::uintptr_t start : starts)
    closing_.erase(start);
  released_.notify_all(); // forgetters of overlapping pages wait for these to close
}

bool PageLocks::named(const void *address, std::size_t bytes) const {
  Exempt exempt;
  std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(address);
  std::uintptr_t hi = bytes > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + bytes;
  std::lock_guard lock(mutex_);
  auto it = first_ending_after(named_, lo);
  return it != named_.end() && it->first < hi;
}

template <typename Visit> void PageLocks::cut_at_locks(std::uintptr_t lo, std::uintptr_t hi, Visit visit) {
  for (std::uintptr_t at = lo; at < hi;) {
    auto it = first_ending_after(locks_, at);
    const bool in_lock = it != locks_.end() && it->first <= at;
    // Up to the end of the lock holding `at`, or unlocked up to the next one.
    const std::uintptr_t end = in_lock              ? std::min(hi, it->second.end)
                               : it == locks_.end() ? hi
                                                    : std::min(hi, it->first);
    visit(at, end, in_lock ? it : locks_.end());
    at = end;
  }
}

std::vector<PageLocks::Piece> PageLocks::pieces(const void *address, std::size_t bytes, Leases &leases) {
  Exempt exempt;
  std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(address), hi = lo + bytes;
  std::vector<Piece> result;
  std::lock_guard lock(mutex_);
  cut_at_locks(lo, hi, [&](std::uintptr_t at, std::uintptr_t end, Locks::iterator lock) {
    if (lock != locks_.end()) { // this copy now leases it
      ++lock->second.leases;
      leases.push_back(lock->first);
    }
    result.push_back(Piece{at - lo, end - at});
  });
  return result;
}

std::vector<PageLocks::Piece> PageLocks::pieces_pageable(const void *address, std::size_t bytes, Leases &leases,
                                                          PageableClaim &claim) {
  Exempt exempt;
  std::vector<Piece> result;
  if (bytes == 0) return result;
  const auto [lo, hi] = pages(address, bytes);
  // Held from the wait to the claim: no lock can start over these pages in
  // between, and none starts after it until end_pageable (ensure waits).
  std::unique_lock held(mutex_);
  released_.wait(held, [&] { return !being_locked(lo, hi); });
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(address);
  cut_at_locks(first, first + bytes, [&](std::uintptr_t at, std::uintptr_t end, Locks::iterator lock) {
    if (lock != locks_.end()) {
      ++lock->second.leases;
      leases.push_back(lock->first);
    } else {
      const auto [piece_lo, piece_hi] = pages(reinterpret_cast<const void *>(at), end - at);
      claim.pages.emplace_back(piece_lo, piece_hi);
      pageable_.emplace_back(piece_lo, piece_hi);
    }
    result.push_back(Piece{at - first, end - at});
  });
  return result;
}

void PageLocks::end_pageable(PageableClaim &claim) {
  Exempt exempt;
  if (claim.pages.empty()) return;
  {
    std::lock_guard lock(mutex_);
    for (const auto &range : claim.pages)
      pageable_.erase(std::find(pageable_.begin(), pageable_.end(), range));
  }
  claim.pages.clear();
  released_.notify_all(); // ensure() waits for pageable copies over the pages it would lock
}

std::vector<PageLocks::RowPiece> PageLocks::row_pieces(const void *address, std::size_t row_bytes,
                                                       std::size_t rows, std::size_t stride, Leases &leases) {
  Exempt exempt;
  std::vector<RowPiece> result;
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(address);
  std::vector<std::uintptr_t> leased; // locks leased by this call (few: a span crosses a handful)
  auto lease = [&](Locks::iterator lock) {
    if (std::find(leased.begin(), leased.end(), lock->first) != leased.end()) return;
    ++lock->second.leases;
    leased.push_back(lock->first);
    leases.push_back(lock->first);
  };
  std::lock_guard held(mutex_);
  for (std::size_t row = 0; row < rows;) {
    const std::uintptr_t lo = base + row * stride, hi = lo + row_bytes;
    auto it = first_ending_after(locks_, lo);
    const bool in_lock = it != locks_.end() && it->first <= lo;
    // How far the row's kind (in this lock, or unlocked) lasts.
    const std::uintptr_t limit = in_lock ? it->second.end : it == locks_.end() ? UINTPTR_MAX : it->first;
    if (hi > limit) {
      // The row crosses a lock boundary: cut it as pieces() cuts a range.
      cut_at_locks(lo, hi, [&](std::uintptr_t at, std::uintptr_t end, Locks::iterator lock) {
        if (lock != locks_.end()) lease(lock);
        result.push_back(RowPiece{at - base, end - at, 1});
      });
      ++row;
      continue;
    }
    // Rows row .. row + run - 1 all end by `limit` (rows only move up).
    const std::size_t fit = limit == UINTPTR_MAX || stride == 0 ? rows - row : (limit - hi) / stride + 1;
    const std::size_t run = std::min(rows - row, fit);
    if (in_lock) lease(it);
    result.push_back(RowPiece{lo - base, row_bytes, run});
    row += run;
  }
  return result;
}

void PageLocks::release(Leases &leases) {
  Exempt exempt;
  if (leases.empty()) return;
  bool closing = false;
  {
    std::lock_guard lock(mutex_);
    for (std::uintptr_t start : leases) {
      if (auto it = locks_.find(start); it != locks_.end()) {
        --it->second.leases;
      } else {
        --closing_.at(start).leases;
        closing = true;
      }
    }
  }
  leases.clear();
  if (closing) released_.notify_all();
}

std::size_t PageLocks::locked_bytes() const {
  Exempt exempt;
  std::lock_guard lock(mutex_);
  std::size_t bytes = 0;
  for (const Locks *locks : {&locks_, &closing_})
    for (const auto &[start, lock] : *locks)
      bytes += lock.end - start;
  return bytes;
}

} // namespace gpuss
