#include "master/CriticalPath.hpp"

#include <algorithm>
#include <utility>

namespace gpuss {

void CriticalPath::remember(const TaskRef &task) {
  // Finished tasks need no rank: dropping them whenever the list has doubled
  // keeps a program that rarely reaches a barrier from holding every task.
  if (since_barrier_.size() >= prune_at_) {
    std::erase_if(since_barrier_, [](const TaskRef &t) { return t->completed.load(std::memory_order_acquire); });
    prune_at_ = std::max<std::size_t>(4096, 2 * since_barrier_.size());
  }
  since_barrier_.push_back(task);
}

std::vector<TaskRef> CriticalPath::rank_all() {
  // Submission order is a topological order (edges only go to later tasks),
  // so walking it backwards sees every successor before its predecessors. A
  // finished task has given its successors up and ranks 1, which no longer
  // matters.
  for (auto it = since_barrier_.rbegin(); it != since_barrier_.rend(); ++it) {
    Task &task = **it;
    std::uint32_t longest = 0;
    {
      std::lock_guard lock(task.edges_mutex);
      for (const TaskRef &successor : task.successors)
        longest = std::max(longest, successor->rank.load(std::memory_order_relaxed));
    }
    task.rank.store(longest + 1, std::memory_order_relaxed);
  }
  prune_at_ = 4096;
  return std::exchange(since_barrier_, {});
}

} // namespace gpuss
