// CpuWorkers: the host worker threads (CSS_NUM_CPUS). They share one inbox
// that the helper fills with at most one task per idle worker, so the ready
// queue's priority order is what decides what runs next.
#pragma once

#include "Device.hpp"

#include <thread>
#include <vector>

namespace gpuss {

struct HostJob {
  TaskRef task;
  std::vector<void *> addresses;
};

class CpuWorkers {
public:
  CpuWorkers(unsigned count, WorkerContext context);
  ~CpuWorkers(); // stops and joins
  void stop();

  unsigned count() const { return static_cast<unsigned>(threads_.size()); }
  // Helper thread.
  void submit(HostJob job) { inbox_.push(std::move(job)); }
  // Helper thread. A normal-priority job still waiting in the inbox, taken
  // back to make room for a high-priority one.
  bool take_back_normal(HostJob &job) {
    return inbox_.take_back(job, [](const HostJob &waiting) { return !waiting.task->high_priority; });
  }

private:
  void run(unsigned index);

  WorkerContext context_;
  Inbox<HostJob> inbox_;
  std::vector<std::jthread> threads_;
};

// Runs a task body with the environment it expects. Shared by host workers
// and simulated devices.
void run_task_body(Task &task, const std::vector<void *> &addresses, int device_kind, int device_index,
                   void *cuda_stream, void *cublas_handle);

} // namespace gpuss
