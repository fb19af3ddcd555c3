// HostReleaseHooks: the runtime sees the program give memory back.
//
// libgpuss defines free, realloc, reallocarray and munmap. The program's
// calls of them, and those of every library loaded after libgpuss
// (libstdc++'s operator delete among them), reach these first: a release
// that touches memory tasks named goes to the attached Listener before the
// C library's function runs. The runtime uses that twice over. A sequential
// program may free or realloc memory right after the call of a task that
// uses it, so the runtime first lets those tasks finish and brings their
// results home (Runtime.cpp, settle_before_release). And user memory may
// stay page-locked from one barrier to the next, for pinned-speed copies,
// without the stale-pages hazard of PageLocks.hpp, because its locks are
// undone here.
//
// Where something ahead of libgpuss defines free (a sanitizer's runtime, an
// allocator in LD_PRELOAD), these never run: active() says so, and the
// runtime then undoes its locks at every barrier instead (Config::pin_host).
//
// The state behind these functions is process-wide because free() has no
// other way to find it; it is no more than which Listener is attached and
// the address bounds of what tasks named.
//
// The hooks run on whichever thread releases memory; the Listener is the
// master (Master::before_release), which settles tasks only when called on
// its own thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuss::release_hooks {

// Told of memory about to be released that may hold bytes tasks named.
// Runs on the releasing thread, inside free() and its kin, exempt from the
// hooks (below): it may allocate, free and wait.
// How the memory goes: freed (free, operator delete, munmap), or moved to a
// new block by realloc, which copies its bytes after the listener returns.
enum class ReleaseKind { Freed, Moved };

class Listener {
public:
  virtual void before_release(void *address, std::size_t bytes, ReleaseKind kind) = 0;

protected:
  ~Listener() = default;
};

// From now on, memory the program releases goes to `listener` first. One
// Listener at a time: false if another is attached.
bool attach(Listener &listener);
// Stops telling `listener` (if attached), once the calls in progress have
// returned, so that it may be destroyed.
void detach(Listener &listener);

// Whether the program's free() reaches libgpuss at all.
bool active();

// Tasks named bytes in [lo, hi). Releases outside the bounds of all such
// ranges return at once.
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
