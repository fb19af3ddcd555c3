// ExternalTasks: tasks the runtime orders by their data but does not run.
//
// A hook for runtime/mpi (docs/mpi.md). The MPI layer submits its sends and
// receives as external tasks: the dependency tracker orders them with the
// program's tasks by their regions (a send after the writer of what it
// sends and before the next writer, a receive after the readers of the value
// it overwrites and before the readers of the one it brings), the directory
// brings their data home from any accelerator (a send) or drops the
// accelerators' copies (a receive), and then the helper hands them to their
// executor instead of a worker. The executor completes each one later, from
// any thread: a transfer waiting for the network holds no worker, so a rank
// with one host worker still runs its tasks while its receives wait for
// other ranks (a worker blocked in a receive would deadlock two ranks that
// each wait for the other's next task).
//
// Threads: the master submits (Runtime::submit_external); the helper calls
// ExternalExecutor::start; any thread calls ExternalTask::complete, once.
#pragma once

#include "devices/Device.hpp"
#include "graph/Task.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuss {

// A ready external task, handed to its executor. Movable, not copyable:
// exactly one holder completes it.
class ExternalTask {
public:
  // `completing` counts the complete() calls under way: the runtime is not
  // torn down before they have returned (Helper::join).
  ExternalTask(TaskRef task, std::vector<void *> addresses, const WorkerContext *context,
               std::atomic<std::uint32_t> *completing)
      : task_(std::move(task)), addresses_(std::move(addresses)), context_(context), completing_(completing) {
  }
  ExternalTask(ExternalTask &&) = default;
  ExternalTask &operator=(ExternalTask &&) = default;
  ExternalTask(const ExternalTask &) = delete;
  ExternalTask &operator=(const ExternalTask &) = delete;

  // The packed arguments of its descriptor, and its accesses as submitted.
  const void *args() const { return task_->args_data(); }
  std::size_t access_count() const { return task_->user_accesses.size(); }
  const css_access &access(std::size_t index) const { return task_->user_accesses[index]; }
  // Where access `index`'s first byte lives in host memory now: user memory,
  // or a renamed buffer laid out as user memory is (strides included).
  void *address(std::size_t index) const { return addresses_[index]; }
  const Task &task() const { return *task_; }
  explicit operator bool() const { return task_ != nullptr; }

  // Any thread, once: the task's work is done. The runtime completes it as
  // a worker's task (successors released, the barrier told); `bytes` and
  // `name` (the label if empty) go into its trace event, on the track named
  // by the task's label.
  void complete(std::uint64_t bytes = 0, const std::string &name = {});

private:
  TaskRef task_;
  std::vector<void *> addresses_;
  const WorkerContext *context_;
  std::atomic<std::uint32_t> *completing_;
};

class ExternalExecutor {
public:
  // Helper thread: `task` is ready, and its data is current in host memory
  // (ExternalTask::address). Must return at once: the helper dispatches
  // every other task.
  virtual void start(ExternalTask task) = 0;

protected:
  ~ExternalExecutor() = default;
};

} // namespace gpuss
