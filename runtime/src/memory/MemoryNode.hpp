// MemoryNode: what the directory needs to know of a memory space that is
// not host memory. Devices implement it (Device.hpp); the directory depends
// on nothing else of them, and never sends them anything: the copies it
// decides on go out through the helper (Directory::take_copy_orders).
//
// Helper thread only.
#pragma once

#include "memory/Coherence.hpp"

#include <string>

namespace gpuss {

class MemoryNode {
public:
  virtual ~MemoryNode() = default;
  virtual std::string name() const = 0;
  // Whether this space can read `from_space`'s memory directly (peer copies).
  virtual bool can_copy_from_device(int from_space) const = 0;
  // A replica now lives in `block`, or no longer does. Simulated devices
  // fill it with a poison pattern so that a stale read shows up in tests,
  // and check its guard zones (CSS_DEVICE_GUARD) after every task; CUDA
  // devices tell compute-sanitizer which parts of the pool are in use
  // (NVTX), so that an access outside every replica is reported.
  virtual void block_allocated(const DeviceBlock &) {}
  virtual void block_released(const DeviceBlock &) {}
};

} // namespace gpuss
