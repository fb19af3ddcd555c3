// Master: what the program's thread does in the runtime (paper, section
// 4.1): submit a task (its dependencies, renaming, page-locking its memory,
// waiting while too many are in flight), barrier and wait on (values home),
// releases of task memory (free, realloc, munmap, a local that stops living)
// and unpinning.
//
// Master thread only: the thread that created the Runtime, or one the
// program serialises with it (the C API's lock). A release seen on another
// thread only undoes page locks (before_release). It owns the ranking of
// the graph at barriers (CriticalPath, LoadAheadPlan) and talks to the
// helper through HelperQueues alone.
#pragma once

#include "support/Config.hpp"
#include "master/CriticalPath.hpp"
#include "graph/DependencyTracker.hpp"
#include "devices/Device.hpp"
#include "devices/ExternalTasks.hpp"
#include "scheduling/Helper.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "gpuss.h"

#include <memory>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <thread>
#include <vector>

namespace gpuss {

class PageLocks;
class PinService;
struct Stats;

// The components the master drives, owned by the Runtime.
struct MasterParts {
  const Config &config;
  PageLocks *page_locks; // null without GPUs or with CSS_PIN_HOST=0
  PinService *pin_service; // null without page locks or with CSS_PIN_THREADS=0
  const std::vector<std::unique_ptr<Device>> &devices;
  Stats &stats;
  TaskGraph &graph;
  HelperQueues &queues;
  DependencyTracker &tracker;
  LiveTasks &live_tasks;
  // The devices' caches together (CSS_GPU_MEMORY each): a barrier's graph
  // whose data exceeds it is ranked by working sets (OutOfCoreOrder.hpp).
  std::size_t device_cache_bytes = 0;
  // The trace and the runtime's clock (copied): the master's own track
  // shows when it submitted and ranked, against what the devices did.
  const WorkerContext *context = nullptr;
};

class Master final : public release_hooks::Listener {
public:
  explicit Master(MasterParts parts);

  void submit(const css_task_desc &desc);
  // A task whose work `executor` does instead of a worker (ExternalTasks.hpp:
  // the MPI layer's transfers), ordered by its regions like any other.
  void submit_external(const css_task_desc &desc, ExternalExecutor &executor);
  void barrier();
  void wait_on(std::span<const css_region> regions, const char *file = nullptr, int line = 0);
  // css_wait_written: a wait on for the regions that a task wrote since
  // the last barrier; nothing for the others.
  void wait_written(std::span<const css_region> regions);
  void release(std::span<const css_region> regions);
  // The program locks memory itself (css_pin): locked now, whatever tasks do.
  void pin(const void *address, std::size_t bytes);
  void unpin(const void *address, std::size_t bytes);
  // The program is about to free, realloc or unmap this memory (any thread).
  void before_release(void *address, std::size_t bytes, release_hooks::ReleaseKind kind) override;

  // Set once at start: whether libgpuss sees the program's releases
  // (release_hooks attached to this master). Where it does not, page locks
  // are undone at every barrier and wait on instead.
  void set_releases_watched(bool watched);
  bool unlocks_at_barrier() const { return unlock_at_barrier_; }
  // After the final barrier: later calls do nothing (submits are errors).
  void set_finished() { finished_ = true; }

private:
  void submit_task(const TaskRef &task);
  void enqueue(const TaskRef &task);
  void submit_internal(std::vector<TaskRef> &tasks);
  void validate(const css_task_desc &desc) const;
  // Waits while CSS_MAX_TASKS tasks are in flight.
  void throttle_submission();
  void page_lock_user_memory(const Task &task);
  std::shared_ptr<FlushRequest> request_flush(std::vector<DataObjectRef> objects, bool while_tasks_run);
  static void wait_for(const std::shared_ptr<FlushRequest> &request);
  void wait_for_all();
  void rank_unfinished_tasks();
  // CSS_TRACE: a span on the master's track, from `start` to now.
  void trace_span(const char *name, double start) const;
  bool tracing() const { return context_.trace && context_.trace->enabled(); }
  void settle_before_release(const Region &region);
  // A free that drops task results nobody read or waited for: warned,
  // once per call site of the writing task.
  void warn_unread_results(const Region &region);
  void complete_and_flush(std::vector<TaskRef> &copy_backs, const std::vector<TaskRef> &tasks,
                          std::vector<DataObjectRef> objects);
  std::set<std::pair<std::string, int>> warned_unread_sites_; // warn_unread_results
  bool can_run_smp() const { return config.num_cpus > 0 || config.sim_devices > 0; }

  const Config &config;
  PageLocks *page_locks_;
  PinService *pin_service_;
  const std::vector<std::unique_ptr<Device>> &devices_;
  Stats *stats_;
  TaskGraph &graph_;
  HelperQueues &queues_;
  DependencyTracker &tracker_;
  LiveTasks &live_tasks_;

  const std::thread::id master_ = std::this_thread::get_id();
  const bool ranking_;             // CSS_CRITICAL_PATH with accelerators
  CriticalPath critical_path_;     // ranking only
  const std::size_t device_cache_bytes_;
  WorkerContext context_;          // a copy: its trace is null in tests that build a master alone
  double submitting_since_ = -1;   // the first submission since the last barrier, traced only
  bool unlock_at_barrier_ = false; // page locks are undone at every barrier and wait on
  bool finished_ = false;
};

} // namespace gpuss
