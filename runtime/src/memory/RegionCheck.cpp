#include "memory/RegionCheck.hpp"
#include "support/Fatal.hpp"
#include "memory/NextDefinition.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <initializer_list>
#include <map>
#include <mutex>
#include <new>
#include <pthread.h>
#include <string>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

// glibc's own entry points, for allocations made while dlsym is still
// looking up the next definition (dlsym may allocate memory of its own).
// Declared noexcept, as they are, so that the hooks below can jump to them
// rather than call them.
extern "C" void *__libc_malloc(std::size_t) noexcept;
extern "C" void *__libc_calloc(std::size_t, std::size_t) noexcept;
extern "C" void *__libc_memalign(std::size_t, std::size_t) noexcept;
extern "C" void *__libc_valloc(std::size_t) noexcept;
extern "C" void *__libc_pvalloc(std::size_t) noexcept;

namespace gpuss::region_check {

namespace hooks {
[[gnu::visibility("hidden")]] constinit std::atomic<bool> checking{false};
} // namespace hooks

namespace {

bool is_switch_on(const char *text) {
  for (const char *on : {"1", "yes", "true", "on"})
    if (std::strcmp(text, on) == 0) return true;
  return false;
}

std::once_flag turned_on;
bool heap_known = false;     // set once, under turned_on: heap_blocks_known()
bool mappings_known = false; // likewise: libgpuss sees munmap, mprotect and mremap

// Whether the allocation hooks record blocks now. heap_known is written
// before the flag is set, and read only after it is seen set.
bool recording_blocks() {
  return hooks::checking.load() && heap_known;
}

// ------------------------------------------------------------------ records

// Memory for the records' nodes, from mmap: the records are written inside
// malloc, which must not call itself. Guarded by the records' mutex.
class NodeArena {
public:
  void *take(std::size_t bytes) {
    bytes = round(bytes);
    if (bytes > largest) return map(bytes);
    void *&list = free_[bytes / granule - 1];
    if (list) {
      void *node = list;
      list = *static_cast<void **>(node);
      return node;
    }
    if (left_ < bytes) {
      void *chunk = map(chunk_bytes);
      if (!chunk) return nullptr;
      next_ = static_cast<std::byte *>(chunk);
      left_ = chunk_bytes;
    }
    void *node = next_;
    next_ += bytes;
    left_ -= bytes;
    return node;
  }
  void give(void *node, std::size_t bytes) {
    bytes = round(bytes);
    if (bytes > largest) {
      syscall(SYS_munmap, node, bytes);
      return;
    }
    void *&list = free_[bytes / granule - 1];
    *static_cast<void **>(node) = list;
    list = node;
  }

private:
  static constexpr std::size_t granule = 16, largest = 256, chunk_bytes = std::size_t{1} << 20;
  static std::size_t round(std::size_t bytes) { return (bytes + granule - 1) / granule * granule; }
  static void *map(std::size_t bytes) {
    void *memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return memory == MAP_FAILED ? nullptr : memory;
  }
  void *free_[largest / granule] = {};
  std::byte *next_ = nullptr;
  std::size_t left_ = 0;
};

constinit NodeArena arena;

template <typename T> struct ArenaAllocator {
  using value_type = T;
  ArenaAllocator() = default;
  template <typename U> ArenaAllocator(const ArenaAllocator<U> &) {}
  T *allocate(std::size_t n) {
    void *memory = arena.take(n * sizeof(T));
    if (!memory) throw std::bad_alloc();
    return static_cast<T *>(memory);
  }
  void deallocate(T *memory, std::size_t n) { arena.give(memory, n * sizeof(T)); }
  template <typename U> bool operator==(const ArenaAllocator<U> &) const { return true; }
};

// The live heap blocks: first byte -> bytes asked for.
using Blocks = std::map<std::uintptr_t, std::size_t, std::less<>,
                        ArenaAllocator<std::pair<const std::uintptr_t, std::size_t>>>;

struct Records {
  std::mutex mutex;
  Blocks blocks; // guarded by mutex
};

// Never destroyed: blocks are freed after static destructors run.
Records &records() {
  alignas(Records) static unsigned char storage[sizeof(Records)];
  static Records *instance = new (storage) Records;
  return *instance;
}

// The allocator's size of a block (what malloc_usable_size says), where the
// allocator after libgpuss answers for its own blocks; otherwise what was
// asked for.
using UsableSizeFn = std::size_t (*)(void *);
std::atomic<UsableSizeFn> usable_size_of{nullptr};

std::size_t usable_size(std::uintptr_t start, std::size_t asked) {
  UsableSizeFn fn = usable_size_of.load(std::memory_order_acquire);
  return fn ? std::max(asked, fn(reinterpret_cast<void *>(start))) : asked;
}

// -------------------------------------------------------- allocation hooks

// Each function the program calls runs `entry`, one relaxed load: until the
// first call, the lookup of the next definition; then that definition
// itself while checking is off, or a recording call of it while it is on.
template <typename Fn> struct Hook {
  NextDefinition<Fn> next;
  Fn first_call;
  Fn recording;
  std::atomic<Fn> entry;

  constexpr Hook(const char *name, Fn fallback, Fn first, Fn record)
      : next(name, fallback), first_call(first), recording(record), entry(first) {}

  // The entry to use from now on; installs it unless checking installed
  // the recording one meanwhile. Inside dlsym's own calls, the fallback.
  Fn resolve() {
    Fn fn = next.get();
    if (looking_up_next_definition) return fn;
    Fn expected = first_call;
    entry.compare_exchange_strong(expected, recording_blocks() ? recording : fn);
    return entry.load(std::memory_order_relaxed);
  }
  void record() {
    next.get();
    entry.store(recording, std::memory_order_relaxed);
  }
};

int posix_memalign_by_memalign(void **out, std::size_t alignment, std::size_t bytes) noexcept {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void *block = __libc_memalign(alignment, bytes);
  if (!block) return ENOMEM;
  *out = block;
  return 0;
}

using MallocFn = void *(*)(std::size_t) noexcept;
using CallocFn = void *(*)(std::size_t, std::size_t) noexcept;
using AlignedFn = void *(*)(std::size_t, std::size_t) noexcept;
using PosixMemalignFn = int (*)(void **, std::size_t, std::size_t) noexcept;

void *malloc_first(std::size_t) noexcept;
void *malloc_recording(std::size_t) noexcept;
void *calloc_first(std::size_t, std::size_t) noexcept;
void *calloc_recording(std::size_t, std::size_t) noexcept;
int posix_memalign_first(void **, std::size_t, std::size_t) noexcept;
int posix_memalign_recording(void **, std::size_t, std::size_t) noexcept;
void *aligned_alloc_first(std::size_t, std::size_t) noexcept;
void *aligned_alloc_recording(std::size_t, std::size_t) noexcept;
void *memalign_first(std::size_t, std::size_t) noexcept;
void *memalign_recording(std::size_t, std::size_t) noexcept;
void *valloc_first(std::size_t) noexcept;
void *valloc_recording(std::size_t) noexcept;
void *pvalloc_first(std::size_t) noexcept;
void *pvalloc_recording(std::size_t) noexcept;

constinit Hook<MallocFn> malloc_hook{"malloc", &__libc_malloc, &malloc_first, &malloc_recording};
constinit Hook<CallocFn> calloc_hook{"calloc", &__libc_calloc, &calloc_first, &calloc_recording};
constinit Hook<PosixMemalignFn> posix_memalign_hook{"posix_memalign", &posix_memalign_by_memalign,
                                                    &posix_memalign_first, &posix_memalign_recording};
constinit Hook<AlignedFn> aligned_alloc_hook{"aligned_alloc", &__libc_memalign, &aligned_alloc_first,
                                             &aligned_alloc_recording};
constinit Hook<AlignedFn> memalign_hook{"memalign", &__libc_memalign, &memalign_first, &memalign_recording};
constinit Hook<MallocFn> valloc_hook{"valloc", &__libc_valloc, &valloc_first, &valloc_recording};
constinit Hook<MallocFn> pvalloc_hook{"pvalloc", &__libc_pvalloc, &pvalloc_first, &pvalloc_recording};

void *malloc_first(std::size_t bytes) noexcept {
  return malloc_hook.resolve()(bytes);
}
void *malloc_recording(std::size_t bytes) noexcept {
  void *block = malloc_hook.next.get()(bytes);
  hooks::remember(block, bytes);
  return block;
}
void *calloc_first(std::size_t count, std::size_t size) noexcept {
  return calloc_hook.resolve()(count, size);
}
void *calloc_recording(std::size_t count, std::size_t size) noexcept {
  void *block = calloc_hook.next.get()(count, size);
  hooks::remember(block, count * size); // no overflow: the block exists
  return block;
}
int posix_memalign_first(void **out, std::size_t alignment, std::size_t bytes) noexcept {
  return posix_memalign_hook.resolve()(out, alignment, bytes);
}
int posix_memalign_recording(void **out, std::size_t alignment, std::size_t bytes) noexcept {
  int status = posix_memalign_hook.next.get()(out, alignment, bytes);
  if (status == 0) hooks::remember(*out, bytes);
  return status;
}
void *aligned_alloc_first(std::size_t alignment, std::size_t bytes) noexcept {
  return aligned_alloc_hook.resolve()(alignment, bytes);
}
void *aligned_alloc_recording(std::size_t alignment, std::size_t bytes) noexcept {
  void *block = aligned_alloc_hook.next.get()(alignment, bytes);
  hooks::remember(block, bytes);
  return block;
}
void *memalign_first(std::size_t alignment, std::size_t bytes) noexcept {
  return memalign_hook.resolve()(alignment, bytes);
}
void *memalign_recording(std::size_t alignment, std::size_t bytes) noexcept {
  void *block = memalign_hook.next.get()(alignment, bytes);
  hooks::remember(block, bytes);
  return block;
}
void *valloc_first(std::size_t bytes) noexcept {
  return valloc_hook.resolve()(bytes);
}
void *valloc_recording(std::size_t bytes) noexcept {
  void *block = valloc_hook.next.get()(bytes);
  hooks::remember(block, bytes);
  return block;
}
void *pvalloc_first(std::size_t bytes) noexcept {
  return pvalloc_hook.resolve()(bytes);
}
void *pvalloc_recording(std::size_t bytes) noexcept {
  void *block = pvalloc_hook.next.get()(bytes);
  hooks::remember(block, bytes);
  return block;
}

// Changes to the mappings, which the list read from /proc/self/maps must
// learn of (munmap is HostReleaseHooks.cpp's).
using MprotectFn = int (*)(void *, std::size_t, int);
using MremapFn = void *(*)(void *, std::size_t, std::size_t, int, ...);

int mprotect_syscall(void *address, std::size_t length, int protection) {
  return static_cast<int>(syscall(SYS_mprotect, address, length, protection));
}
void *mremap_syscall(void *address, std::size_t length, std::size_t new_length, int flags, ...) {
  va_list rest;
  va_start(rest, flags);
  void *new_address = (flags & MREMAP_FIXED) ? va_arg(rest, void *) : nullptr;
  va_end(rest);
  return reinterpret_cast<void *>(syscall(SYS_mremap, address, length, new_length, flags, new_address));
}

constinit NextDefinition<MprotectFn> next_mprotect{"mprotect", &mprotect_syscall};
constinit NextDefinition<MremapFn> next_mremap{"mremap", &mremap_syscall};

// ---------------------------------------------------------------- switches

// Whether every function named is libgpuss's where the program calls it: the
// first definition in the process of each lies in this library.
bool all_definitions_ours(std::initializer_list<const char *> names) {
  Dl_info self{};
  if (!dladdr(reinterpret_cast<void *>(&is_switch_on), &self)) return false;
  for (const char *name : names) {
    Dl_info found{};
    void *definition = dlsym(RTLD_DEFAULT, name);
    if (!definition || !dladdr(definition, &found) || found.dli_fbase != self.dli_fbase) return false;
  }
  return true;
}

// The allocator after libgpuss's malloc_usable_size, if it is the one that
// defines the next malloc (an allocator without one would be handed blocks
// it does not know).
UsableSizeFn next_usable_size() {
  void *size_fn = dlsym(RTLD_NEXT, "malloc_usable_size");
  void *malloc_fn = dlsym(RTLD_NEXT, "malloc");
  Dl_info size_object{}, malloc_object{};
  if (!size_fn || !malloc_fn || !dladdr(size_fn, &size_object) || !dladdr(malloc_fn, &malloc_object) ||
      size_object.dli_fbase != malloc_object.dli_fbase)
    return nullptr;
  return reinterpret_cast<UsableSizeFn>(size_fn);
}

// fork() holds the records' lock, so that the child finds them whole and
// unlocked whatever another thread was doing. Registered before most other
// libraries' handlers, so that this one's runs after theirs, which may
// allocate (prepare handlers run in the reverse order).
bool locked_for_fork = false; // by the forking thread, between its handlers

void lock_for_fork() {
  if (!recording_blocks()) return;
  records().mutex.lock();
  locked_for_fork = true;
}
void unlock_after_fork() {
  if (!locked_for_fork) return;
  locked_for_fork = false;
  records().mutex.unlock();
}

// Before the program's constructors and main: blocks allocated from then
// on are known. A malformed value is left to Config, which names it.
[[gnu::constructor]] void read_switch() {
  pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
  if (const char *value = std::getenv("CSS_CHECK_REGIONS"); value && is_switch_on(value)) turn_on();
}

// ---------------------------------------------------------------- mappings

struct Mapping {
  std::uintptr_t low = 0, high = 0;
  bool readable = false, writable = false;
};

struct Mappings {
  std::mutex mutex;
  std::vector<Mapping> list;       // sorted; guarded by mutex
  bool read = false;               // guarded by mutex
  std::atomic<bool> changed{true}; // by the munmap/mprotect/mremap hooks
};

Mappings &mappings() {
  static Mappings *instance = new Mappings; // immortal: checks may run during exit
  return *instance;
}

// Reads /proc/self/maps into `list`. Called with the mappings' mutex held,
// never the records': it allocates.
void read_mappings(std::vector<Mapping> &list) {
  list.clear();
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  std::string text;
  char buffer[16384];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(n));
  close(fd);
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    unsigned long long low = 0, high = 0;
    char permissions[5] = {};
    if (std::sscanf(text.c_str() + at, "%llx-%llx %4s", &low, &high, permissions) == 3)
      list.push_back(Mapping{static_cast<std::uintptr_t>(low), static_cast<std::uintptr_t>(high),
                             permissions[0] == 'r', permissions[1] == 'w'});
    at = end + 1;
  }
}

