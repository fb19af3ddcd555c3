// Trace: a Chrome/Perfetto trace (CSS_TRACE=file.json) with one track per
// worker and one per copy stream. Recording is a mutex-protected append;
// it is off (and free) unless a file was asked for.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace gpuss {

class Trace {
public:
  explicit Trace(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  // Any thread. Times in seconds since the runtime started.
  void record(const std::string &track, const std::string &name, double start, double end,
              std::uint64_t bytes = 0);
  bool write(const std::string &path) const;

private:
  struct Event {
    std::string track, name;
    double start, end;
    std::uint64_t bytes;
  };
  const bool enabled_;
  mutable std::mutex mutex_;
  std::vector<Event> events_; // guarded by mutex_
};

} // namespace gpuss
