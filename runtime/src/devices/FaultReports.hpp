// FaultReports: a fault in the runtime's copy of a task's region, or in a
// task's body, ends the run with a message that names the task.
//
// A region that reaches past the memory the program owns is silent on host
// workers until the body touches those bytes, and a device's copy of it
// faults inside the runtime's memcpy or CUDA copy, where a bare SIGSEGV
// names neither the task nor the region. So each runtime thread says, in a
// thread-local record, what it is doing now (Scope): copying which region
// of which task between which memory spaces, or running which task's body.
// Setting one is a few stores into a stack object and one pointer store
// into the thread's record, and one pointer store after.
//
// A SIGSEGV/SIGBUS handler, installed while a Runtime lives (Handler), reads
// the record of the thread that faulted:
//   - a copy: "gpuss: error: FILE:LINE: task 'LABEL': copying region ADDRESS
//     (N bytes) from the host to sim0 faulted at ADDRESS: the region reaches
//     memory the program does not own (past the end of its allocation?)",
//     and the process exits with status 1. The copy is the runtime's, so
//     this happens whatever handler the program has.
//   - a body, where the program has no handler of its own (the fault would
//     end the process with a bare SIGSEGV): "task 'LABEL' crashed with
//     SIGSEGV at ADDRESS in its body (on a host worker)", then the default
//     action, so the process still dies of the signal (core dump included).
//   - anything else (no record, a body where the program has a handler, a
//     signal sent with kill): the handler installed before, unchanged. The
//     runtime never takes a fault that the program's own handler expects.
// The handler only formats into a fixed buffer, write()s it and _exit()s:
// nothing that is not async-signal-safe.
//
// Threads: a Scope is set and read by the thread it describes (host
// workers, device workers; the handler runs on the thread that faulted).
// Handler and AlternateStack are made by the thread that owns them: the
// master for a Runtime's Handler, each worker for its stack.
#pragma once

#include "graph/Region.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gpuss::faults {

// What a runtime thread is doing, for the fault handler.
struct Activity {
  enum class Kind : std::uint8_t { Copy, Body };
  Kind kind = Kind::Body;
  const char *label = ""; // the task
  const char *file = "";
  int line = 0;
  // Body: where it runs ("a host worker", "sim0"). Copy: the memory the
  // bytes come from and go to ("the host", "sim0", "its renamed buffer").
  const char *from = "";
  const char *to = "";
  Region region;           // copies: the region copied, in the program's addresses
  std::uintptr_t host = 0; // copies: where its first byte is in the host memory the copy touches

  // The body of a task, running on `where`.
  static Activity body(const char *label, const char *file, int line, const char *where) {
    Activity activity;
    activity.label = label;
    activity.file = file;
    activity.line = line;
    activity.from = where;
    return activity;
  }
  // Copies of a task's data from `from` to `to`; region and host are set
  // for each piece.
  static Activity copy(const char *label, const char *file, int line, const char *from, const char *to) {
    Activity activity = body(label, file, line, from);
    activity.kind = Kind::Copy;
    activity.to = to;
    return activity;
  }
};

namespace detail {
// Initial-exec: the handler reads it with a plain thread-pointer load.
extern thread_local const Activity *current [[gnu::tls_model("initial-exec")]];
} // namespace detail

// Sets this thread's activity for its life, and restores the one before (a
// worker that waits for children runs other bodies inside a body).
class Scope {
public:
  explicit Scope(const Activity &activity) noexcept : previous_(detail::current) {
    // The handler runs on this thread: the record must be complete before
    // the pointer that publishes it is stored, as the compiler sees it.
    std::atomic_signal_fence(std::memory_order_release);
    detail::current = &activity;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~Scope() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    detail::current = previous_;
  }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;

private:
  const Activity *previous_;
};

// The handler is installed while at least one Handler is held: each Runtime
// holds one from its start to its finish. The first installs it, saving the
// handlers it replaces (the program's, or the defaults); the last puts them
// back, unless the program has installed another since.
class Handler {
public:
  Handler();
  ~Handler() { release(); }
  void release(); // idempotent
  Handler(const Handler &) = delete;
  Handler &operator=(const Handler &) = delete;

private:
  bool held_ = false;
};

// An alternate signal stack for this thread while it lives, unless the
// thread has one already: a body that overflows its stack still gets its
// message. Made by each worker thread that runs bodies.
class AlternateStack {
public:
  AlternateStack();
  ~AlternateStack();
  AlternateStack(const AlternateStack &) = delete;
  AlternateStack &operator=(const AlternateStack &) = delete;

private:
  void *stack_ = nullptr;
  std::size_t bytes_ = 0;
};

} // namespace gpuss::faults
