#include "support/Fatal.hpp"

#include <cstdio>
#include <cstdlib>

namespace gpuss {

namespace {

// A user error ends the process with status 1, as a compiler's does, after
// the program's own output so far. Not exit(): its handlers finish the
// runtime, which waits for the lock a barrier on the master may hold while
// this thread reports, and for tasks that will never end. Not abort(): this
// is the program's mistake, not a crash of ours.
[[noreturn]] void end_process() {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(1);
}

} // namespace

void fatal(std::string_view message) {
  std::fprintf(stderr, "gpuss: error: %.*s\n", static_cast<int>(message.size()), message.data());
  end_process();
}

void fatal_at(const char *file, int line, std::string_view message) {
  std::fprintf(stderr, "gpuss: error: %s:%d: %.*s\n", file ? file : "<unknown>", line,
               static_cast<int>(message.size()), message.data());
  end_process();
}

void fatal_for_task(const char *label, const char *file, int line, std::string_view message) {
  std::fprintf(stderr, "gpuss: error: %s:%d: task '%s': %.*s\n", file ? file : "<unknown>", line,
               label ? label : "<unnamed>", static_cast<int>(message.size()), message.data());
  end_process();
}

void memory_error_for_task(const char *label, const char *file, int line, std::string_view message) {
  std::fprintf(stderr, "gpuss: error: %s:%d: task '%s': %.*s\n", file ? file : "<unknown>", line,
               label ? label : "<unnamed>", static_cast<int>(message.size()), message.data());
  std::fflush(nullptr); // what the program printed so far too
  std::_Exit(1);
}

void fatal_for_task(const css_task_desc *desc, std::string_view message) {
  if (desc == nullptr) fatal(message);
  fatal_for_task(desc->label, desc->file, desc->line, message);
}

} // namespace gpuss
