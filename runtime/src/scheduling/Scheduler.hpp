// Scheduling policies: where the helper sends a ready task.
//
// The helper lists the memory spaces where the task may run, with what
// running it there would cost; a policy picks one. A policy that waits for
// affinity may pick a space that has no room now: the task then stays ready
// until that space has room, or until another space is about to run dry and
// takes it (the helper's stealing). Other policies see only spaces with room.
// CSS_SCHEDULER selects the policy by name.
//
// Helper thread only: a policy is made at start-up and then called by the
// helper alone.
#pragma once

#include "graph/Task.hpp"

#include <memory>
#include <span>
#include <string>

namespace gpuss {

struct Candidate {
  int space = 0;                 // 0 = host workers, 1.. = accelerators
  std::size_t fetch_bytes = 0;   // what the task would have to fetch there
  std::size_t written_bytes = 0; // of which the task writes: the value's home would move there
  std::size_t unlocked_bytes = 0; // of which host memory not page-locked yet (a first run)
  double fetch_seconds = 0;      // fetch_bytes over the measured bandwidth of the path
  double queued_seconds = 0;     // estimated work already staged there
  unsigned staged = 0;           // tasks staged there
  bool has_room = true;          // a task placed there now is staged at once
};

class SchedulingPolicy {
public:
  virtual ~SchedulingPolicy() = default;
  virtual const char *name() const = 0;
  // Whether candidates without room are listed (see above).
  virtual bool waits_for_affinity() const { return false; }
  // Helper thread. Returns an index into `candidates` (never empty).
  virtual std::size_t choose(const Task &task, std::span<const Candidate> candidates) = 0;
};

// "locality" (default), "locality-nowait", "eager" or "round-robin"; null for an unknown name.
std::unique_ptr<SchedulingPolicy> make_scheduling_policy(const std::string &name);

} // namespace gpuss
