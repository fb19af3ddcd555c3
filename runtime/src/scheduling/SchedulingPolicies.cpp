// The scheduling policies behind CSS_SCHEDULER.
#include "scheduling/Scheduler.hpp"

namespace gpuss {

namespace {

// The first space with room: what a naive runtime does. Kept for comparison.
class EagerPolicy final : public SchedulingPolicy {
public:
  const char *name() const override { return "eager"; }
  std::size_t choose(const Task &, std::span<const Candidate>) override { return 0; }
};

// Spaces in turn, ignoring where the data is. Kept for comparison.
class RoundRobinPolicy final : public SchedulingPolicy {
public:
  const char *name() const override { return "round-robin"; }
  std::size_t choose(const Task &, std::span<const Candidate> candidates) override {
    // Rotate over space numbers, not candidate positions, so that a full
    // space does not shift the turn of the others.
    std::size_t best = 0;
    int best_distance = INT32_MAX;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      int distance = candidates[i].space - next_space_;
      if (distance < 0) distance += 1 << 16;
      if (distance < best_distance) best_distance = distance, best = i;
    }
    next_space_ = candidates[best].space + 1;
    return best;
  }

private:
  int next_space_ = 0;
};

// Cheapest completion: the time to fetch what is missing over the path's
// bandwidth plus the work already staged (GrCUDA's transfer-cost policy,
// StarPU's dmda), over every space, full or not: a task waits for the space
// that holds its data rather than dragging the data to whichever space
// frees up first. Data the task writes counts twice: moving it moves the
// value's home, and the next task that updates it pays again (in blocked
// codes this keeps each block's updates on one device, owner-computes).
// Ties, as at start when every space lacks the data equally, go to the space
// with fewer staged tasks and then in turn: that exploration keeps work from
// piling onto the first device.
//
// "locality-nowait" is the same choice among the spaces with room only: the
// task goes wherever room appears first. Kept to measure what waiting gains.
class LocalityPolicy final : public SchedulingPolicy {
public:
  explicit LocalityPolicy(bool wait) : wait_(wait) {}
  const char *name() const override { return wait_ ? "locality" : "locality-nowait"; }
  bool waits_for_affinity() const override { return wait_; }
  std::size_t choose(const Task &, std::span<const Candidate> candidates) override {
    auto cost = [](const Candidate &c) {
      double weighted_bytes = static_cast<double>(c.fetch_bytes + c.written_bytes);
      double per_byte = c.fetch_bytes > 0 ? c.fetch_seconds / static_cast<double>(c.fetch_bytes) : 0.0;
      return weighted_bytes * per_byte + c.queued_seconds;
    };
    std::size_t best = 0;
    for (std::size_t i = 1; i < candidates.size(); ++i) {
      const Candidate &a = candidates[i], &b = candidates[best];
      double cost_a = cost(a), cost_b = cost(b);
      // Costs within 2% are a tie: measured rates are not more exact.
      double tolerance = 0.02 * std::max(cost_a, cost_b);
      if (cost_a < cost_b - tolerance)
        best = i;
      else if (cost_a <= cost_b + tolerance) {
        if (a.staged < b.staged)
          best = i;
        else if (a.staged == b.staged && turn_prefers(a.space, b.space))
          best = i;
      }
    }
    last_space_ = candidates[best].space;
    return best;
  }

private:
  bool turn_prefers(int a, int b) const {
    auto distance = [&](int s) { return s > last_space_ ? s - last_space_ : s - last_space_ + (1 << 16); };
    return distance(a) < distance(b);
  }
  bool wait_;
  int last_space_ = 0;
};

} // namespace

std::unique_ptr<SchedulingPolicy> make_scheduling_policy(const std::string &name) {
  if (name == "locality" || name == "dmda") return std::make_unique<LocalityPolicy>(true);
  if (name == "locality-nowait") return std::make_unique<LocalityPolicy>(false);
  if (name == "eager") return std::make_unique<EagerPolicy>();
  if (name == "round-robin" || name == "rr") return std::make_unique<RoundRobinPolicy>();
  return nullptr;
}

} // namespace gpuss
