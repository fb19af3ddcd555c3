#include "devices/CpuWorkers.hpp"
#include "devices/FaultReports.hpp"
#include "devices/InputCheck.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "support/StatsCounters.hpp"
#include "support/Trace.hpp"

#include <algorithm>
#include <optional>

namespace gpuss {

void run_task_body(Task &task, const std::vector<void *> &addresses, int device_kind, int device_index,
                   void *cuda_stream, void *cublas_handle) {
  css_task_env env{addresses.data(),
                   task.user_accesses.data(),
                   static_cast<std::uint32_t>(task.user_accesses.size()),
                   device_kind,
                   device_index,
                   cuda_stream,
                   cublas_handle};
  task.body(task.args_data(), &env);
}

CpuWorkers::CpuWorkers(unsigned count, WorkerContext context, DirectRelease direct, NestedTasks *nested)
    : context_(context), direct_(direct), nested_(nested) {
  for (unsigned i = 0; i < count; ++i)
    threads_.emplace_back([this, i] { run(i); });
}

CpuWorkers::~CpuWorkers() {
  stop();
}

void CpuWorkers::stop() {
  inbox_.wake_all();
  threads_.clear(); // jthread joins
}

void CpuWorkers::execute(unsigned index, Task &task, const std::vector<void *> &addresses) {
  {
    // A crash in the body names the task (FaultReports.hpp).
    faults::Activity body = faults::Activity::body(task.label, task.file, task.line, "a host worker");
    faults::Scope in_body(body);
    RunningScope running({&task, &addresses, nested_, true, index});
    task.start_time = context_.now();
    std::optional<InputCheck> inputs;
    if (context_.check_inputs) inputs.emplace(task, addresses);
    run_task_body(task, addresses, CSS_DEVICE_SMP, -1, nullptr, nullptr);
    task.end_time = context_.now();
    if (inputs) inputs->verify();
  }
  Stats::add(context_.stats->cpu_busy_ns[index],
             static_cast<std::uint64_t>((task.end_time - task.start_time) * 1e9));
  if (context_.trace->enabled())
    context_.trace->record("cpu" + std::to_string(index), task.label, task.start_time, task.end_time, 0,
                           task.traced());
  // A task completes only when its children have: the body's implicit wait.
  if (task.unfinished_children.load(std::memory_order_acquire) > 0)
    help_until(index, [&] { return task.unfinished_children.load(std::memory_order_acquire) == 0; });
  task.children.reset();
}

TaskRef CpuWorkers::release_directly(Task &task) {
  std::vector<TaskRef> ready = direct_.graph->complete(task);
  TaskRef next;
  // An external task (an MPI transfer, ExternalTasks.hpp) is never run
  // here: the helper hands it to its executor.
  auto high = std::find_if(ready.begin(), ready.end(),
                           [](const TaskRef &t) { return t->high_priority && !t->executor; });
  auto first = std::find_if(ready.begin(), ready.end(), [](const TaskRef &t) { return !t->executor; });
  if (high != ready.end())
    next = std::move(*high);
  else if (first != ready.end() && direct_.urgent_waiting->load(std::memory_order_relaxed) == 0)
    next = std::move(*first);
  bool others = false;
  for (TaskRef &successor : ready)
    if (successor) {
      direct_.ready->push(std::move(successor));
      others = true;
    }
  if (others) context_.helper_signal->notify();
  return next;
}

void CpuWorkers::run(unsigned index) {
  release_hooks::Exemption exempt; // a runtime thread: frees only what the runtime owns
  faults::AlternateStack signal_stack;
  TaskRef task;
  std::vector<void *> addresses; // reused, so that a task costs no allocation here
  while (inbox_.pop(task, *context_.stop, context_.spin_rounds))
    process(index, std::move(task), addresses);
}

void CpuWorkers::process(unsigned index, TaskRef task, std::vector<void *> &addresses) {
  host_addresses(*task, addresses);
  execute(index, *task, addresses);
  if (task->parent) {
    nested_->child_done(task);
    return;
  }
  if (!direct_.graph) {
    context_.report(Completion{std::move(task), 0, {}});
    return;
  }
  // The helper only frees the inbox place this task was given; the
  // successors run here never took one.
  bool from_inbox = true;
  while (task) {
    TaskRef next = release_directly(*task);
    mark_completed(*task, *context_.stats, *direct_.live_tasks);
    if (from_inbox) context_.report(Completion{std::move(task), 0, {}, true});
    from_inbox = false;
    task = std::move(next);
    if (!task) break;
    host_addresses(*task, addresses);
    execute(index, *task, addresses);
  }
}

} // namespace gpuss
