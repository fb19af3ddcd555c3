// NestedTasks: tasks created inside a running task (OmpSs-2 nesting).
//
// A task function called inside a task body is a child of the running task.
// With CSS_NESTED=tasks (the default) a child of a task that runs on a host
// worker is a task of its own: it is ordered after its earlier siblings by
// their regions (each parent has its own dependency domain, ChildDomain),
// it runs on the host workers, and the parent completes only when all its
// children have (an implicit wait at the end of its body). A `barrier` or
// `wait on` inside a body waits for the body's children. A waiting worker
// runs other ready tasks meanwhile (CpuWorkers::help_until), so recursion
// deeper than the workers does not hang.
//
// A child runs inline, at once on the thread that calls it, with the
// parent's own pointers (the GPU Superscalar paper's rule), with
// CSS_NESTED=inline, when the parent is final (CSS_TASK_FINAL: a
// recursion's cut-off), when the parent runs on a device (its data is device
// memory there), and when there are no host workers.
//
// A child's regions must lie within its parent's data or the parent body's
// local variables: anything else might be used by tasks outside the parent,
// which are not ordered with the child (an error naming both tasks).
//
// Threads: submit and wait_for_children run on the thread of the body that
// calls them (a host worker, or a device worker inline); child_done on the
// host worker that ran the child. Each ChildDomain is filled only by its
// parent's body, on one thread; completions touch only its task graph,
// which is thread-safe, and the parent's atomic count of children.
#pragma once

#include "support/Config.hpp"
#include "graph/DependencyTracker.hpp"
#include "graph/Renaming.hpp"
#include "graph/Region.hpp"
#include "graph/Task.hpp"

#include <atomic>
#include <span>
#include <vector>

namespace gpuss {

struct Stats;
class CpuWorkers;
class NestedTasks;

// The children of one running task, with their own dependency graph.
struct ChildDomain {
  explicit ChildDomain(Stats &stats);
  TaskGraph graph{false};
  RenameBudget no_renaming{0};
  ObjectStore objects; // storage objects of the children's regions, freed directly (no directory)
  DependencyTracker tracker;
};

// The task whose body runs on this thread, for the calls the body makes.
struct RunningTask {
  Task *task = nullptr;
  const std::vector<void *> *addresses = nullptr; // where the body finds each access
  NestedTasks *nested = nullptr;
  bool on_host_worker = false; // its children may be tasks; elsewhere they run inline
  unsigned worker = 0;         // the host worker's index
};

// Sets the thread's running task for the life of a body, and restores the
// one before (a worker that waits for children runs other bodies inside).
class RunningScope {
public:
  explicit RunningScope(const RunningTask &running);
  ~RunningScope();
  RunningScope(const RunningScope &) = delete;
  RunningScope &operator=(const RunningScope &) = delete;

private:
  RunningTask running_;
  RunningTask *previous_;
};

// Null outside a task body.
RunningTask *running_task();

class NestedTasks {
public:
  NestedTasks(const Config &config, Stats &stats)
      : inline_only_(config.nested_inline), check_regions_(config.check_regions), stats_(stats) {}

  // Master thread, before any task runs.
  void attach(CpuWorkers *workers) { workers_ = workers; }

  // A task called inside the body of `running`.
  void submit(RunningTask &running, const css_task_desc &desc);
  // A barrier or wait on inside the body of `running`: its children finish.
  void wait_for_children(RunningTask &running);
  // css_wait_written inside the body: its children finish where one of
  // them wrote any byte of `regions` (nothing to wait for otherwise).
  void wait_written(RunningTask &running, std::span<const css_region> regions);
  // A host worker ran `child`, and its own children have finished.
  void child_done(const TaskRef &child);

private:
  void run_inline(const css_task_desc &desc);
  void check_within_parent(const RunningTask &running, const css_task_desc &desc) const;
  // The parent's access `access` as its body sees it.
  static Region parent_region_as_seen(const RunningTask &running, std::size_t access);
  // A child's write to bytes its parent only reads is refused.
  void check_write_allowed(const RunningTask &running, const css_task_desc &desc, const Region &region,
                           std::uint32_t direction) const;

  const bool inline_only_;
  const bool check_regions_; // CSS_CHECK_REGIONS (RegionCheck.hpp)
  Stats &stats_;
  CpuWorkers *workers_ = nullptr;
  std::atomic<std::uint64_t> next_id_{std::uint64_t{1} << 62}; // apart from the master's ids
};

} // namespace gpuss