enum class Access { Fine, Unmapped, Unreadable, ReadOnly };

struct Finding {
  Access access = Access::Fine;
  std::uintptr_t at = 0; // first byte that is not fine
};

Finding walk(const std::vector<Mapping> &list, const Region &region, bool writes) {
  for (std::uintptr_t at = region.base; at < region.end();) {
    auto it = std::upper_bound(list.begin(), list.end(), at,
                               [](std::uintptr_t address, const Mapping &m) { return address < m.low; });
    if (it == list.begin() || (--it, at >= it->high)) return {Access::Unmapped, at};
    if (!it->readable) return {Access::Unreadable, at};
    if (writes && !it->writable) return {Access::ReadOnly, at};
    at = it->high;
  }
  return {};
}

Finding check_mappings(const Region &region, bool writes) {
  Mappings &maps = mappings();
  std::lock_guard lock(maps.mutex);
  // The list is trusted for a region that it says is fine only while the
  // hooks tell of unmapping and protection changes (not under a sanitizer).
  const bool trusted = hooks::on() && mappings_known;
  if (!maps.read || maps.changed.exchange(false) || !trusted) {
    read_mappings(maps.list);
    maps.read = true;
    return walk(maps.list, region, writes);
  }
  Finding finding = walk(maps.list, region, writes);
  if (finding.access == Access::Fine) return finding;
  // New mappings since the last read (a thread's stack, an mmap) are not
  // in the list: read it again before calling the region wrong.
  read_mappings(maps.list);
  return walk(maps.list, region, writes);
}

