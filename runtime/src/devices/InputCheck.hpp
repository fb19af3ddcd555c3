// InputCheck: a task body that writes a region its task names only as input
// (CSS_CHECK_REGIONS).
//
// The runtime trusts the clauses: an `input` region is not copied back from
// a device and is not renamed for the task, so a body that writes it changes
// the program's memory on a host worker (later readers see the change) and
// only a device's copy elsewhere (they do not): results that depend on where
// the task ran, with no message. With CSS_CHECK_REGIONS=1, workers whose
// memory the host can read (host workers, simulated devices) hash each input
// region before the body and again after it, and a changed one is an error
// at the task's call. Regions the task also writes through another clause
// are left out.
//
// The worker running the task, around its body.
#pragma once

#include "graph/Task.hpp"

#include <cstdint>
#include <vector>

namespace gpuss {

class InputCheck {
public:
  // Hashes the task's input regions at `addresses` (where its body sees them).
  InputCheck(const Task &task, const std::vector<void *> &addresses);
  // After the body: an error (Fatal.hpp) naming the task and the region if
  // one of them changed.
  void verify() const;

private:
  struct Watched {
    std::size_t access;
    std::uint64_t hash;
  };
  std::uint64_t hash_of(std::size_t access) const;

  const Task &task_;
  const std::vector<void *> &addresses_;
  std::vector<Watched> watched_;
};

} // namespace gpuss
