// Transfer and Completion: a copy of an object between memory spaces, and
// what a worker reports when a command it was given is done.
//
// The directory (helper thread) creates transfers and consumes completions;
// device workers carry them out and report them.
#pragma once

#include "memory/DataObject.hpp"
#include "graph/Task.hpp"

#include <cstdint>
#include <vector>

namespace gpuss {

// One copy of an object's bytes from one memory space to another.
//
// An object of one region is copied whole. An object of several regions
// (DataObject::parts) is copied region by region, each at its offset: into a
// device, the regions its tasks read (a fetch or a load); into the host, the
// regions they write (a write-back). The bytes between its regions belong to
// other data, which a copy must neither read stale nor overwrite.
//
// An alias copy (`source_object` set) moves bytes between the copies of two
// overlapping objects on one device, without the host (Directory.hpp,
// "Overlapping objects on one device"): `object` is the one whose copy is
// written, `source_object` the one whose copy is read; the bytes are the
// smaller one's, which the larger contains, at the same offsets (replicas
// keep the layout of user memory), and `source`/`destination` point at the
// smaller one's first byte in each copy.
struct Transfer {
  DataObjectRef object;
  int from_space = 0;
  int to_space = 0;
  std::byte *source = nullptr;      // address of the object's first byte in from_space
  std::byte *destination = nullptr; // likewise in to_space
  std::uint64_t version = 0;        // the object's value it copies (DataObject::version)
  DataObjectRef source_object;      // an alias copy: the object whose copy it reads
  // An alias copy of the source's bytes into a part of `object`'s copy, one
  // of several that fill it (the bytes copied are the source's).
  bool into_part = false;
  // Its end makes the destination's copy current (Replica::land). False for
  // all but the last of the copies that fill a copy a reader assembles
  // from parts (Directory::plan), and for every copy into a part of a
  // writer's copy, which is the writer's alone until its task ends.
  bool lands = true;

  bool is_alias_copy() const { return source_object != nullptr; }
  // The object whose copy is read (its reader count goes with the copy), and
  // the one whose regions are copied.
  DataObject &reads_from() const { return source_object ? *source_object : *object; }
  const DataObject &regions_of() const { return into_part ? *source_object : *object; }

  // Calls fn(offset, shape) for each region to copy, `offset` bytes after
  // the first byte of regions_of().
  template <typename Fn> void for_each_piece(Fn fn) const {
    const DataObject *object = &regions_of();
    if (!object->has_parts()) {
      fn(std::size_t{0}, object->shape);
      return;
    }
    const bool write_back = to_space == 0;
    for (const ObjectPart &part : object->parts)
      if (write_back ? part.written : part.fetched) fn(part.region.base - object->shape.base, part.region);
  }
  std::uint64_t payload_bytes() const {
    std::uint64_t bytes = 0;
    for_each_piece([&](std::size_t, const Region &shape) { bytes += shape.payload_bytes(); });
    return bytes;
  }
};

// What a worker reports back to the helper.
struct Completion {
  TaskRef task;  // null for transfer-only commands
  int space = 0; // where it ran
  std::vector<Transfer> transfers;
  bool released = false; // the worker already released the task's successors (DirectRelease)
};

// The bytes a list of transfers moves.
std::uint64_t payload_bytes(const std::vector<Transfer> &transfers);

} // namespace gpuss
