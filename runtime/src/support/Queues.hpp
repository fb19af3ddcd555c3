// The named queues through which the runtime's threads talk, and the
// doorbell a sleeping consumer waits on.
//
//   ready queue      master -> helper       tasks whose predecessors are done
//   completion queue workers -> helper      finished tasks and transfers
//   retire queue     any thread -> helper   storage no task or region uses any more
//   request queue    master -> helper       flushes for barrier and wait on
//   inboxes          helper -> workers      staged tasks and transfer commands
//
// They are plain queues behind a SpinLock: each operation is a few dozen
// instructions, and the lock gives the happens-before edges the data handed
// over needs.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuss {

// A cache line on the machines GPUSs runs on (x86-64, and Grace's Neoverse
// V2). Atomics that several threads write often get one of their own, so
// that a write to one does not take the line from threads using another
// (std::hardware_destructive_interference_size would do, but GCC warns that
// its value may change between compilers).
inline constexpr std::size_t cache_line = 64;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// A lock for critical sections of a few dozen instructions, where a
// sleeping mutex costs more in futex calls than it saves: test and
// test-and-set, yielding the core if the holder seems to be descheduled.
class SpinLock {
public:
  void lock() {
    for (unsigned spins = 0;; ++spins) {
      // acquire: the critical section sees what the previous holder wrote.
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins % 128 == 0)
          std::this_thread::yield();
        else
          cpu_relax();
      }
    }
  }
  bool try_lock() {
    return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire);
  }
  // release: publishes the critical section to the next holder.
  void unlock() { locked_.store(false, std::memory_order_release); }

private:
  std::atomic<bool> locked_{false};
};

// A doorbell: consumers take a ticket (prepare), check their queues, and
// sleep only if the ticket is unchanged (wait); producers ring (notify).
// A ring between prepare and wait makes wait return at once, so no wake-up
// is lost. A ring wakes the kernel only when this doorbell has a sleeper:
// the C++ library's notify_all makes a system call whenever any atomic that
// shares its waiter table slot has one, which cost a futex call per task.
class alignas(cache_line) WakeSignal {
public:
  std::uint32_t prepare() const {
    // acquire: everything published before the ring that changed the ticket
    // is visible to the consumer's subsequent queue checks.
    return epoch_.load(std::memory_order_acquire);
  }

  // Any thread. Spins briefly (hand-offs between busy threads are then a
  // fraction of a microsecond), then sleeps in the kernel.
  void wait(std::uint32_t ticket, unsigned spin_rounds) const {
    for (unsigned i = 0; i < spin_rounds; ++i) {
      if (epoch_.load(std::memory_order_acquire) != ticket) return;
      if (i % 64 == 63)
        std::this_thread::yield();
      else
        cpu_relax();
    }
    // seq_cst with notify's: either the ring sees this sleeper, or this
    // check sees the ring (no lost wake-up).
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    if (epoch_.load(std::memory_order_seq_cst) == ticket) epoch_.wait(ticket, std::memory_order_acquire);
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }

  // Any thread. The ring publishes the producer's queue push.
  void notify() {
    epoch_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) != 0) epoch_.notify_all();
  }

private:
  mutable std::atomic<std::uint32_t> epoch_{0};
  mutable std::atomic<std::uint32_t> sleepers_{0}; // consumers in (or entering) the kernel wait
};

// Many producers, one consumer that takes everything at once.
template <typename T> class alignas(cache_line) BatchQueue {
public:
  // Any thread.
  void push(T item) {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(item));
  }
  // The consumer thread. Swaps the whole content out in O(1).
  std::vector<T> drain() {
    std::vector<T> taken;
    std::lock_guard lock(mutex_);
    taken.swap(items_);
    return taken;
  }
  bool empty() const {
    std::lock_guard lock(mutex_);
    return items_.empty();
  }

private:
  mutable SpinLock mutex_;
  std::vector<T> items_;
};

// Producers: the helper, and for host workers the workers that create or
// release child tasks; one or many consumers (the workers of a pool).
template <typename T> class Inbox {
public:
  void push(T item) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(item));
    }
    signal_.notify();
  }
  // Ahead of everything waiting: the next pop takes it.
  void push_front(T item) {
    {
      std::lock_guard lock(mutex_);
      items_.push_front(std::move(item));
    }
    signal_.notify();
  }
  bool try_pop(T &out) {
    std::lock_guard lock(mutex_);
    if (items_.empty()) return false;
    out = std::move(items_.front());
    items_.pop_front();
    return true;
  }
  // Like push, but ahead of every item that `behind` says may wait for it
  // (and after those it does not).
  template <typename Pred> void push_ahead(T item, Pred behind) {
    {
      std::lock_guard lock(mutex_);
      auto it = std::find_if(items_.begin(), items_.end(), behind);
      items_.insert(it, std::move(item));
    }
    signal_.notify();
  }
  // The producer takes back the most recent item that satisfies `pred` and
  // that no consumer has taken yet.
  template <typename Pred> bool take_back(T &out, Pred pred) {
    std::lock_guard lock(mutex_);
    for (auto it = items_.rbegin(); it != items_.rend(); ++it)
      if (pred(*it)) {
        out = std::move(*it);
        items_.erase(std::next(it).base());
        return true;
      }
    return false;
  }
  // Blocks until an item arrives or `stop` becomes true. False when stopped.
  bool pop(T &out, const std::atomic<bool> &stop, unsigned spin_rounds) {
    for (;;) {
      std::uint32_t ticket = signal_.prepare();
      if (try_pop(out)) return true;
      if (stop.load(std::memory_order_acquire)) return false;
      signal_.wait(ticket, spin_rounds);
    }
  }
  void wake_all() { signal_.notify(); }
  std::uint32_t prepare() const { return signal_.prepare(); }
  void wait(std::uint32_t ticket, unsigned spin_rounds) const { signal_.wait(ticket, spin_rounds); }

private:
  SpinLock mutex_;
  std::deque<T> items_;
  WakeSignal signal_;
};

} // namespace gpuss
