// CpuWorkers: the host worker threads (CSS_NUM_CPUS). They share one inbox
// that the helper fills with at most one task per idle worker, so the ready
// queue's priority order is what decides what runs next.
#pragma once

#include "Device.hpp"

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
  std::atomic<std::uint64_t> *live_tasks = nullptr;
  const std::atomic<unsigned> *urgent_waiting = nullptr;
};

class CpuWorkers {
public:
  CpuWorkers(unsigned count, WorkerContext context, DirectRelease direct = {});
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
  // back to make room for a high-priority one.
  bool take_back_normal(TaskRef &task) {
    return inbox_.take_back(task, [](const TaskRef &waiting) { return !waiting->high_priority; });
  }

private:
  void run(unsigned index);
  void execute(unsigned index, Task &task, const std::vector<void *> &addresses);
  // DirectRelease: completes `task` and returns the successor to run next, if any.
  TaskRef release_directly(Task &task);

  WorkerContext context_;
  DirectRelease direct_;
  Inbox<TaskRef> inbox_;
  std::vector<std::jthread> threads_;
};

// Runs a task body with the environment it expects. Shared by host workers
// and simulated devices.
void run_task_body(Task &task, const std::vector<void *> &addresses, int device_kind, int device_index,
                   void *cuda_stream, void *cublas_handle);

} // namespace gpuss