std::string hex(std::uintptr_t address) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", reinterpret_cast<void *>(address));
  return text;
}

std::string describe(const Region &region, std::uint32_t index) {
  std::string text = "region " + hex(region.base) + " (" + std::to_string(region.payload_bytes()) + " bytes";
  if (!region.is_contiguous())
    text += ": " + std::to_string(region.rows) + " rows of " + std::to_string(region.row_bytes) +
            ", stride " + std::to_string(region.stride);
  return text + ", access " + std::to_string(index) + ")";
}

} // namespace

// ------------------------------------------------------------- the hooks API

namespace hooks {

// Blocks are recorded only where every allocation function is libgpuss's:
// a block freed by a free() ahead of libgpuss's would stay recorded.
void remember(void *block, std::size_t bytes) {
  if (!block || !recording_blocks()) return;
  Records &r = records();
  std::lock_guard lock(r.mutex);
  try {
    r.blocks.insert_or_assign(reinterpret_cast<std::uintptr_t>(block), bytes);
  } catch (const std::bad_alloc &) {
    // No memory for the record (mmap failed): the block is checked as
    // other memory is, against the mappings.
  }
}

std::size_t forget(void *block) {
  if (!block || !recording_blocks()) return 0;
  Records &r = records();
  std::lock_guard lock(r.mutex);
  auto it = r.blocks.find(reinterpret_cast<std::uintptr_t>(block));
  if (it == r.blocks.end()) return 0;
  std::size_t bytes = it->second;
  r.blocks.erase(it);
  return bytes;
}

void mappings_changed() {
  mappings().changed.store(true, std::memory_order_relaxed);
}

} // namespace hooks

