// capi.cpp: the C API of gpuss.h over one process-wide Runtime.
//
// This file holds the only process-wide state of libgpuss: the Runtime that
// translated programs talk to. It is created on first use and finished at
// exit, so a program that never calls css_start/css_finish still ends with
// every result in user memory.
#include "Fatal.hpp"
#include "Runtime.hpp"

#include <cstdlib>
#include <mutex>

namespace {

struct ProcessRuntime {
  std::mutex mutex;
  std::unique_ptr<gpuss::Runtime> runtime;
  bool finished = false;
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
    process.runtime->finish();
    process.runtime.reset();
  }
  process.finished = true;
}

gpuss::Runtime &started_runtime(ProcessRuntime &process, const css_task_desc *desc) {
  if (process.finished)
    gpuss::fatal_for_task(desc, "the runtime has already finished (css_finish or #pragma css finish)");
  if (!process.runtime) {
    process.runtime = std::make_unique<gpuss::Runtime>(gpuss::Config::from_environment());
    std::atexit(finish_process_runtime);
  }
  return *process.runtime;
}

} // namespace

extern "C" {

const char *css_version(void) {
  return GPUSS_VERSION;
}

void css_start(void) {
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  started_runtime(process, nullptr);
}

void css_submit(const css_task_desc *desc) {
  if (desc == nullptr) gpuss::fatal("css_submit called with a null task descriptor");
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  started_runtime(process, desc).submit(*desc);
}

void css_barrier(void) {
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (process.runtime) process.runtime->barrier();
}

void css_wait_on(const css_region *regions, size_t count) {
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (process.runtime) process.runtime->wait_on({regions, count});
}

void css_unpin(const void *address, size_t bytes) {
  ProcessRuntime &process = process_runtime();
  std::lock_guard lock(process.mutex);
  if (process.runtime) process.runtime->unpin(address, bytes);
}

void css_finish(void) {
  finish_process_runtime();
}

} // extern "C"
