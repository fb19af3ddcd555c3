#include "memory/PinService.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "memory/PageLocks.hpp"

#include <algorithm>
#include <functional>

namespace gpuss {

namespace {

// Locks are taken in pieces of at most this many bytes, so that two threads
// share a large range and a worker waiting for part of it waits for little.
constexpr std::size_t piece_bytes = std::size_t{64} << 20;

// Ranks below this are a barrier's (reorder); submission orders are task ids.
constexpr std::int64_t barrier_span = std::int64_t{1} << 40;

} // namespace

PinService::PinService(PageLocks &locks, unsigned threads) : locks_(locks) {
  for (unsigned i = 0; i < threads; ++i)
    threads_.emplace_back([this] { run(); });
}

PinService::~PinService() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  wanted_.notify_all();
  threads_.clear(); // joins
}

void PinService::want(const void *address, std::size_t bytes, std::int64_t order) {
  if (bytes == 0) return;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Wanted{order, next_sequence_++, reinterpret_cast<std::uintptr_t>(address), bytes});
    std::push_heap(queue_.begin(), queue_.end(), std::greater<>{});
  }
  wanted_.notify_one();
}

void PinService::reorder(const std::vector<Range> &first_needed_first) {
  if (first_needed_first.empty()) return;
  {
    std::lock_guard lock(mutex_);
    // Below every submission order and every earlier barrier's.
    const std::int64_t base = next_barrier_order_ * barrier_span;
    --next_barrier_order_;
    std::int64_t order = base;
    for (const Range &range : first_needed_first)
      queue_.push_back(
          Wanted{order++, next_sequence_++, reinterpret_cast<std::uintptr_t>(range.address), range.bytes});
    std::make_heap(queue_.begin(), queue_.end(), std::greater<>{});
  }
  wanted_.notify_all();
}

void PinService::cancel(const void *address, std::size_t bytes) {
  const std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(address), hi = lo + bytes;
  std::unique_lock lock(mutex_);
  const std::size_t before = queue_.size();
  std::erase_if(queue_, [&](const Wanted &w) { return w.start < hi && lo < w.start + w.bytes; });
  if (queue_.size() != before) std::make_heap(queue_.begin(), queue_.end(), std::greater<>{});
  finished_.wait(lock, [&] {
    return std::none_of(locking_.begin(), locking_.end(),
                        [&](const auto &range) { return range.first < hi && lo < range.second; });
  });
}

void PinService::clear() {
  std::lock_guard lock(mutex_);
  queue_.clear();
}

void PinService::run() {
  // A runtime thread: what it frees is the runtime's own (HostReleaseHooks.hpp).
  release_hooks::Exemption exempt;
  for (;;) {
    Wanted next;
    {
      std::unique_lock lock(mutex_);
      wanted_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      std::pop_heap(queue_.begin(), queue_.end(), std::greater<>{});
      next = queue_.back();
      queue_.pop_back();
      // The rest of a large range goes back, still first, for another thread.
      if (next.bytes > piece_bytes) {
        queue_.push_back(Wanted{next.order, next.sequence, next.start + piece_bytes, next.bytes - piece_bytes});
        std::push_heap(queue_.begin(), queue_.end(), std::greater<>{});
        next.bytes = piece_bytes;
        wanted_.notify_one();
      }
      locking_.emplace_back(next.start, next.start + next.bytes);
    }
    // Already locked, or being locked by a worker: ensure skips it.
    locks_.ensure(reinterpret_cast<const void *>(next.start), next.bytes);
    {
      std::lock_guard lock(mutex_);
      // One entry: two threads may lock the same range, wanted twice.
      locking_.erase(std::find(locking_.begin(), locking_.end(), std::pair{next.start, next.start + next.bytes}));
    }
    finished_.notify_all();
  }
}

} // namespace gpuss