void turn_on() {
  std::call_once(turned_on, [] {
    heap_known = heap_blocks_known();
    mappings_known = all_definitions_ours({"munmap", "mprotect", "mremap"});
    if (heap_known) {
      usable_size_of.store(next_usable_size(), std::memory_order_release);
      records();
    }
    mappings();
    hooks::checking.store(true);
    if (heap_known) {
      malloc_hook.record();
      calloc_hook.record();
      posix_memalign_hook.record();
      aligned_alloc_hook.record();
      memalign_hook.record();
      valloc_hook.record();
      pvalloc_hook.record();
    }
  });
}

bool heap_blocks_known() {
  static const bool ours =
      all_definitions_ours({"malloc", "calloc", "realloc", "reallocarray", "free", "posix_memalign",
                            "aligned_alloc", "memalign", "valloc", "pvalloc"});
  return ours;
}

std::optional<std::string> problem(const Region &region, bool writes) {
  if (region.empty()) return std::nullopt;
  const std::uintptr_t base = region.base, end = region.end();
  if (recording_blocks()) {
    // The block the region starts in, or the first one it runs into. The
    // message is made after the lock is let go: it allocates, and an
    // allocation takes the lock.
    enum { Outside, Inside, PastTheEnd, IntoABlock } where = Outside;
    std::uintptr_t start = 0;
    std::size_t usable = 0;
    {
      Records &r = records();
      std::lock_guard lock(r.mutex);
      const Blocks &blocks = r.blocks;
      auto after = blocks.upper_bound(base); // the first block starting after the region's first byte
      if (after != blocks.begin()) {
        auto [first, asked] = *std::prev(after);
        if (std::size_t size = usable_size(first, asked); base < first + size) {
          where = end <= first + size ? Inside : PastTheEnd;
          start = first;
          usable = size;
        }
      }
      if (where == Outside && after != blocks.end() && after->first < end) {
        where = IntoABlock;
        start = after->first;
        usable = usable_size(after->first, after->second);
      }
    }
    if (where == Inside) return std::nullopt;
    if (where == PastTheEnd)
      return "reaches " + std::to_string(end - (start + usable)) + " bytes past the end of the " +
             std::to_string(usable) + "-byte block allocated at " + hex(start);
    if (where == IntoABlock)
      return "starts " + std::to_string(start - base) + " bytes before the " + std::to_string(usable) +
             "-byte block allocated at " + hex(start) + " and runs into it";
  }
  // Not in a heap block libgpuss knows: the mappings.
  Finding finding = check_mappings(region, writes);
  const std::string past = " (" + std::to_string(end - finding.at) + " bytes past the " +
                           (writes && finding.access == Access::ReadOnly ? "writable" : "accessible") +
                           " memory it starts in)";
  const bool from_start = finding.at == base;
  switch (finding.access) {
  case Access::Fine:
    return std::nullopt;
  case Access::Unmapped:
    return from_start ? "lies in unmapped memory at " + hex(base)
                      : "reaches unmapped memory at " + hex(finding.at) + past;
  case Access::Unreadable:
    return from_start ? "lies in memory the program cannot read at " + hex(base)
                      : "reaches memory the program cannot read at " + hex(finding.at) + past;
  case Access::ReadOnly:
    return from_start ? "is written by the task but lies in read-only memory at " + hex(base)
                      : "is written by the task but reaches read-only memory at " + hex(finding.at) + past;
  }
  return std::nullopt;
}

