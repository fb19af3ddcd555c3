// The scheduling policies behind CSS_SCHEDULER.
#include "Scheduler.hpp"

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
// StarPU's dmda). Ties, as at start when every space lacks the data equally,
// go to the space with fewer staged tasks and then in turn: that exploration
// keeps work from piling onto the first device.
class LocalityPolicy final : public SchedulingPolicy {
public:
  const char *name() const override { return "locality"; }
  std::size_t choose(const Task &, std::span<const Candidate> candidates) override {
    std::size_t best = 0;
    for (std::size_t i = 1; i < candidates.size(); ++i) {
      const Candidate &a = candidates[i], &b = candidates[best];
      double cost_a = a.fetch_seconds + a.queued_seconds, cost_b = b.fetch_seconds + b.queued_seconds;
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
  int last_space_ = 0;
};

} // namespace

std::unique_ptr<SchedulingPolicy> make_scheduling_policy(const std::string &name) {
  if (name == "locality" || name == "dmda") return std::make_unique<LocalityPolicy>();
  if (name == "eager") return std::make_unique<EagerPolicy>();
  if (name == "round-robin" || name == "rr") return std::make_unique<RoundRobinPolicy>();
  return nullptr;
}

} // namespace gpuss
