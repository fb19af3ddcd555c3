#include "master/ProgramOrder.hpp"

#include <algorithm>
#include <limits>

namespace gpuss {

bool rank_wide_graph_in_program_order(const std::vector<TaskRef> &ranked, std::size_t min_width) {
  // Ranks run from 1 (a task nothing follows) to the longest chain. An
  // unfinished task of rank r has an unfinished successor of rank r - 1, so
  // no level up to the highest is empty.
  std::vector<std::size_t> width;
  std::size_t unfinished = 0;
  for (const TaskRef &task : ranked) {
    if (task->completed.load(std::memory_order_acquire)) continue;
    const std::uint32_t rank = task->rank.load(std::memory_order_relaxed);
    if (rank >= width.size()) width.resize(rank + 1, 0);
    ++width[rank];
    ++unfinished;
  }
  if (unfinished == 0 || unfinished >= std::numeric_limits<std::uint32_t>::max()) return false;
  for (std::size_t rank = 1; rank < width.size(); ++rank)
    if (width[rank] < min_width) return false;
  // Earlier in the program, higher: the ready lists hand out the highest
  // first.
  auto next = static_cast<std::uint32_t>(unfinished);
  for (const TaskRef &task : ranked)
    if (!task->completed.load(std::memory_order_acquire)) task->rank.store(next--, std::memory_order_relaxed);
  return true;
}

} // namespace gpuss
