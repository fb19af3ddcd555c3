// ExternalTasks: completing a task an executor ran (ExternalTasks.hpp).
#include "devices/ExternalTasks.hpp"
#include "support/Fatal.hpp"
#include "support/Trace.hpp"

namespace gpuss {

void ExternalTask::complete(std::uint64_t bytes, const std::string &name) {
  if (!task_) fatal("an external task was completed twice");
  // Counted before the report: once the helper has it, the barrier may
  // return and the runtime finish while this thread is still ringing the
  // helper's doorbell; Helper::join waits for the count to fall to zero.
  completing_->fetch_add(1, std::memory_order_seq_cst);
  Task &task = *task_;
  task.end_time = context_->now();
  if (context_->trace->enabled())
    context_->trace->record(task.label, name.empty() ? std::string(task.label) : name, task.start_time,
                            task.end_time, bytes, task.traced());
  addresses_.clear();
  // As a host worker reports a finished task: the helper releases its
  // successors and counts it done (Helper::on_completion).
  context_->report(Completion{std::move(task_), 0, {}});
  completing_->fetch_sub(1, std::memory_order_release); // the last touch of the runtime
}

} // namespace gpuss
