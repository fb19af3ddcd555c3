// Scheduling policies: where the helper sends a ready task.
//
// The helper lists the memory spaces where the task may run and that have
// room for it, with what running it there would cost; a policy picks one.
// CSS_SCHEDULER selects the policy by name.
#pragma once

#include "Task.hpp"

#include <memory>
#include <span>
#include <string>

namespace gpuss {

struct Candidate {
  int space = 0;               // 0 = host workers, 1.. = accelerators
  std::size_t fetch_bytes = 0; // what the task would have to fetch there
  double fetch_seconds = 0;    // fetch_bytes over the measured bandwidth of the path
  double queued_seconds = 0;   // estimated work already staged there
  unsigned staged = 0;         // tasks staged there
};

class SchedulingPolicy {
public:
  virtual ~SchedulingPolicy() = default;
  virtual const char *name() const = 0;
  // Helper thread. Returns an index into `candidates` (never empty).
  virtual std::size_t choose(const Task &task, std::span<const Candidate> candidates) = 0;
};

// "locality" (default), "eager" or "round-robin"; null for an unknown name.
std::unique_ptr<SchedulingPolicy> make_scheduling_policy(const std::string &name);

} // namespace gpuss
