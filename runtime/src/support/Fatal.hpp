// Fatal: how the runtime reports misuse and unrecoverable failures.
//
// Every message starts with "gpuss: error:" and, when a task is involved,
// names its label and the file:line of the call that submitted it; the
// process then ends with exit status 1 (exit handlers do not run).
//
// Any thread (never from a signal handler: FaultReports writes its own).
#pragma once

#include "gpuss.h"

#include <string_view>

namespace gpuss {

[[noreturn]] void fatal(std::string_view message);
[[noreturn]] void fatal_for_task(const css_task_desc *desc, std::string_view message);
// The same for a directive of the program's (a wait on) at file:line.
[[noreturn]] void fatal_at(const char *file, int line, std::string_view message);
// The same, for a task already submitted: its label and call site.
[[noreturn]] void fatal_for_task(const char *label, const char *file, int line, std::string_view message);
// The same message, then exit status 1 (without atexit handlers, which
// would wait for the tasks of a runtime this thread may be inside).
[[noreturn]] void memory_error_for_task(const char *label, const char *file, int line,
                                        std::string_view message);

} // namespace gpuss
