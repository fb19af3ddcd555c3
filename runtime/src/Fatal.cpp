#include "Fatal.hpp"

#include <cstdio>
#include <cstdlib>

namespace gpuss {

void fatal(std::string_view message) {
  std::fprintf(stderr, "gpuss: error: %.*s\n", static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  std::abort();
}

void fatal_for_task(const css_task_desc *desc, std::string_view message) {
  if (desc == nullptr) fatal(message);
  std::fprintf(stderr, "gpuss: error: %s:%d: task '%s': %.*s\n", desc->file ? desc->file : "<unknown>",
               desc->line, desc->label ? desc->label : "<unnamed>", static_cast<int>(message.size()),
               message.data());
  std::fflush(stderr);
  std::abort();
}

} // namespace gpuss
