#include "Fatal.hpp"

#include <cstdio>
#include <cstdlib>

namespace gpuss {

void fatal(std::string_view message) {
  std::fprintf(stderr, "gpuss: error: %.*s\n", static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  std::abort();
}

void fatal_for_task(const char *label, const char *file, int line, std::string_view message) {
  std::fprintf(stderr, "gpuss: error: %s:%d: task '%s': %.*s\n", file ? file : "<unknown>", line,
               label ? label : "<unnamed>", static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  std::abort();
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
