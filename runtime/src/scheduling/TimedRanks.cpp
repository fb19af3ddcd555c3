#include "scheduling/TimedRanks.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace gpuss {

bool TimedRanks::rerank(const std::function<std::optional<double>(const Task &)> &seconds) {
  std::erase_if(tasks_, [](const TaskRef &t) { return t->completed.load(std::memory_order_acquire); });
  if (tasks_.empty()) return false;
  std::vector<std::optional<double>> weight(tasks_.size());
  std::unordered_map<const char *, double> timed_kinds; // labels are string literals: one address a kind
  for (std::size_t i = 0; i < tasks_.size(); ++i)
    if ((weight[i] = seconds(*tasks_[i]))) timed_kinds.emplace(tasks_[i]->label, *weight[i]);
  if (timed_kinds.empty()) return false;
  double timed_sum = 0;
  for (const auto &kind : timed_kinds)
    timed_sum += kind.second;
  const double untimed = timed_sum / static_cast<double>(timed_kinds.size());
  // Ranks in microseconds, at least 1 a task, so that a chain still
  // outranks its own tail; 32 bits hold paths of an hour.
  auto micros = [](double s) {
    return static_cast<std::uint32_t>(std::clamp(std::llround(s * 1e6), 1LL, 1LL << 24));
  };
  // Walking submission order backwards sees every successor before its
  // predecessors (CriticalPath.cpp). A finished successor holds nothing up
  // and does not count.
  for (std::size_t i = tasks_.size(); i-- > 0;) {
    Task &task = *tasks_[i];
    std::uint32_t longest = 0;
    {
      std::lock_guard lock(task.edges_mutex);
      for (const TaskRef &successor : task.successors)
        if (!successor->completed.load(std::memory_order_acquire))
          longest = std::max(longest, successor->rank.load(std::memory_order_relaxed));
    }
    const std::uint64_t rank = std::uint64_t{longest} + micros(weight[i].value_or(untimed));
    task.rank.store(static_cast<std::uint32_t>(std::min<std::uint64_t>(rank, UINT32_MAX)),
                    std::memory_order_relaxed);
  }
  return true;
}

} // namespace gpuss
