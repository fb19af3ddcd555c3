#include "memory/HostReleaseHooks.hpp"
#include "memory/NextDefinition.hpp"
#include "memory/RegionCheck.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

// glibc's own entry points, for releases that arrive while dlsym is still
// looking up the next definition (dlsym may free memory of its own).
extern "C" void __libc_free(void *);
extern "C" void *__libc_realloc(void *, std::size_t);

namespace gpuss {

thread_local bool looking_up_next_definition [[gnu::tls_model("initial-exec")]] = false;

} // namespace gpuss

namespace gpuss::release_hooks {

namespace {

// Initial-exec: a plain thread-pointer load, with no call that could
// allocate, since these are read inside free().
[[gnu::tls_model("initial-exec")]] thread_local int exempt_depth = 0;
[[gnu::tls_model("initial-exec")]] thread_local bool probing = false;
[[gnu::tls_model("initial-exec")]] thread_local bool probe_seen = false;

// Constant-initialised: valid before any constructor runs, since other
// libraries' constructors may free memory before ours.
struct Watch {
  std::atomic<Listener *> listener{nullptr};
  std::atomic<std::uintptr_t> lowest{UINTPTR_MAX}, highest{0}; // bounds of the named bytes
  std::atomic<int> calls{0};                                   // slow paths running
};
constinit Watch watched;

using FreeFn = void (*)(void *);
using ReallocFn = void *(*)(void *, std::size_t);
using ReallocArrayFn = void *(*)(void *, std::size_t, std::size_t);
using MunmapFn = int (*)(void *, std::size_t);

int munmap_syscall(void *address, std::size_t length) {
  return static_cast<int>(syscall(SYS_munmap, address, length));
}
void *reallocarray_by_realloc(void *pointer, std::size_t count, std::size_t size);

constinit NextDefinition<FreeFn> next_free{"free", &__libc_free};
constinit NextDefinition<ReallocFn> next_realloc{"realloc", &__libc_realloc};
constinit NextDefinition<ReallocArrayFn> next_reallocarray{"reallocarray", &reallocarray_by_realloc};
constinit NextDefinition<MunmapFn> next_munmap{"munmap", &munmap_syscall};

void *reallocarray_by_realloc(void *pointer, std::size_t count, std::size_t size) {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return next_realloc.get()(pointer, bytes);
}

// Looked up while the process is still single-threaded, before main. A
// child made by fork() watches nothing: CUDA cannot be used there, and the
// listener's state may be locked by a thread the child does not have.
[[gnu::constructor]] void resolve_next_definitions() {
  next_free.get();
  next_realloc.get();
  next_reallocarray.get();
  next_munmap.get();
  pthread_atfork(nullptr, nullptr, [] { watched.listener.store(nullptr, std::memory_order_relaxed); });
}

// [lo, hi) is about to be released: the listener first, if tasks may have
// named any of it.
void before_release(std::uintptr_t lo, std::uintptr_t hi, ReleaseKind kind) {
  if (hi <= watched.lowest.load(std::memory_order_relaxed) ||
      lo >= watched.highest.load(std::memory_order_relaxed))
    return;
  Exemption exempt; // the listener allocates and frees memory of its own, and may wait
  watched.calls.fetch_add(1, std::memory_order_seq_cst);
  if (Listener *listener = watched.listener.load(std::memory_order_seq_cst))
    listener->before_release(reinterpret_cast<void *>(lo), hi - lo, kind);
  watched.calls.fetch_sub(1, std::memory_order_release);
}

bool watching() {
  return watched.listener.load(std::memory_order_relaxed) != nullptr && exempt_depth == 0;
}

// A block from malloc and its kin, about to be freed or moved.
void before_free(void *pointer, ReleaseKind kind) {
  if (probing) [[unlikely]]
    probe_seen = true;
  if (!pointer || !watching()) return;
  std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(pointer);
  if (lo >= watched.highest.load(std::memory_order_relaxed)) return;
  before_release(lo, lo + malloc_usable_size(pointer), kind);
}

} // namespace

bool attach(Listener &listener) {
  Listener *none = nullptr;
  if (!watched.listener.compare_exchange_strong(none, &listener, std::memory_order_seq_cst)) return false;
  // Bounds left by an earlier listener would only slow the fast path down;
  // tasks named nothing yet for this one (the runtime attaches before any
  // submit).
  watched.lowest.store(UINTPTR_MAX, std::memory_order_relaxed);
  watched.highest.store(0, std::memory_order_relaxed);
  return true;
}

void detach(Listener &listener) {
  Listener *expected = &listener;
  if (!watched.listener.compare_exchange_strong(expected, nullptr, std::memory_order_seq_cst)) return;
  while (watched.calls.load(std::memory_order_seq_cst) != 0)
    std::this_thread::yield();
}

bool active() {
  // Releases a block through whatever free() the program's own calls reach.
  static const bool routed = [] {
    auto allocate = reinterpret_cast<void *(*)(std::size_t)>(dlsym(RTLD_DEFAULT, "malloc"));
    auto release = reinterpret_cast<void (*)(void *)>(dlsym(RTLD_DEFAULT, "free"));
    if (!allocate || !release) return false;
    probing = true;
    probe_seen = false;
    release(allocate(64));
    probing = false;
    return probe_seen;
  }();
  return routed;
}

void watch(std::uintptr_t lo, std::uintptr_t hi) {
  std::uintptr_t lowest = watched.lowest.load(std::memory_order_relaxed);
  while (lo < lowest && !watched.lowest.compare_exchange_weak(lowest, lo, std::memory_order_relaxed)) {
  }
  std::uintptr_t highest = watched.highest.load(std::memory_order_relaxed);
  while (hi > highest && !watched.highest.compare_exchange_weak(highest, hi, std::memory_order_relaxed)) {
  }
}

Exemption::Exemption() {
  ++exempt_depth;
}
Exemption::~Exemption() {
  --exempt_depth;
}

} // namespace gpuss::release_hooks

