// PinService: page-locks user memory ahead of the copies that need it, on
// threads of its own.
//
// A GPU copies page-locked host memory about eight times faster than
// pageable memory, but locking costs too (cudaHostRegister: 5 to 26 GB/s
// depending on the node, docs/performance.md), and a user's first run finds
// nothing locked. Locked on the master at submit, 10 GB of matrix kept the
// master, and with it every GPU, waiting for 0.4 s before the first task;
// locked by a GPU worker at its first copy, each block stalled that GPU's
// fetches. Here the master only says what it will need and when (want:
// never blocks), and the service's threads lock in that order: submission
// order, then, once a barrier has ranked the graph, the order in which the
// ranked tasks will read their data (reorder). A worker about to copy a
// range that is not locked yet locks it itself, or waits for the service's
// lock of it if one has started (PageLocks::ensure_now), so a copy never
// waits for the queue.
//
// The master calls want, reorder, cancel and clear; the service's threads
// take from the queue; everything else goes through PageLocks, which is
// thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace gpuss {

class PageLocks;

class PinService {
public:
  // `threads`: how many lock at once (cudaHostRegister scales to about two
  // threads: 19 GB/s from one, 26 from two, no gain beyond; pinning.cu).
  PinService(PageLocks &locks, unsigned threads);
  ~PinService(); // drops what is still queued, joins the threads
  PinService(const PinService &) = delete;
  PinService &operator=(const PinService &) = delete;

  // Master thread. [address, address + bytes) will be copied to or from a
  // GPU by a task expected to run at `order` (smaller: sooner).
  void want(const void *address, std::size_t bytes, std::int64_t order);
  // Master thread, at a barrier: the ranked tasks will read these ranges in
  // this order, ahead of everything queued so far.
  struct Range {
    const void *address;
    std::size_t bytes;
  };
  void reorder(const std::vector<Range> &first_needed_first);
  // Master thread: this memory is being released. What is queued of it is
  // dropped, and a lock of it a service thread has taken from the queue is
  // waited for, so that after this no service thread locks it (a lock made
  // after the memory went back to the system would outlive it: PageLocks.hpp).
  void cancel(const void *address, std::size_t bytes);
  // Master thread: every lock is about to be undone (CSS_PIN_HOST=barrier).
  void clear();

private:
  struct Wanted {
    std::int64_t order;
    std::uint64_t sequence; // FIFO among equal orders
    std::uintptr_t start;
    std::size_t bytes;
    bool operator>(const Wanted &other) const {
      return order != other.order ? order > other.order : sequence > other.sequence;
    }
  };
  void run();

  PageLocks &locks_;
  std::mutex mutex_;
  std::condition_variable wanted_;   // the queue has work, or the service stops
  std::condition_variable finished_; // a service thread finished a lock (cancel waits for it)
  std::vector<Wanted> queue_;        // a min-heap (std::greater), guarded by mutex_
  std::uint64_t next_sequence_ = 0;  // guarded by mutex_
  std::int64_t next_barrier_order_ = -1; // reorder's keys: each barrier's come before the last one's
  bool stopping_ = false;            // guarded by mutex_
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> locking_; // taken from the queue, being locked
  std::vector<std::jthread> threads_;
};

} // namespace gpuss
