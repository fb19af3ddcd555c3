// Trace: a Chrome/Perfetto trace (CSS_TRACE=file.json) with one track per
// worker and one per copy stream. Recording is a mutex-protected append;
// it is off (and free) unless a file was asked for. An event of a task, or
// of a copy made for one, carries the task's id and the file:line of its
// call in its args, so that a trace joins the task graph (CSS_DAG names
// its nodes t<id>) and the source.
//
// Any thread records; the composition root writes the file at finish,
// after every other thread is gone.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace gpuss {

// The task an event belongs to; id 0 is none (load-ahead, write-backs).
// Where known (>= 0, seconds since the runtime started): when it became
// ready, when the helper gave it to a worker or device, and when a GPU
// worker launched its body, so that a trace shows where a chain's link
// waited (ready list, staging, or behind other kernels on its stream).
struct TraceTask {
  std::uint64_t id = 0;
  const char *file = nullptr;
  int line = 0;
  double ready = -1, dispatched = -1, launched = -1;
};

class Trace {
public:
  explicit Trace(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  // Any thread. Times in seconds since the runtime started.
  void record(const std::string &track, const std::string &name, double start, double end,
              std::uint64_t bytes = 0, TraceTask task = {});
  bool write(const std::string &path) const;

private:
  struct Event {
    std::string track, name;
    double start, end;
    std::uint64_t bytes;
    TraceTask task;
  };
  const bool enabled_;
  mutable std::mutex mutex_;
  std::vector<Event> events_; // guarded by mutex_
};

} // namespace gpuss
