// Helper: the thread that maps ready tasks to execution units (paper,
// section 4.2). It owns the directory, processes completions, releases
// successors, and dispatches each ready task to the memory space where the
// scheduling policy finds it cheapest, staging up to CSS_PREFETCH_DEPTH
// tasks ahead on each accelerator so that their fetches overlap the running
// task, and loading the data of tasks not yet ready while the devices'
// fetch engines have room (CSS_LOAD_AHEAD).
#pragma once

#include "support/Config.hpp"
#include "devices/CpuWorkers.hpp"
#include "devices/Device.hpp"
#include "memory/Directory.hpp"
#include "scheduling/Scheduler.hpp"
#include "scheduling/TimedRanks.hpp"

#include <deque>
#include <map>
#include <memory>
#include <thread>

namespace gpuss {

// A barrier's or wait on's request that values reach user memory.
struct FlushRequest {
  std::vector<DataObjectRef> objects;
  // A barrier sends its request before its tasks finish: no task can be
  // added while the master waits, so each object is copied home as soon as
  // its last user completes, and the request is done once every task is.
  bool while_tasks_run = false;
  std::atomic<bool> done{false};
};

// An object to load into a device ahead of `reader`, the first unfinished
// task that reads it (CSS_LOAD_AHEAD).
struct LoadAhead {
  DataObjectRef object;
  TaskRef reader;
};

// A barrier's loads ahead, first wanted first (LoadAheadPlan.hpp).
struct LoadOrder {
  std::vector<LoadAhead> loads;
  // Whether the devices' links serve the ranks (CSS_RANKED_FETCHES): not
  // where every rank is held by many tasks (ProgramOrder.hpp), as in GEMM's
  // chains of equal updates, where no chain holds the others up and a task
  // held back only leaves the copy threads fewer copies in flight.
  bool link_serves_ranks = true;
};

struct HelperQueues {
  BatchQueue<TaskRef> ready;
  BatchQueue<Completion> completions;
  BatchQueue<DataObject *> retired;
  BatchQueue<std::shared_ptr<FlushRequest>> flushes;
  BatchQueue<LoadOrder> load_orders;
  // A barrier's ranked tasks, in submission order (CSS_EVICTION=next-use:
  // Directory::expect_order).
  BatchQueue<std::vector<TaskRef>> expected_orders;
  // A barrier's ranked tasks, in submission order, when the ranks are the
  // critical path's (empty otherwise): TimedRanks weighs them again.
  BatchQueue<std::vector<TaskRef>> timed_rankings;
  std::atomic<bool> ranked{false};                // the master has just ranked the graph's tasks
  // The master is ranking at a barrier, from its start until the helper has
  // taken the ranks in (Helper::waits_for_ranks).
  std::atomic<bool> ranking{false};
  // The master has submitted tasks that a barrier has not ranked yet, from
  // the first submission after a barrier until the helper has taken that
  // barrier's ranks in (Helper::queues_long_fetch).
  std::atomic<bool> unranked{false};
  WakeSignal signal;                              // rung by every producer of the queues above
};

// What the helper works with, owned by the Runtime.
struct HelperParts {
  const Config &config;
  HelperQueues &queues;
  Directory &directory;
  TaskGraph &graph;
  std::vector<Device *> devices; // accelerator `space` is devices[space - 1]
  CpuWorkers *cpus;
  SchedulingPolicy &policy;
  Stats &stats;
  LiveTasks &live_tasks;
  std::atomic<bool> &stop;                // set by the master at finish
  std::atomic<unsigned> &urgent_waiting;  // read by DirectRelease workers
  WorkerContext external_context;         // where external tasks' executors report (ExternalTasks.hpp)
};

class Helper {
public:
  explicit Helper(HelperParts parts);
  ~Helper(); // joins

  void start();
  void join();

private:
  enum class Placement {
    Dispatched,
    Blocked, // its data was not yet in reach; retried first
    NoRoom,  // no space where it may run has room
    Deferred // it waits for a space with its data, now full
  };

  void run();
  bool drain_queues();
  void on_completion(Completion &completion);
  void accept_flush(std::shared_ptr<FlushRequest> request);
  bool try_finish_flush(FlushRequest &request);
  void release_uses(const Task &task);
  // Sends the copies the directory has decided on (write-backs, loads
  // ahead) to the devices that make them: the helper is their one sender.
  void send_copy_orders();
  void make_ready(TaskRef task);
  bool goes_first(Task &task) const;
  void dispatch();
  void dispatch_from(std::deque<TaskRef> &queue);
  void feed_starving_devices();
  void load_ahead();
  // CSS_RANKED_FETCHES: whether `task`, which must copy inputs into device
  // `space`, leaves that device's link to a load ahead for a higher-ranked
  // task.
  bool yields_link_to_loads(const Task &task, int space);
  // The loads at the head of the order whose reader has been placed: no
  // longer loaded ahead (load_ahead, yields_link_to_loads).
  void drop_loads_of_placed_readers();
  bool starving(int space) const;
  // Places `task`, in `only_space` when given (>= 0) and eligible.
  Placement place(const TaskRef &task, int only_space = -1);
  // An external task (ExternalTasks.hpp) to its executor, once its data is home.
  Placement start_external(const TaskRef &task);
  bool eligible(const Task &task, int space) const;
  bool has_room(int space) const;
  bool waits_for_ranks(int space) const;
  bool queues_long_fetch(std::size_t fetch_bytes, int space) const;
  double estimate_seconds(const Task &task, int space) const;
  // Device `space`'s estimated queued work, also published for the stats.
  void set_queued_seconds(int space, double seconds);
  void learn_duration(const Task &task, int space);
  // The ready lists in the order of the tasks' ranks as they now stand (a
  // new ranking, or the same one weighed in time).
  void sort_by_ranks();
  // CSS_RANK_BY_TIME: the barrier's ranks again, weighed by the durations
  // learned so far, once a kind of task has been timed for the first time;
  // the ready lists and the loads ahead follow them.
  void rank_by_time();

