// CpuWorkers: the host worker threads (CSS_NUM_CPUS). They share one inbox
// that the helper fills with at most one task per idle worker, so the ready
// queue's priority order is what decides what runs next. Child tasks
// (NestedTasks.hpp) go into the same inbox from the workers that create or
// release them, ahead of the helper's tasks, and never back to the helper.
#pragma once

#include "devices/Device.hpp"
#include "graph/NestedTasks.hpp"

#include <thread>
#include <vector>

namespace gpuss {

// Runs without accelerators, where the helper has no data to move: a host
// worker releases its finished task's successors itself and runs one of
// them at once (the immediate-successor rule of Nanos6 and Taskflow), so a
// chain of tasks does not bounce through the helper. The others go to the
// ready queue. A normal-priority successor runs at once only while the
// helper holds no high-priority task.
struct DirectRelease {
  TaskGraph *graph = nullptr;
  BatchQueue<TaskRef> *ready = nullptr;
  LiveTasks *live_tasks = nullptr;
  const std::atomic<unsigned> *urgent_waiting = nullptr;
};

class CpuWorkers {
public:
  CpuWorkers(unsigned count, WorkerContext context, DirectRelease direct = {}, NestedTasks *nested = nullptr);
  ~CpuWorkers(); // stops and joins
  void stop();

  unsigned count() const { return static_cast<unsigned>(threads_.size()); }
  // Helper thread. The task's data must be valid in host memory, where the
  // worker finds it (host_addresses). High-priority tasks go ahead of the
  // normal ones waiting.
  void submit(TaskRef task) {
    if (task->high_priority)
      inbox_.push_ahead(std::move(task), [](const TaskRef &waiting) { return !waiting->high_priority; });
    else
      inbox_.push(std::move(task));
  }
  // Helper thread. A normal-priority task still waiting in the inbox, taken
  // back to make room for a high-priority one (never a child task: those are
  // not the helper's).
  bool take_back_normal(TaskRef &task) {
    return inbox_.take_back(
        task, [](const TaskRef &waiting) { return !waiting->high_priority && !waiting->parent; });
  }

  // Worker threads. A ready child task, ahead of everything waiting: the
  // most recent first, so that a recursion goes depth first (its memory and
  // its waiting parents stay few) and a push costs O(1) however many wait.
  void submit_child(TaskRef child) { inbox_.push_front(std::move(child)); }
  // Worker threads: wakes every worker waiting for work or for children.
  void wake_all() { inbox_.wake_all(); }

  // Worker `index`, inside a task body or after it: runs ready tasks from
  // the inbox until `done()` holds (a parent waiting for its children keeps
  // its thread busy, so that recursion deeper than the workers goes on).
  template <typename Done> void help_until(unsigned index, Done done) {
    std::vector<void *> addresses;
    for (;;) {
      if (done()) return;
      std::uint32_t ticket = inbox_.prepare();
      TaskRef task;
      if (inbox_.try_pop(task)) {
        process(index, std::move(task), addresses);
        continue;
      }
      if (done()) return;
      inbox_.wait(ticket, context_.spin_rounds);
    }
  }

private:
  void run(unsigned index);
  // Runs a task from the inbox to its completion (a child's included).
  void process(unsigned index, TaskRef task, std::vector<void *> &addresses);
  void execute(unsigned index, Task &task, const std::vector<void *> &addresses);
  // DirectRelease: completes `task` and returns the successor to run next, if any.
  TaskRef release_directly(Task &task);

  WorkerContext context_;
  DirectRelease direct_;
  NestedTasks *nested_;
  Inbox<TaskRef> inbox_;
  std::vector<std::jthread> threads_;
};

// Runs a task body with the environment it expects. Shared by host workers
// and simulated devices.
void run_task_body(Task &task, const std::vector<void *> &addresses, int device_kind, int device_index,
                   void *cuda_stream, void *cublas_handle);

} // namespace gpuss
