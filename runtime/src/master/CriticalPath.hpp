// CriticalPath: the tasks submitted since the last barrier, and their ranks
// (CSS_CRITICAL_PATH).
//
// When the master enters a barrier the graph up to it is complete: each
// unfinished task is ranked by the longest chain of tasks that follows it
// (HEFT's upward rank, counted in tasks), and the helper hands out ready
// tasks in that order. In a right-looking factorisation this runs the
// leading block columns ahead, so that later steps work on blocks already on
// the devices while the rest of the matrix is still arriving.
//
// Master thread only.
#pragma once

#include "graph/Task.hpp"

#include <vector>

namespace gpuss {

class CriticalPath {
public:
  // At submit.
  void remember(const TaskRef &task);
  // Entering a barrier: ranks every remembered task and returns them in
  // submission order, forgetting them.
  std::vector<TaskRef> rank_all();

private:
  std::vector<TaskRef> since_barrier_; // in submission order
  std::size_t prune_at_ = 4096;
};

} // namespace gpuss
