// capi.cpp: the C API of gpuss.h over one process-wide Runtime.
//
// This file holds the only process-wide state of libgpuss: the Runtime that
// translated programs talk to. It is created on first use and finished at
// exit, so a program that never calls css_start/css_finish still ends with
// every result in user memory. After css_finish, the next call starts a new
// one (as SMPSs's css_start did).
//
// Calls made inside a task body (a task function called by a task, a
// barrier in a body) are the running task's business, not the process
// runtime's: they go to NestedTasks without the process lock, which the
// master may hold for a whole barrier while it waits for that very task.
#include "api/OpenMPRoutines.hpp"
#include "api/Runtime.hpp"
#include "graph/NestedTasks.hpp"
#include "support/Fatal.hpp"
// MPI layer hook (runtime/mpi, docs/mpi.md): once a css_mpi_ call has
// started it, task calls and waits go through the layer.
#include "../mpi/Hooks.hpp"
#include "../mpi/Layer.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace {

struct ProcessRuntime {
  std::mutex mutex;
  std::unique_ptr<gpuss::Runtime> runtime;
  bool exit_handler = false; // finish_process_runtime is registered with atexit
};

ProcessRuntime &process_runtime() {
  // Constructed on first use and intentionally never destroyed: the exit
  // handler below finishes the runtime, and later static destructors must
  // still find a valid object if they touch the API.
  static ProcessRuntime *instance = new ProcessRuntime; // NOLINT: immortal singleton
  return *instance;
}

// css_finish, and the exit handler that calls it for programs that do not.
void finish_process_runtime() {
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (process.runtime) {
    if (gpuss::mpi::Layer *layer = gpuss::mpi::layer()) layer->finish(*process.runtime); // MPI hook
    process.runtime->finish();
    gpuss::mpi::after_finish(*process.runtime); // MPI hook: stats with the rank
    process.runtime.reset();
  }
}

void exit_handler() {
  // exit() called inside a task body: waiting for every task (this one
  // included) would never end, and the master may hold the lock in a
  // barrier waiting for it. The process ends as the program asked, without
  // bringing results home.
  if (gpuss::RunningTask *running = gpuss::running_task()) {
    std::fprintf(stderr,
                 "gpuss: warning: exit() called inside task '%s' (%s): the process ends without waiting for "
                 "the other tasks; results not yet in user memory are lost\n",
                 running->task->label, running->task->where().c_str());
    return;
  }
  finish_process_runtime();
}

gpuss::Runtime &started_runtime(ProcessRuntime &process) {
  if (!process.runtime) {
    gpuss::Config config = gpuss::Config::from_environment();
    gpuss::mpi::adjust_config(config); // MPI hook: per-rank files and stats
    process.runtime = std::make_unique<gpuss::Runtime>(config);
    gpuss::omp::runtime_started(process.runtime->body_threads());
    if (!process.exit_handler) std::atexit(exit_handler);
    process.exit_handler = true;
  }
  return *process.runtime;
}

// The environment is checked when libgpuss is loaded, before main, not when
// the first task starts the runtime: a malformed CSS_* value ends the program
// before its output begins, and a CSS_* name GPUSs does not read (a typo)
// gets a warning. The runtime reads the environment again when it starts.
__attribute__((constructor)) void check_environment_at_load() {
  (void)gpuss::Config::from_environment();
  for (const gpuss::Config::UnknownVariable &unknown : gpuss::Config::unknown_variables()) {
    std::fprintf(stderr, "gpuss: warning: %s is not a GPUSs variable and is ignored", unknown.name.c_str());
    if (!unknown.meant.empty()) std::fprintf(stderr, "; did you mean %s?", unknown.meant.c_str());
    std::fprintf(stderr, " (docs/environment.md lists them)\n");
  }
}

// A call that only the program's own thread may make, made inside a task.
[[noreturn]] void refuse_in_task(const gpuss::RunningTask &running, const char *call) {
  gpuss::fatal_for_task(running.task->label, running.task->file, running.task->line,
                        std::string(call) +
                            " called inside the task's body; it belongs to the main program (a barrier or "
                            "wait on inside a task waits for that task's children)");
}

} // namespace

// MPI hook (runtime/mpi/Hooks.hpp): the layer's C API, under the process lock.
void gpuss::with_process_runtime(bool start, const std::function<void(Runtime *)> &fn) {
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  fn(start ? &started_runtime(process) : process.runtime.get());
}

extern "C" {

const char *css_version(void) {
  return GPUSS_VERSION;
}

void css_start(void) {
  if (gpuss::running_task()) return; // the runtime runs: this task is one of its
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  started_runtime(process);
}

void css_submit(const css_task_desc *desc) {
  if (desc == nullptr) gpuss::fatal("css_submit called with a null task descriptor");
  if (gpuss::RunningTask *running = gpuss::running_task()) return running->nested->submit(*running, *desc);
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  gpuss::Runtime &runtime = started_runtime(process);
  if (gpuss::mpi::Layer *layer = gpuss::mpi::layer()) return layer->submit(runtime, *desc); // MPI hook
  runtime.submit(*desc);
}

void css_barrier(void) {
  if (gpuss::RunningTask *running = gpuss::running_task())
    return running->nested->wait_for_children(*running);
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (gpuss::mpi::Layer *layer = gpuss::mpi::layer()) // MPI hook
    return layer->barrier(started_runtime(process));
  if (process.runtime) process.runtime->barrier();
}

void css_wait_on(const css_region *regions, size_t count) {
  css_wait_on_at(nullptr, 0, regions, count);
}

void css_wait_on_at(const char *file, int line, const css_region *regions, size_t count) {
  // Inside a task: its children, all of them (they are few and short-lived).
  if (gpuss::RunningTask *running = gpuss::running_task())
    return running->nested->wait_for_children(*running);
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (gpuss::mpi::Layer *layer = gpuss::mpi::layer()) // MPI hook
    return layer->wait_on(started_runtime(process), {regions, count}, file, line);
  if (process.runtime) process.runtime->wait_on({regions, count}, file, line);
}

void css_wait_written(const css_region *regions, size_t count) {
  if (gpuss::RunningTask *running = gpuss::running_task())
    return running->nested->wait_written(*running, {regions, count});
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (gpuss::mpi::Layer *layer = gpuss::mpi::layer()) // MPI hook: the whole wait
    return layer->wait_on(started_runtime(process), {regions, count});
  if (process.runtime) process.runtime->wait_written({regions, count});
}

void css_release(const css_region *regions, size_t count) {
  if (gpuss::RunningTask *running = gpuss::running_task())
    return running->nested->wait_for_children(*running);
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (gpuss::mpi::Layer *layer = gpuss::mpi::layer()) // MPI hook
    return layer->release(started_runtime(process), {regions, count});
  if (process.runtime) process.runtime->release({regions, count});
}

void css_unpin(const void *address, size_t bytes) {
  if (gpuss::RunningTask *running = gpuss::running_task()) refuse_in_task(*running, "css_unpin");
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (gpuss::mpi::Layer *layer = gpuss::mpi::layer()) layer->barrier(started_runtime(process)); // MPI hook
  if (process.runtime) process.runtime->unpin(address, bytes);
}

void css_pin(const void *address, size_t bytes) {
  if (gpuss::RunningTask *running = gpuss::running_task()) refuse_in_task(*running, "css_pin");
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  started_runtime(process).pin(address, bytes);
}

void css_finish(void) {
  if (gpuss::RunningTask *running = gpuss::running_task()) refuse_in_task(*running, "css_finish");
  finish_process_runtime();
}

} // extern "C"
