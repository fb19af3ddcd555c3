// CriticalSections.cpp: the locks behind OpenMP's critical and atomic
// constructs in OmpSs programs (css_critical_enter/held/leave, gpuss.h).
//
// Task bodies run on several workers at once, so a `#pragma omp critical`
// or `#pragma omp atomic` inside one must exclude the others, as it does
// under Nanos++. The translator turns each such construct into
//   for (css_critical_enter(name); css_critical_held(name); css_critical_leave(name))
//     <the construct's statement>
// which runs the statement once with the lock held. One lock per name for
// the whole process (OpenMP's rule: every unnamed critical shares one lock,
// each name has its own; atomics get a name of their own that no identifier
// can spell), so the table is process-wide state: the names come from many
// translation units, which share nothing else.
//
// Any thread, inside or outside task bodies, with or without a runtime: the
// locks do not start the runtime.
#include "support/Fatal.hpp"

#include "gpuss.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace {

// One named lock, and which thread holds it: css_critical_held asks "does
// this thread hold it", and entering it again on the holding thread (a
// critical nested in one of the same name) is reported instead of hanging.
struct NamedLock {
  std::mutex mutex;
  std::atomic<std::thread::id> holder{};
};

class CriticalSectionTable {
public:
  NamedLock &lock_named(const char *name) {
    std::string key = name ? name : "";
    std::lock_guard guard(table_mutex_);
    std::unique_ptr<NamedLock> &slot = locks_[key];
    if (!slot) slot = std::make_unique<NamedLock>();
    return *slot; // never erased: the reference stays valid
  }

private:
  std::mutex table_mutex_;
  std::unordered_map<std::string, std::unique_ptr<NamedLock>> locks_;
};

CriticalSectionTable &critical_sections();

// The lock of a name, looked up in the table once per thread and name: the
// translator passes string literals, whose addresses repeat on every pass.
// The text is compared too, since a caller's buffer may hold another name
// at the same address later.
NamedLock &lock_named(const char *name) {
  struct Seen {
    std::string text;
    NamedLock *lock = nullptr;
  };
  thread_local std::unordered_map<const char *, Seen> seen;
  const char *text = name ? name : "";
  Seen &entry = seen[name];
  if (entry.lock == nullptr || entry.text != text) entry = {text, &critical_sections().lock_named(name)};
  return *entry.lock;
}

CriticalSectionTable &critical_sections() {
  // Immortal, like the process runtime (capi.cpp): a task or a static
  // destructor may still take a lock while the process exits.
  static CriticalSectionTable *table = new CriticalSectionTable; // NOLINT: immortal singleton
  return *table;
}

std::string describe(const char *name) {
  if (name == nullptr || *name == '\0') return "the unnamed critical section";
  if (std::string_view(name) == "<atomic>") return "an atomic construct";
  return "critical section '" + std::string(name) + "'";
}

} // namespace

extern "C" {

void css_critical_enter(const char *name) {
  NamedLock &lock = lock_named(name);
  if (lock.holder.load(std::memory_order_relaxed) == std::this_thread::get_id())
    gpuss::fatal(describe(name) + " entered again by the thread inside it (a critical construct nested in "
                                  "one of the same name never ends; give the inner one another name)");
  lock.mutex.lock();
  lock.holder.store(std::this_thread::get_id(), std::memory_order_relaxed);
}

int css_critical_held(const char *name) {
  return lock_named(name).holder.load(std::memory_order_relaxed) == std::this_thread::get_id();
}

void css_critical_leave(const char *name) {
  NamedLock &lock = lock_named(name);
  if (lock.holder.load(std::memory_order_relaxed) != std::this_thread::get_id())
    gpuss::fatal(describe(name) + " left by a thread that is not inside it");
  lock.holder.store(std::thread::id{}, std::memory_order_relaxed);
  lock.mutex.unlock();
}

} // extern "C"