using namespace gpuss::release_hooks;
namespace region_check = gpuss::region_check::hooks;

namespace {

// realloc and reallocarray under CSS_CHECK_REGIONS: the block's record
// moves with it (RegionCheck.hpp). Forgotten before the call, so that a
// block the call frees is never recorded when another thread gets its
// addresses; put back if the call fails.
template <typename Call> void *moved_block(void *pointer, std::size_t bytes, Call call) {
  std::size_t before = region_check::forget(pointer);
  void *moved = call();
  if (moved)
    region_check::remember(moved, bytes);
  else if (bytes != 0 && before != 0)
    region_check::remember(pointer, before); // failed: the old block stays
  return moved;
}

} // namespace

extern "C" {

[[gnu::visibility("default")]] void free(void *pointer) noexcept {
  before_free(pointer, ReleaseKind::Freed);
  if (region_check::on()) [[unlikely]]
    region_check::forget(pointer);
  next_free.get()(pointer);
}

[[gnu::visibility("default")]] void *realloc(void *pointer, std::size_t bytes) noexcept {
  before_free(pointer, ReleaseKind::Moved);
  if (region_check::on()) [[unlikely]]
    return moved_block(pointer, bytes, [&] { return next_realloc.get()(pointer, bytes); });
  return next_realloc.get()(pointer, bytes);
}

[[gnu::visibility("default")]] void *reallocarray(void *pointer, std::size_t count,
                                                  std::size_t size) noexcept {
  before_free(pointer, ReleaseKind::Moved);
  if (region_check::on()) [[unlikely]]
    return moved_block(pointer, count * size, [&] { return next_reallocarray.get()(pointer, count, size); });
  return next_reallocarray.get()(pointer, count, size);
}

[[gnu::visibility("default")]] int munmap(void *address, std::size_t length) noexcept {
  if (watching()) {
    std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(address);
    before_release(lo, length > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + length, ReleaseKind::Freed);
  }
  int status = next_munmap.get()(address, length);
  if (region_check::on()) [[unlikely]]
    region_check::mappings_changed();
  return status;
}

} // extern "C"