  const Config &config_;
  HelperQueues &queues_;
  Directory &directory_;
  TaskGraph &graph_;
  std::vector<Device *> devices_;
  CpuWorkers *cpus_;
  SchedulingPolicy &policy_;
  Stats &stats_;
  LiveTasks &live_tasks_;
  std::atomic<bool> &stop_;

  // Ready tasks by [goes first][runs on accelerators]: high priority or wide
  // fan-out first; within each, by rank (CSS_CRITICAL_PATH), then FIFO. The
  // second queue holds GPU tasks and, when there are accelerators,
  // copy-backs. Dispatch stops at a queue's first task without room, as if
  // its tasks all ran in the same spaces: copy-backs run in more (any), so
  // at worst one waits for room on an accelerator.
  std::deque<TaskRef> ready_[2][2];
  std::deque<TaskRef> blocked_; // placed before, but their data was not yet in reach
  // Ready external tasks (the MPI layer's transfers): they take no worker's
  // room, so none waits behind a queue that has none.
  std::deque<TaskRef> external_ready_;
  WorkerContext external_context_;                    // how their executors report them done
  std::atomic<std::uint32_t> external_completing_{0}; // ExternalTask::complete calls under way
  std::size_t ready_count_ = 0;
  static constexpr unsigned host_places_per_worker = 8;
  // Ready tasks looked at past ones that wait for a full space: far enough
  // to find work for a space that frees up, near enough to keep order.
  static constexpr unsigned affinity_window = 64;
  unsigned host_slots_ = 0;      // free places in the host inbox: one running and one waiting per worker
  std::vector<unsigned> staged_; // per space: tasks staged on an accelerator
  // Of those, tasks whose inputs were not page-locked when they were staged:
  // their worker locks the memory before copying it (a first run), so they
  // take a place beside the prefetch depth rather than in it (has_room).
  std::vector<unsigned> staged_unlocked_;
  // Per space: the staged tasks that had inputs to copy in when they were
  // staged (yields_link_to_loads).
  std::vector<unsigned> staged_copying_in_;
  // Per space: the bytes those tasks copied in when they were staged, until
  // they finish (queues_long_fetch).
  std::vector<std::size_t> staged_fetch_bytes_;
  // Per space: the work staged there, as the sum of the estimates its staged
  // tasks were counted with (Task::queued_estimate).
  std::vector<double> queued_seconds_;
  // (label, kind of space) -> seconds, smoothed. Labels are the translator's
  // string literals, so their addresses identify them.
  std::map<std::pair<const char *, int>, double> durations_;
  TimedRanks timed_ranks_;
  bool kind_newly_timed_ = false; // durations_ has a kind timed since rank_by_time last ran
  std::vector<std::shared_ptr<FlushRequest>> flushes_;
  // Out of core (OutOfCoreOrder.hpp): the unfinished tasks of each working
  // set of the last ranking. A ready task of a set more than sets_ahead past
  // the lowest unfinished one is held out of the ready lists until its set
  // comes, even where a device has room: left to the ready lists, a device
  // that finds its set's tasks not ready yet runs later sets' (step 0's
  // updates of the whole matrix), and the order, and what the caches keep,
  // become right-looking again (modelled H200, n = 131072 through 24 GiB:
  // 5.1-6.7 times the matrix from the host with the sets' ranks alone, 1.8
  // with the hold). A task's ranked predecessors are in its set or earlier
  // ones; what the ranking cannot see (a nested task's parent waiting for
  // its children) open_gate_if_idle covers, so the hold never deadlocks.
  static constexpr std::size_t sets_ahead = 1;
  std::vector<std::uint64_t> unfinished_in_set_;
  std::vector<std::vector<TaskRef>> held_by_set_; // ready tasks of sets too far ahead, out of the ready lists
  std::size_t lowest_set_ = 0;
  std::size_t held_tasks_ = 0;
  std::size_t gate_widened_ = 0; // sets let through beyond sets_ahead because everything idled
  void count_sets(const std::vector<TaskRef> &ranked);
  bool open_gate_if_idle();
  void advance_lowest_set();
  bool set_allowed(const Task &task) const;
  void hold(TaskRef task); // out of the ready lists until its set comes (advance_lowest_set)
  // Load-ahead (CSS_LOAD_AHEAD): the objects the ranked tasks will read,
  // first wanted first, dealt to the devices in turn; each device keeps a
  // few loads on its fetch engine, so that a task's own fetch waits behind
  // at most that many. A device stops taking loads when a quarter of its
  // cache is left, which stays for the tasks' own data.
  std::deque<LoadAhead> load_order_;
  bool link_serves_ranks_ = false; // the last LoadOrder's (yields_link_to_loads)
  std::vector<unsigned> loads_in_flight_; // per space
  std::vector<bool> full_for_loads_;      // per space
  int next_load_space_ = 1;
  static constexpr unsigned loads_per_device = 2;
  std::atomic<unsigned> &urgent_waiting_; // high-priority tasks held here, for DirectRelease workers
  std::jthread thread_;
};

} // namespace gpuss
