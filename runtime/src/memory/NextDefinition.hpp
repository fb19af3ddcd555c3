// NextDefinition: the C library's definition of a function that libgpuss
// defines too (free, malloc and their kin: HostReleaseHooks.cpp,
// RegionCheck.cpp).
//
// libgpuss's definitions come first for the program's calls, and pass each
// call on to the next definition: the C library's, or an allocator's loaded
// after libgpuss. It is looked up with dlsym(RTLD_NEXT) on first use, by
// whichever thread calls first. dlsym may allocate and free memory itself,
// which lands in these very definitions: while a thread looks one up, its
// calls go to glibc's own entry point (`fallback`) instead.
#pragma once

#include <atomic>
#include <dlfcn.h>

namespace gpuss {

// Initial-exec: a plain thread-pointer load, with no call that could
// allocate, since this is read inside malloc() and free().
extern thread_local bool looking_up_next_definition [[gnu::tls_model("initial-exec")]];

template <typename Fn> class NextDefinition {
public:
  constexpr NextDefinition(const char *name, Fn fallback) : name_(name), fallback_(fallback) {}
  Fn get() {
    if (Fn fn = resolved_.load(std::memory_order_acquire)) return fn;
    if (looking_up_next_definition) return fallback_;
    looking_up_next_definition = true;
    Fn fn = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name_));
    looking_up_next_definition = false;
    if (!fn) fn = fallback_;
    resolved_.store(fn, std::memory_order_release);
    return fn;
  }

private:
  const char *name_;
  Fn fallback_;
  std::atomic<Fn> resolved_{nullptr};
};

} // namespace gpuss
