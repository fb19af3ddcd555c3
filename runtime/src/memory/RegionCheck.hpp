// RegionCheck: CSS_CHECK_REGIONS=1, every region of every submitted task
// checked against what the program allocated.
//
// A region past the end of its malloc block is silent on host workers (the
// body reads a neighbour's bytes) and faults, or worse, overwrites the
// allocator's own data, when a device's copy or a write-back reaches it. In
// checking mode such a region is an error at the submission of its task:
//   gpuss: error: FILE:LINE: task 'LABEL': region ADDRESS (N bytes, access I)
//   reaches 8 bytes past the end of the 1000-byte block allocated at ADDRESS
// (exit status 1, as for the copy faults of FaultReports.hpp).
//
// Heap blocks: malloc_usable_size needs a block's start, which a region does
// not give, so while checking is on libgpuss records the live blocks in an
// interval map. It defines malloc, calloc, posix_memalign, aligned_alloc,
// memalign, valloc and pvalloc (operator new and the aligned new of
// libstdc++ call these), beside the free, realloc and reallocarray of
// HostReleaseHooks.cpp, in the same way: the program's calls, and those of
// the libraries loaded after libgpuss, reach them first, and they call the
// next definition. While checking is off each one costs the program a
// relaxed load of a function pointer and a jump to the C library's function
// (about 0.5 ns per malloc+free pair: performance.md).
// A block's size is what the allocator gives (malloc_usable_size): a region
// in the slack after the bytes asked for is not caught.
//
// Other memory (statics, stacks, mappings, blocks allocated before checking
// began) is checked against the process's mappings (/proc/self/maps, read
// again when munmap, mprotect or mremap changes them or when a region is not
// found): a region must lie in readable memory, and one the task writes in
// writable memory. A region past the end of a static array is not caught.
//
// The switch is read by a library constructor, before the program's own
// constructors run, so that blocks allocated before the runtime starts are
// known; a Runtime whose Config asks for checking turns it on too (blocks
// from before then are checked as other memory). Once on, it stays on for
// the life of the process: a block recorded then forgotten would leave a
// stale record behind.
//
// Where something ahead of libgpuss defines malloc or free (a sanitizer's
// runtime, an allocator in LD_PRELOAD), the program's calls do not reach
// libgpuss's definitions, or not all of them: heap_blocks_known() says so,
// no block is recorded, the runtime warns, and only the mappings are
// checked.
//
// Threads: any thread allocates and frees; the master (and a worker
// submitting a child task) checks. The records and the mappings each have a
// mutex; the allocation hooks take the first only while checking is on.
#pragma once

#include "graph/Region.hpp"
#include "gpuss.h"

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>

namespace gpuss::region_check {

// Turns checking on for the rest of the process (idempotent).
void turn_on();
// Whether the program's calls of malloc, free and their kin all reach
// libgpuss's, so that heap blocks are recorded while checking is on
// (whether or not it is on).
bool heap_blocks_known();

// Every region of `desc` (a checked descriptor) against the program's
// memory: the first one that is not the program's ends the process with an
// error naming the task (exit status 1). Any thread.
void check_task(const css_task_desc &desc);

// Why `region` is not memory the program owns, or nothing. `writes`: the
// task writes it.
std::optional<std::string> problem(const Region &region, bool writes);

// For the hooks of free, realloc, reallocarray, munmap, mprotect and mremap:
// heap blocks going and mappings changing. on() is one relaxed load, all
// they cost while checking is off.
namespace hooks {
// Hidden: read with one load, not through the global offset table.
[[gnu::visibility("hidden")]] extern constinit std::atomic<bool> checking;
inline bool on() {
  return checking.load(std::memory_order_relaxed);
}
// `block` is about to be freed or moved; returns the bytes it was recorded
// with (0 if unknown).
std::size_t forget(void *block);
void remember(void *block, std::size_t bytes);
// Memory was unmapped, or its protection changed.
void mappings_changed();
} // namespace hooks

} // namespace gpuss::region_check
