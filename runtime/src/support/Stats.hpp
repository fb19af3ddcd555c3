// Stats: counters the runtime keeps for CSS_STATS and for tests.
//
// StatsSnapshot is a copy taken by the master (Runtime::stats, finish);
// the live counters are StatsCounters.hpp's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuss {

struct StatsSnapshot {
  std::uint64_t tasks = 0;
  std::uint64_t renamed = 0;
  std::uint64_t max_ready = 0;
  std::uint64_t bytes_h2d = 0;
  std::uint64_t bytes_d2h = 0;
  std::uint64_t bytes_p2p = 0;
  std::uint64_t bytes_on_device = 0; // copied within one device between overlapping objects (CSS_DEVICE_ALIASES)
  // containers newer on a device whose value went to the copies of the objects inside them
  std::uint64_t splits = 0;
  std::uint64_t cache_hits = 0;
  std::uint64_t cache_misses = 0;
  std::uint64_t evictions = 0;       // replicas given up to make room: evictions_clean + evictions_dirty
  std::uint64_t evictions_clean = 0; // ... whose value the host also held: dropped at once
  std::uint64_t evictions_dirty = 0; // ... that held the only current value: written back first
  std::uint64_t device_peak_bytes = 0; // the most pool memory one device's cache had given out at once
  std::uint64_t bytes_named = 0;     // bytes of the distinct regions tasks named (each counted once until a
                                     // release forgets it); css-stats prints h2d_per_data = bytes_h2d / this
  std::uint64_t final_write_backs = 0; // started by a barrier before its last task finished
  std::uint64_t loads_ahead = 0;       // host-to-device copies made before any task asked (CSS_LOAD_AHEAD)
  std::uint64_t link_yields = 0;       // tasks held back for loads ahead of higher rank (CSS_RANKED_FETCHES)
  std::uint64_t early_releases = 0;    // frees of memory used since the last barrier, which first settled it
  std::uint64_t child_tasks = 0;       // tasks created inside task bodies that ran as tasks (counted in tasks)
  std::uint64_t priority_lane_tasks = 0; // GPU tasks run on a priority lane (CSS_GPU_PRIORITY_LANE)
  std::uint64_t inline_tasks = 0;      // tasks created inside task bodies that ran inline (not in tasks)
  std::uint64_t submit_waits = 0;      // times the master waited because CSS_MAX_TASKS tasks were in flight
  std::uint64_t edges = 0;             // dependency edges made between unfinished tasks (copy-backs included)
  std::string pin_host = "0"; // how long user memory stays page-locked, as CSS_PIN_HOST: 1, barrier or 0
  std::uint64_t pinned_bytes = 0; // bytes page-locked (at finish)
  double pin_seconds = 0;         // time spent page-locking them, over all threads that did
  std::uint64_t staged_bytes = 0; // bytes copied through staging buffers (both ways), by the copy threads
  double stage_seconds = 0;       // the copy threads' time doing it, summed over them
  std::uint64_t working_sets = 0; // the most working sets a barrier ranked an out-of-core graph by (0: none)
  std::uint64_t program_ordered = 0; // barriers whose graph was ranked in program order (CSS_PROGRAM_ORDER)
  std::uint64_t rankings = 0;        // barriers whose ranks the scheduler put in force (CSS_CRITICAL_PATH)
  std::uint64_t timed_rankings = 0;  // times those ranks were weighed again by learned durations (CSS_RANK_BY_TIME)
  double staging_alloc_seconds = 0; // GPU workers' time allocating their staging buffers at start, summed
  unsigned staging_threads = 0;   // copy threads staging (CSS_STAGING_THREADS, or what auto chose)
  unsigned prefetch_depth = 0;    // tasks staged ahead on each device (CSS_PREFETCH_DEPTH, or as resolved)
  std::string unlocked_copies = "lock"; // how memory not locked yet is copied (CSS_UNLOCKED_COPIES, resolved)
  unsigned pin_threads = 0;             // the pinning service's threads (CSS_PIN_THREADS, resolved)
  double wall_seconds = 0;
  std::vector<double> cpu_busy_seconds;    // one per host worker
  std::vector<double> device_busy_seconds; // one per GPU or simulated device
  std::vector<std::uint64_t> device_tasks; // tasks run by each device
  std::vector<std::uint64_t> device_bytes_in;   // per device: bytes from the host,
  std::vector<std::uint64_t> device_bytes_out;  // ... to the host,
  std::vector<std::uint64_t> device_bytes_peer; // ... from other devices,
  std::vector<std::uint64_t> device_evictions;  // ... and replicas it gave up to make room
  // Per device: the work the scheduler counts as staged there (estimated
  // seconds; placement compares them). 0 once the device has nothing staged,
  // as after a barrier. Not printed: for tests and tools.
  std::vector<double> device_queued_seconds;

  // "css-stats: tasks=... renamed=..." (one line, no newline).
  std::string format_line() const;
};

} // namespace gpuss
