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
struct Transfer {
  DataObjectRef object;
  int from_space = 0;
  int to_space = 0;
  std::byte *source = nullptr;      // address of the object's first byte in from_space
  std::byte *destination = nullptr; // likewise in to_space
  std::uint64_t version = 0;        // the object's value it copies (DataObject::version)

  // Calls fn(offset, shape) for each region to copy, `offset` bytes after
  // the object's first byte.
  template <typename Fn> void for_each_piece(Fn fn) const {
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
