// HostReleaseHooks: the runtime sees the program give memory back.
//
// libgpuss defines free, realloc, reallocarray and munmap. The program's
// calls of them, and those of every library loaded after libgpuss
// (libstdc++'s operator delete among them), reach these first: memory in
// which tasks named bytes has its page locks undone (PageLocks::forget)
// before the C library's function runs. That is what lets user memory stay
// page-locked from one barrier to the next, for pinned-speed copies, without
// the stale-pages hazard of PageLocks.hpp.
//
// Where something ahead of libgpuss defines free (a sanitizer's runtime, an
// allocator in LD_PRELOAD), these never run: active() says so, and the
// runtime then undoes its locks at every barrier instead (Config::pin_host).
//
// The state behind these functions is process-wide because free() has no
// other way to find it; it is no more than which PageLocks is watched and
// the address bounds of what its tasks named.
#pragma once

#include <cstdint>

namespace gpuss {
class PageLocks;
}

namespace gpuss::release_hooks {

// From now on, memory the program releases goes to `locks` first. One
// PageLocks at a time: false if another is attached.
bool attach(PageLocks &locks);
// Stops watching for `locks` (if attached), once the calls in progress have
// returned, so that `locks` may be destroyed.
void detach(PageLocks &locks);

// Whether the program's free() reaches libgpuss at all.
bool active();

// Called by PageLocks: tasks named bytes in [lo, hi). Releases outside the
// bounds of all such ranges return at once.
void watch(std::uintptr_t lo, std::uintptr_t hi);

// While one is alive, releases by this thread are not checked. The runtime's
// own threads and its API calls hold one: they never release memory tasks
// named (the runtime undoes the locks of its own buffers before freeing
// them), and a worker must never wait in a hook for leases its own copies
// hold.
class Exemption {
public:
  Exemption();
  ~Exemption();
  Exemption(const Exemption &) = delete;
  Exemption &operator=(const Exemption &) = delete;
};

} // namespace gpuss::release_hooks
