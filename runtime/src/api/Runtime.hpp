// Runtime: the one object that owns every component of GPUSs (its
// composition root, Runtime.cpp, builds them in dependency order and tears
// them down in reverse).
//
// The C API (capi.cpp) holds one process-wide Runtime, and tests build as
// many as they like, each with its own Config; the little process-wide
// state there is, where the C library forces it, is listed with its reasons
// in docs/architecture.md ("Globals"). All public methods are called from
// the master thread (inside a task body, they are that task's: its children).
#pragma once

#include "support/Config.hpp"
#include "support/Stats.hpp"
#include "gpuss.h"

#include <memory>
#include <span>
#include <string>

namespace gpuss {

class RuntimeImpl;
class ExternalExecutor;

class Runtime {
public:
  explicit Runtime(const Config &config);
  ~Runtime(); // finishes: waits for every task and leaves results in user memory
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  void submit(const css_task_desc &desc);
  void barrier();
  // file, line: the directive's call site, for a region it cannot wait for.
  void wait_on(std::span<const css_region> regions, const char *file = nullptr, int line = 0);
  void wait_written(std::span<const css_region> regions);
  // The program is done with these regions (gpuss.h, css_release).
  void release(std::span<const css_region> regions);
  // A barrier, then the page-locking of [address, address + bytes) undone,
  // so that the program may free that memory (gpuss.h, css_unpin).
  void unpin(const void *address, std::size_t bytes);
  // [address, address + bytes) page-locked now, for GPU copies (gpuss.h, css_pin).
  void pin(const void *address, std::size_t bytes);
  void finish(); // idempotent; submit after it is an error

  // Hook for runtime/mpi (ExternalTasks.hpp). A task ordered by its regions
  // like any other, whose work `executor` does once it is ready and its data
  // is current in host memory; `desc.body` is never run. Master thread.
  void submit_external(const css_task_desc &desc, ExternalExecutor &executor);
  // Seconds since the runtime started: the clock of its trace.
  double now() const;
  // An event on `track` of the trace (CSS_TRACE), if one is recorded. Any thread.
  void trace_event(const std::string &track, const std::string &name, double start, double end);

  // Counters so far (complete after barrier or finish).
  StatsSnapshot stats() const;
  const Config &config() const;
  // The threads that may run task bodies: the program's own, the host
  // workers and one per device (OpenMP's omp_get_max_threads). Any thread.
  unsigned body_threads() const;

private:
  std::unique_ptr<RuntimeImpl> impl_;
};

} // namespace gpuss
