#include "Trace.hpp"

#include <fstream>
#include <map>

namespace gpuss {

void Trace::record(const std::string &track, const std::string &name, double start, double end,
                   std::uint64_t bytes) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  events_.push_back({track, name, start, end, bytes});
}

bool Trace::write(const std::string &path) const {
  std::lock_guard lock(mutex_);
  std::ofstream out(path);
  if (!out) return false;
  std::map<std::string, int> track_ids;
  for (const Event &e : events_)
    track_ids.emplace(e.track, 0);
  int next = 1;
  for (auto &[track, id] : track_ids)
    id = next++;
  out << "{\"traceEvents\":[\n";
  bool first = true;
  for (const auto &[track, id] : track_ids) {
    out << (first ? "" : ",\n") << R"({"ph":"M","pid":1,"tid":)" << id
        << R"(,"name":"thread_name","args":{"name":")" << track << "\"}}";
    first = false;
  }
  for (const Event &e : events_) {
    out << (first ? "" : ",\n") << R"({"ph":"X","pid":1,"tid":)" << track_ids[e.track] << R"(,"name":")"
        << e.name << R"(","ts":)" << e.start * 1e6 << R"(,"dur":)" << (e.end - e.start) * 1e6;
    if (e.bytes) out << R"(,"args":{"bytes":)" << e.bytes << "}";
    out << "}";
    first = false;
  }
  out << "\n]}\n";
  return static_cast<bool>(out);
}

} // namespace gpuss
