// Task and TaskGraph: the nodes of the task dependency graph and its edges.
//
// The master thread creates tasks and adds edges (TaskGraph::add_edge);
// the helper thread completes them (TaskGraph::complete), which releases
// successors. A task's successor list and `finished` flag are guarded by its
// own mutex, so adding an edge to a task that is completing concurrently is
// safe: either the edge is added before completion (and released by it) or
// the predecessor is seen finished and no edge is needed.
#pragma once

#include "memory/DataObject.hpp"
#include "support/Queues.hpp"
#include "graph/Region.hpp"
#include "support/Trace.hpp"
#include "gpuss.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpuss {

struct Task;
using TaskRef = std::shared_ptr<Task>;
struct ChildDomain;

// One access of a task, bound to the storage that holds the version it uses.
// Accesses that must share storage (AccessGroups.hpp) are bound to one
// object; each then lives at region.base - object->shape.base within it.
struct BoundAccess {
  css_access user;      // as submitted, in user addresses
  Region region;        // normalised user region
  DataObjectRef object; // the storage: user memory, a renamed buffer, or several regions' storage
  bool reads = false;   // needs the current value
  bool writes = false;  // produces a new value
  bool copy_in = true;  // move the value to an accelerator before the task
  bool copy_out = true; // the value it writes must be able to reach the host
};

enum class TaskKind : std::uint8_t {
  User,     // submitted through css_submit
  CopyBack, // internal: moves a renamed version home into user memory
  External  // ordered here, run by an executor (ExternalTasks.hpp: the MPI layer's transfers)
};

class ExternalExecutor;

struct Task {
  std::uint64_t id = 0;
  TaskKind kind = TaskKind::User;
  const char *label = "";
  const char *file = "";
  int line = 0;
  css_task_body body = nullptr;
  // Packed arguments, suitably aligned: inline when small (the common
  // case: a few pointers and scalars), on the heap otherwise.
  std::array<std::max_align_t, 4> inline_args{};
  std::unique_ptr<std::max_align_t[]> heap_args;
  std::vector<BoundAccess> accesses;     // dropped at completion, under edges_mutex (mark_completed)
  std::vector<css_access> user_accesses; // accesses[i].user, contiguous for the body's env
  std::uint32_t device_kind = CSS_DEVICE_SMP;
  bool high_priority = false;
  bool is_final = false;                // CSS_TASK_FINAL: the tasks its body calls run inline (NestedTasks)
  ExternalExecutor *executor = nullptr; // TaskKind::External: who runs it (ExternalTasks.hpp)
  // Longest chain of tasks from this one to the end of the graph, counted
  // when a barrier makes the graph complete (0: not counted).
  std::atomic<std::uint32_t> rank{0};

  // Graph state. `pending` counts unfinished predecessors plus one guard
  // reference the submitter drops once every edge is in place.
  std::atomic<std::uint32_t> pending{1};
  SpinLock edges_mutex;
  std::vector<TaskRef> successors; // guarded by edges_mutex
  bool finished = false;           // guarded by edges_mutex
  // Set (release) once the helper has fully processed the completion, so a
  // master waiting on it sees the directory already updated.
  std::atomic<bool> completed{false};
  // Set by a thread about to wait for `completed`: completion rings only then.
  std::atomic<bool> awaited{false};

  // Nesting (NestedTasks.hpp). A child knows its parent, which outlives it;
  // a parent's domain holds its children's graph, made by its body and
  // dropped when the body and the children are done.
  Task *parent = nullptr;
  std::shared_ptr<ChildDomain> children;
  std::atomic<std::uint32_t> unfinished_children{0};

  // Helper-thread bookkeeping.
  int space = -1;           // memory space of the worker that runs it
  bool goes_first = false;  // made ready ahead of others (Helper::goes_first); a GPU's priority lane takes it
  bool staged_unlocked = false; // staged on a device while inputs of it were not page-locked
  bool staged_copying_in = false; // staged on a device while inputs of it were not there yet
  std::size_t staged_fetch_bytes = 0; // what its staging copied in (Helper::queues_long_fetch)
  // The work the helper counted for it in its device's queue when it staged
  // it; the same amount comes off at its completion (Helper::queued_seconds_).
  double queued_estimate = 0;
  // Seconds since runtime start; -1: not (yet) known. Ready and dispatch
  // times are the helper's, launch time a GPU worker's (for the trace).
  double ready_time = -1;
  double dispatch_time = -1;
  double launch_time = -1;
  double start_time = 0; // set by the worker
  double end_time = 0;   // set by the worker
  // Where a barrier's ranking expects it to run among the unfinished tasks
  // (Directory::expect_order, CSS_EVICTION=next-use); 0: not expected.
  std::uint64_t expected_position = 0;
  // The working set a barrier's out-of-core ranking put it in
  // (OutOfCoreOrder.hpp): written by the master before the ranking reaches
  // the helper; -1: none.
  std::int32_t working_set = -1;
  bool counted_in_set = false; // the helper counts it among its set's unfinished tasks (helper thread)

  void *args_data() { return heap_args ? heap_args.get() : inline_args.data(); }
  void set_args(const void *data, std::size_t bytes) {
    if (bytes > sizeof inline_args)
      heap_args = std::make_unique<std::max_align_t[]>((bytes + sizeof(std::max_align_t) - 1) /
                                                       sizeof(std::max_align_t));
    if (bytes) std::memcpy(args_data(), data, bytes);
  }
  std::string where() const { return std::string(file) + ":" + std::to_string(line); }
  TraceTask traced() const { return {id, file, line, ready_time, dispatch_time, launch_time}; }
};

