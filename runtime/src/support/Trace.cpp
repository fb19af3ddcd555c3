#include "support/Trace.hpp"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <string_view>

namespace gpuss {

namespace {

// A JSON string's contents: labels and file names may hold quotes,
// backslashes or control characters.
std::string json_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += code;
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace

void Trace::record(const std::string &track, const std::string &name, double start, double end,
                   std::uint64_t bytes, TraceTask task) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  events_.push_back({track, name, start, end, bytes, task});
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
  // Microseconds with three decimals, whatever the magnitude: the stream's
  // default six significant digits put an event 10 s into a run on a 100 us
  // grid.
  out << std::fixed << std::setprecision(3);
  out << "{\"traceEvents\":[\n";
  bool first = true;
  for (const auto &[track, id] : track_ids) {
    out << (first ? "" : ",\n") << R"({"ph":"M","pid":1,"tid":)" << id
        << R"(,"name":"thread_name","args":{"name":")" << json_escaped(track) << "\"}}";
    first = false;
  }
  for (const Event &e : events_) {
    out << (first ? "" : ",\n") << R"({"ph":"X","pid":1,"tid":)" << track_ids[e.track] << R"(,"name":")"
        << json_escaped(e.name) << R"(","ts":)" << e.start * 1e6 << R"(,"dur":)" << (e.end - e.start) * 1e6;
    if (e.bytes || e.task.id) {
      out << R"(,"args":{)";
      const char *separator = "";
      if (e.task.id) {
        out << R"("task":)" << e.task.id << R"(,"where":")" << json_escaped(e.task.file ? e.task.file : "?")
            << ":" << e.task.line << "\"";
        separator = ",";
        auto time = [&](const char *key, double seconds) {
          if (seconds >= 0) out << "," << '"' << key << R"(":)" << seconds * 1e6;
        };
        time("ready", e.task.ready);
        time("dispatched", e.task.dispatched);
        time("launched", e.task.launched);
      }
      if (e.bytes) out << separator << R"("bytes":)" << e.bytes;
      out << "}";
    }
    out << "}";
    first = false;
  }
  out << "\n]}\n";
  return static_cast<bool>(out);
}

} // namespace gpuss