void check_task(const css_task_desc &desc) {
  for (std::uint32_t i = 0; i < desc.num_accesses; ++i) {
    const css_access &access = desc.accesses[i];
    Region region = Region::from(access.region);
    bool writes = access.direction == CSS_OUT || access.direction == CSS_INOUT;
    if (std::optional<std::string> what = problem(region, writes))
      memory_error_for_task(desc.label, desc.file, desc.line, describe(region, i) + " " + *what);
  }
}

} // namespace gpuss::region_check

using namespace gpuss::region_check;

extern "C" {

[[gnu::visibility("default")]] void *malloc(std::size_t bytes) noexcept {
  return malloc_hook.entry.load(std::memory_order_relaxed)(bytes);
}

[[gnu::visibility("default")]] void *calloc(std::size_t count, std::size_t size) noexcept {
  return calloc_hook.entry.load(std::memory_order_relaxed)(count, size);
}

[[gnu::visibility("default")]] int posix_memalign(void **out, std::size_t alignment,
                                                  std::size_t bytes) noexcept {
  return posix_memalign_hook.entry.load(std::memory_order_relaxed)(out, alignment, bytes);
}

[[gnu::visibility("default")]] void *aligned_alloc(std::size_t alignment, std::size_t bytes) noexcept {
  return aligned_alloc_hook.entry.load(std::memory_order_relaxed)(alignment, bytes);
}

[[gnu::visibility("default")]] void *memalign(std::size_t alignment, std::size_t bytes) noexcept {
  return memalign_hook.entry.load(std::memory_order_relaxed)(alignment, bytes);
}

[[gnu::visibility("default")]] void *valloc(std::size_t bytes) noexcept {
  return valloc_hook.entry.load(std::memory_order_relaxed)(bytes);
}

[[gnu::visibility("default")]] void *pvalloc(std::size_t bytes) noexcept {
  return pvalloc_hook.entry.load(std::memory_order_relaxed)(bytes);
}

[[gnu::visibility("default")]] int mprotect(void *address, std::size_t length, int protection) noexcept {
  int status = next_mprotect.get()(address, length, protection);
  if (hooks::on()) [[unlikely]]
    hooks::mappings_changed();
  return status;
}

[[gnu::visibility("default")]] void *mremap(void *address, std::size_t length, std::size_t new_length,
                                            int flags, ...) noexcept {
  va_list rest;
  va_start(rest, flags);
  void *new_address = (flags & MREMAP_FIXED) ? va_arg(rest, void *) : nullptr;
  va_end(rest);
  void *moved = next_mremap.get()(address, length, new_length, flags, new_address);
  if (hooks::on()) [[unlikely]]
    hooks::mappings_changed();
  return moved;
}

} // extern "C"