struct Stats;

// The top-level tasks submitted and not yet completed (copy-backs included,
// children of running tasks not). The master waits on it at a barrier, for
// zero, and when too many are in flight (CSS_MAX_TASKS), for a resume level;
// whichever thread completes a task counts it down and wakes the master only
// at the level it waits for.
class LiveTasks {
public:
  // Master thread.
  void add() { count_.fetch_add(1, std::memory_order_relaxed); }
  // Any thread completing a task.
  void remove() {
    // seq_cst, with wait_until_at_most's: either the master sees the lower
    // count, or this sees the level it set and wakes it.
    const std::uint64_t before = count_.fetch_sub(1, std::memory_order_seq_cst);
    if (before == 1 || before == wake_at_.load(std::memory_order_seq_cst)) count_.notify_all();
  }
  // Any thread. acquire: a count of zero publishes every completed task's effects.
  std::uint64_t count() const { return count_.load(std::memory_order_acquire); }
  // Master thread: returns once at most `level` tasks are live.
  void wait_until_at_most(std::uint64_t level) {
    wake_at_.store(level + 1, std::memory_order_seq_cst);
    for (std::uint64_t live = count_.load(std::memory_order_seq_cst); live > level;
         live = count_.load(std::memory_order_seq_cst))
      count_.wait(live, std::memory_order_seq_cst);
    wake_at_.store(0, std::memory_order_relaxed);
  }

private:
  // Written by the master at every submit and by every thread that
  // completes a task: a line of its own. wake_at_ is read at every
  // completion and written only when the master starts or stops waiting.
  alignas(cache_line) std::atomic<std::uint64_t> count_{0};
  alignas(cache_line) std::atomic<std::uint64_t> wake_at_{0}; // 0: nobody waits for a level above zero
};

// Misuse in a descriptor whatever runs it (ABI version, body, directions,
// regions): an error naming the task.
void check_task_desc(const css_task_desc &desc);

// A task as `desc` describes it (a checked descriptor): its accesses in
// user memory, not yet bound to storage.
TaskRef make_user_task(const css_task_desc &desc, std::uint64_t id);

// The host addresses of a task's accesses: where each lives in host memory
// (user memory or a renamed buffer).
void host_addresses(const Task &task, std::vector<void *> &addresses);

// Where an access whose region is empty (a section whose length is 0 at run
// time, such as `in(x[0;i0])` at i0 = 0) lives for this execution: such an
// access has no storage, but its body may still take its parameter's pointer
// from it and reach the task's other regions from there (the translator
// rebases each pointer through the parameter's first access). So: inside the
// storage of another access whose object's shape holds its first byte, as
// that access's address is found by `locate(object)`; else its user address,
// of which the body reads no byte. Until 2026-11-29 it was null, and a
// triangular solve whose first block names x[0;0] crashed in its body.
template <typename Locate>
void *empty_access_address(const Task &task, const BoundAccess &empty, Locate locate) {
  const std::uintptr_t first = empty.region.base;
  for (const BoundAccess &other : task.accesses) {
    const DataObject *object = other.object.get();
    if (object && first >= object->shape.base && first <= object->shape.end())
      return locate(*object) + (first - object->shape.base);
  }
  return reinterpret_cast<void *>(first);
}

// The last step of a task: drop its storage references, count it, and let
// a master waiting on it or on the barrier go on.
void mark_completed(Task &task, Stats &stats, LiveTasks &live_tasks);

class TaskGraph {
public:
  explicit TaskGraph(bool record_dag) : record_dag_(record_dag) {}

  // Master thread. Makes `successor` wait for `predecessor` unless that one
  // has already finished or the edge was just made. Returns whether an edge
  // was added.
  bool add_edge(Task &predecessor, const TaskRef &successor);

  // Helper thread, or a host worker that releases its task's successors
  // itself (DirectRelease, without accelerators). Marks the task finished
  // and returns the successors that became ready (their last predecessor
  // was this task).
  std::vector<TaskRef> complete(Task &task);

  // Tasks waiting for `task` so far (the master may still add more).
  static std::size_t successor_count(Task &task) {
    std::lock_guard lock(task.edges_mutex);
    return task.successors.size();
  }

  // Master thread: drop the submitter's guard reference. True if ready now.
  static bool release_guard(Task &task) {
    // acq_rel: pairs with the decrements in complete() so the last one to
    // reach zero sees every edge and every predecessor's effects.
    return task.pending.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

  // Whether the graph is being recorded (CSS_DAG): finished tasks must then
  // stay known to the tracker so that their edges appear.
  bool recording() const { return record_dag_; }

  // Writes the executed graph in Graphviz format.
  void note_task(const Task &task);
  bool write_dot(const std::string &path) const;

private:
  struct DagNode {
    std::uint64_t id;
    std::string label;
    std::string where;
    bool copy_back;
  };
  const bool record_dag_;
  mutable std::mutex dag_mutex_;
  std::vector<DagNode> dag_nodes_;                                 // guarded by dag_mutex_
  std::vector<std::pair<std::uint64_t, std::uint64_t>> dag_edges_; // guarded by dag_mutex_
};

} // namespace gpuss
