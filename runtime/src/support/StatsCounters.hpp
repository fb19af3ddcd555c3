// Stats: the live counters behind StatsSnapshot. Relaxed atomics: each
// counter is independent and only read for reporting. Any thread adds;
// the master takes snapshots.
#pragma once

#include "support/Queues.hpp"
#include "support/Stats.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

namespace gpuss {

struct Stats {
  Stats(std::size_t cpus, std::size_t devices);

  // Counted by every thread that completes a task: a line of its own (the
  // counters after it, mostly the master's and the helper's, start the next).
  alignas(cache_line) std::atomic<std::uint64_t> tasks{0};
  alignas(cache_line) std::atomic<std::uint64_t> renamed{0};
  std::atomic<std::uint64_t> max_ready{0};
  std::atomic<std::uint64_t> bytes_h2d{0};
  std::atomic<std::uint64_t> bytes_d2h{0};
  std::atomic<std::uint64_t> bytes_p2p{0};
  std::atomic<std::uint64_t> bytes_on_device{0}; // alias copies between overlapping objects' copies on a device
  std::atomic<std::uint64_t> splits{
      0}; // containers whose value went to their parts' copies (Directory::split)
  std::atomic<std::uint64_t> cache_hits{0};
  std::atomic<std::uint64_t> cache_misses{0};
  std::atomic<std::uint64_t> evictions{0};
  std::atomic<std::uint64_t> evictions_clean{0};
  std::atomic<std::uint64_t> evictions_dirty{0};
  std::atomic<std::uint64_t> device_peak_bytes{0}; // the helper, when a cache gives out pool memory
  std::atomic<std::uint64_t> bytes_named{0}; // the master, when a region gets its storage
  std::atomic<std::uint64_t> final_write_backs{0};
  std::atomic<std::uint64_t> loads_ahead{0};
  std::atomic<std::uint64_t> link_yields{0};
  std::atomic<std::uint64_t> early_releases{0};
  std::atomic<std::uint64_t> child_tasks{0};  // tasks created inside tasks that ran as tasks
  std::atomic<std::uint64_t> priority_lane_tasks{
      0};                                     // GPU tasks run on a priority lane (CSS_GPU_PRIORITY_LANE)
  std::atomic<std::uint64_t> inline_tasks{0}; // ... and that ran inline, in their parent's body
  std::atomic<std::uint64_t> submit_waits{0}; // the master waited for tasks in flight (CSS_MAX_TASKS)
  // GPU workers at start: page-locking their staging buffers.
  std::atomic<std::uint64_t> staging_alloc_ns{0};
  // The master: the most working sets a barrier's out-of-core ranking made.
  std::atomic<std::uint64_t> working_sets{0};
  // The master: barriers whose graph it ranked in program order (ProgramOrder.hpp).
  std::atomic<std::uint64_t> program_ordered{0};
  // The helper: barriers' ranks it put in force, re-sorting the tasks
  // already waiting on its ready lists (CSS_CRITICAL_PATH).
  std::atomic<std::uint64_t> rankings{0};
  std::atomic<std::uint64_t> timed_rankings{0}; // the helper, weighing a ranking in time (TimedRanks.hpp)
  // Dependency edges made between unfinished tasks: by the master at every
  // submit that has dependencies, on a cache line of its own so that it
  // does not pull the workers' counters above away from them at each edge.
  struct alignas(64) OwnLine {
    std::atomic<std::uint64_t> value{0};
  } edges;
  std::string pin_host = "0"; // set once at start-up, before any snapshot
  // Set once at finish, from PageLocks: what page-locking cost.
  std::uint64_t pinned_bytes = 0;
  double pin_seconds = 0;
  std::uint64_t staged_bytes = 0;
  double stage_seconds = 0;
  unsigned staging_threads = 0;         // set once at start-up (CSS_STAGING_THREADS, or what auto chose)
  unsigned prefetch_depth = 0;          // set once at start-up (CSS_PREFETCH_DEPTH, or what resolve chose)
  std::string unlocked_copies = "lock"; // set once at start-up (CSS_UNLOCKED_COPIES, or what auto chose)
  unsigned pin_threads = 0;             // set once at start-up: the pinning service's threads
  std::vector<std::atomic<std::uint64_t>> cpu_busy_ns;
  std::vector<std::atomic<std::uint64_t>> device_busy_ns;
  std::vector<std::atomic<std::uint64_t>> device_tasks;
  // Per device, so that one device's thrashing shows (the totals above hide it).
  std::vector<std::atomic<std::uint64_t>> device_bytes_in;   // host to this device
  std::vector<std::atomic<std::uint64_t>> device_bytes_out;  // this device to the host
  std::vector<std::atomic<std::uint64_t>> device_bytes_peer; // other devices to this one
  std::vector<std::atomic<std::uint64_t>> device_evictions;  // replicas this device gave up to make room
  std::vector<std::atomic<std::uint64_t>> device_queued_ns;  // the helper: work it believes staged there

  static void add(std::atomic<std::uint64_t> &counter, std::uint64_t value) {
    counter.fetch_add(value, std::memory_order_relaxed);
  }
  static void raise_to(std::atomic<std::uint64_t> &counter, std::uint64_t value) {
    std::uint64_t seen = counter.load(std::memory_order_relaxed);
    while (seen < value && !counter.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
  }
  // Spaces as the directory numbers them: 0 the host, d + 1 device d.
  void count_transfer(int from_space, int to_space, std::uint64_t bytes) {
    if (from_space == to_space) {
      add(bytes_on_device, bytes);
    } else if (from_space == 0) {
      add(bytes_h2d, bytes);
      add_per_device(device_bytes_in, to_space, bytes);
    } else if (to_space == 0) {
      add(bytes_d2h, bytes);
      add_per_device(device_bytes_out, from_space, bytes);
    } else {
      add(bytes_p2p, bytes);
      add_per_device(device_bytes_peer, to_space, bytes);
    }
  }
  void count_eviction(int space, bool dirty) {
    add(evictions, 1);
    add(dirty ? evictions_dirty : evictions_clean, 1);
    add_per_device(device_evictions, space, 1);
  }

  StatsSnapshot snapshot(double wall_seconds) const;

private:
  // A space with no counter of its own (none: every space above the host is
  // a device of this process) would only go uncounted here.
  static void add_per_device(std::vector<std::atomic<std::uint64_t>> &counters, int space, std::uint64_t value) {
    const auto index = static_cast<std::size_t>(space - 1);
    if (space > 0 && index < counters.size()) add(counters[index], value);
  }
};

} // namespace gpuss
