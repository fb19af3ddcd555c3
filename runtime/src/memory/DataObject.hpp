// DataObject: one storage of a datum, with its copies in every memory space.
//
// A DataObject is what the directory tracks. The original object of a
// region is the user's own memory; renaming creates another object with a
// buffer of its own, like a fresh physical register. Each object has one
// Replica per memory space (space 0 is the host, 1.. are accelerators).
//
// Immutable fields (id, shape, host) are set by the master at creation and
// read by anyone. Replica state (Coherence.hpp) and `dirty_space` belong to
// the helper thread (the directory owner) alone.
#pragma once

#include "memory/Coherence.hpp"
#include "graph/Region.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace gpuss {

struct DataObject;

// One Replica per memory space. Most runs have the host and at most a few
// GPUs, so the first few live inline: an object costs one allocation fewer.
class ReplicaArray {
public:
  static constexpr std::size_t inline_capacity = 3;
  void resize(std::size_t count) {
    count_ = count;
    if (count > inline_capacity) heap_ = std::make_unique<Replica[]>(count);
  }
  std::size_t size() const { return count_; }
  Replica &operator[](std::size_t space) { return heap_ ? heap_[space] : inline_[space]; }
  const Replica &operator[](std::size_t space) const { return heap_ ? heap_[space] : inline_[space]; }

private:
  std::size_t count_ = 0;
  std::array<Replica, inline_capacity> inline_{};
  std::unique_ptr<Replica[]> heap_;
};

// One region of an object that stands for several (a task's regions that
// one pointer reaches, or that share bytes): a device replica holds all of
// them at their user-memory offsets, and copies move only these regions.
struct ObjectPart {
  Region region;
  bool fetched = false; // its value is copied to a device before the task (read, copy_in)
  bool written = false; // the task writes it: what a write-back copies home
  bool operator==(const ObjectPart &) const = default;
};

struct DataObject : std::enable_shared_from_this<DataObject> {
  std::uint64_t id = 0;
  // The user region this storage stands for. For an object of several
  // regions (`parts` not empty), the bytes from the first region's first
  // byte to the last one's end: the bytes between them are not its data.
  Region shape;
  std::vector<ObjectPart> parts; // empty: the object is `shape` itself
  std::byte *host = nullptr;     // host storage: user memory, or the renamed buffer
  bool renamed = false;
  std::unique_ptr<std::byte[]> renamed_buffer; // owns `host` when renamed
  std::size_t renamed_bytes = 0;
  // The task whose submission made this storage (its label and call site),
  // for a message about a copy no task is running for: a write-back or a
  // load ahead that faults (FaultReports.hpp). Set by the master before
  // the object is shared, like the fields above.
  const char *first_label = nullptr;
  const char *first_file = nullptr;
  int first_line = 0;

  // Submitted tasks that use this object and have not completed, counted
  // only when there are accelerators: the master adds at submit, the helper
  // subtracts at completion. Zero while the master waits in a barrier means
  // no task will touch the value again: it is final.
  std::atomic<std::uint32_t> unfinished_users{0};

  // Directory state, helper thread only.
  ReplicaArray replicas;              // one per memory space; [0] is the host
  bool write_back_when_final = false; // a barrier wants the value home as soon as it is final
  int dirty_space = 0;                // the space whose replica the host lacks; 0 = host is up to date
  std::uint64_t version = 0;          // values its tasks have written so far
  bool in_alias_index = false;        // listed among originals with accelerator replicas
  // The expected positions of the unfinished tasks that use it, soonest
  // first (Directory::expect_order): its next use is the front, and an
  // object with none has no known future use (CSS_EVICTION=next-use).
  std::vector<std::uint64_t> upcoming_uses; // no allocation while empty (a deque allocates at once)
  // Ready tasks that use it and are not placed yet (Directory::note_ready,
  // note_placed; CSS_EVICTION=next-use): the device will take those next.
  std::uint32_t ready_uses = 0;

  std::size_t storage_bytes() const { return shape.span(); }
  bool has_parts() const { return !parts.empty(); }

  // Whether `region` shares a byte with this object's data.
  bool overlaps(const Region &region) const {
    if (!has_parts()) return shape.overlaps(region);
    for (const ObjectPart &part : parts)
      if (part.region.overlaps(region)) return true;
    return false;
  }
  bool overlaps(const DataObject &other) const {
    if (!other.has_parts()) return overlaps(other.shape);
    for (const ObjectPart &part : other.parts)
      if (overlaps(part.region)) return true;
    return false;
  }
  // Whether the bytes this object's tasks write (all of it, or for an
  // object of several regions those it writes) share a byte with `other`.
  bool writes_into(const DataObject &other) const {
    if (!has_parts()) return other.overlaps(shape);
    for (const ObjectPart &part : parts)
      if (part.written && other.overlaps(part.region)) return true;
    return false;
  }
};

// Shared ownership: tasks and the dependency tracker hold references; when
// the last one goes, the deleter hands the object to the helper (which owns
// its replicas) through the retire queue.
using DataObjectRef = std::shared_ptr<DataObject>;

} // namespace gpuss
