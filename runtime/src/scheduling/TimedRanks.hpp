// TimedRanks: a barrier's critical-path ranks weighed again by the time each
// kind of task takes (CSS_RANK_BY_TIME).
//
// The master ranks the unfinished tasks when it enters a barrier by the
// longest chain after each, counted in tasks (master/CriticalPath.hpp): a
// first run has timed nothing. Counted so, a chain of many short tasks
// outranks a few long ones (in LU, a block column's two dozen row swaps,
// most with nothing to do, outrank the next panel), and the devices fetch
// the data of several such chains at once instead of finishing the one the
// panels wait for. The helper learns each kind's duration as its tasks
// finish; whenever it has timed a kind it had not, it ranks the barrier's
// unfinished tasks again in time (HEFT's upward rank): each task weighs its
// kind's learned duration, an untimed kind the mean of the timed ones.
//
// Only critical-path rankings are weighed again: a graph the master put in
// program order or in out-of-core working sets keeps its order.
//
// Helper thread only.
#pragma once

#include "graph/Task.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace gpuss {

class TimedRanks {
public:
  // A barrier's critical-path ranking: its tasks in submission order (an
  // empty list for a ranking of another kind: nothing to weigh).
  void adopt(std::vector<TaskRef> ranked) { tasks_ = std::move(ranked); }
  bool empty() const { return tasks_.empty(); }

  // Ranks the unfinished tasks again, each weighing `seconds(task)` (no
  // value: untimed, weighs the mean of the timed kinds, a kind being a
  // label). False when no task is left to rank, or none is timed.
  bool rerank(const std::function<std::optional<double>(const Task &)> &seconds);

private:
  std::vector<TaskRef> tasks_; // submission order: a topological order
};

} // namespace gpuss
