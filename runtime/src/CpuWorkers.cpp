#include "CpuWorkers.hpp"
#include "StatsCounters.hpp"
#include "Trace.hpp"

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

CpuWorkers::CpuWorkers(unsigned count, WorkerContext context) : context_(context) {
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

void CpuWorkers::run(unsigned index) {
  std::string track = "cpu" + std::to_string(index);
  HostJob job;
  while (inbox_.pop(job, *context_.stop, context_.spin_rounds)) {
    Task &task = *job.task;
    task.start_time = context_.now();
    run_task_body(task, job.addresses, CSS_DEVICE_SMP, -1, nullptr, nullptr);
    task.end_time = context_.now();
    Stats::add(context_.stats->cpu_busy_ns[index],
               static_cast<std::uint64_t>((task.end_time - task.start_time) * 1e9));
    if (context_.trace->enabled()) context_.trace->record(track, task.label, task.start_time, task.end_time);
    context_.report(Completion{std::move(job.task), 0, {}});
    job = HostJob{};
  }
}

} // namespace gpuss
