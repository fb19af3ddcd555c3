// AccessGroups: which accesses of one task must share one storage.
//
// A task body reaches its data through its pointer arguments. The regions
// it reaches through one pointer (the regions of one parameter: a block and
// its halo strips, say; the translator gives them one css_access::group) and
// accesses that share bytes (an input and an inout of the same array, or two
// arguments that alias) must live in one storage laid out as user memory is:
// in user memory itself, never split over renamed buffers, and on a device
// one block holding every region at its offset. Otherwise pointer arithmetic
// from one region lands in another's buffer, and a write through one access
// is not seen through another.
//
// Several accesses of exactly the same region are one use of it, with their
// directions combined: `input(a) output(a)` reads and writes `a`, so it is
// neither renamed nor given two storages.
//
// Master thread (DependencyTracker::add_task), once per task.
#pragma once

#include "graph/Task.hpp"

#include <cstdint>
#include <vector>

namespace gpuss {

// One distinct region of a group, with what the task's accesses of it do.
struct GroupPart {
  Region region;
  bool reads = false;
  bool writes = false;
  bool copy_in = false; // some access that reads it wants the value on an accelerator
};

struct AccessGroup {
  std::vector<std::uint32_t> members; // indices into the task's accesses, ascending
  std::vector<GroupPart> parts;       // the distinct regions, in the order the accesses name them
  bool several_regions() const { return parts.size() > 1; }
};

// True when every non-empty access of the task stands alone: different
// groups (or none), no shared bytes. The common case, decided without
// allocating.
bool accesses_stand_alone(const std::vector<BoundAccess> &accesses);

// The groups of the task's non-empty accesses, each access in exactly one.
std::vector<AccessGroup> group_accesses(const std::vector<BoundAccess> &accesses);

} // namespace gpuss
