// Fatal: how the runtime reports misuse and unrecoverable failures.
//
// Every message starts with "gpuss: error:" and, when a task is involved,
// names its label and the file:line of the call that submitted it. Misuse
// aborts. A task's region that is not the program's memory
// (CSS_CHECK_REGIONS) ends the process with exit status 1 instead, as a
// copy of such a region that faults does (FaultReports.hpp, which cannot
// call these: it runs in a signal handler): the message says all there is
// to say, and a core dump of the runtime would not add to it.
#pragma once

#include "gpuss.h"

#include <string_view>

namespace gpuss {

[[noreturn]] void fatal(std::string_view message);
[[noreturn]] void fatal_for_task(const css_task_desc *desc, std::string_view message);
// The same, for a task already submitted: its label and call site.
[[noreturn]] void fatal_for_task(const char *label, const char *file, int line, std::string_view message);
// The same message, then exit status 1 (without atexit handlers, which
// would wait for the tasks of a runtime this thread may be inside).
[[noreturn]] void memory_error_for_task(const char *label, const char *file, int line,
                                        std::string_view message);

} // namespace gpuss
