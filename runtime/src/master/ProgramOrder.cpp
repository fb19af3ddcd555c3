#include "master/ProgramOrder.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <unordered_map>

namespace gpuss {

namespace {

bool unfinished(const TaskRef &task) {
  return !task->completed.load(std::memory_order_acquire);
}

std::uint32_t rank_of(const Task &task) {
  return task.rank.load(std::memory_order_relaxed);
}

} // namespace

bool every_rank_is_wide(const std::vector<TaskRef> &ranked, std::size_t min_width) {
  // Ranks run from 1 (a task nothing follows) to the longest chain. An
  // unfinished task of rank r has an unfinished successor of rank r - 1, so
  // no level up to the highest is empty.
  std::vector<std::size_t> width;
  for (const TaskRef &task : ranked) {
    if (!unfinished(task)) continue;
    const std::uint32_t rank = rank_of(*task);
    if (rank >= width.size()) width.resize(rank + 1, 0);
    ++width[rank];
  }
  if (width.empty()) return false;
  for (std::size_t rank = 1; rank < width.size(); ++rank)
    if (width[rank] < min_width) return false;
  return true;
}

ProgramOrderLateness program_order_lateness(const std::vector<TaskRef> &ranked) {
  // The unfinished tasks by their place in submission order.
  std::vector<Task *> tasks;
  std::unordered_map<const Task *, std::uint32_t> place;
  for (const TaskRef &task : ranked)
    if (unfinished(task)) {
      place.emplace(task.get(), static_cast<std::uint32_t>(tasks.size()));
      tasks.push_back(task.get());
    }
  if (tasks.empty()) return {};

  // The helper runs tasks while the master looks, and a task that finishes
  // gives its successors up. Each task's successors are read once, under its
  // lock, last task first: a task unfinished when read has successors that
  // were unfinished when read before it (none can finish before it), so
  // every unfinished task's successors are read whole, as the ranks counted
  // them. One that had finished is a predecessor of everything: it delays
  // nothing any more.
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::vector<std::uint32_t>> successors(tasks.size());
  std::vector<bool> finished(tasks.size(), false);
  for (std::uint32_t p = static_cast<std::uint32_t>(tasks.size()); p-- > 0;) {
    std::lock_guard lock(tasks[p]->edges_mutex);
    finished[p] = tasks[p]->finished;
    for (const TaskRef &successor : tasks[p]->successors)
      if (auto it = place.find(successor.get()); it != place.end()) successors[p].push_back(it->second);
  }

  // One critical path: from the first unfinished task of the highest rank,
  // each step to the first successor one rank lower.
  std::uint32_t head = none;
  for (std::uint32_t p = 0; p < tasks.size(); ++p)
    if (!finished[p] && (head == none || rank_of(*tasks[p]) > rank_of(*tasks[head]))) head = p;
  if (head == none) return {};
  std::vector<std::uint32_t> path; // places
  std::vector<std::uint32_t> step_of(tasks.size(), none);
  for (std::uint32_t p = head; p != none;) {
    step_of[p] = static_cast<std::uint32_t>(path.size());
    path.push_back(p);
    std::uint32_t next = none;
    for (std::uint32_t s : successors[p])
      if (rank_of(*tasks[s]) + 1 == rank_of(*tasks[p]) && s < next) next = s;
    p = next;
  }
  if (path.size() != rank_of(*tasks[head])) return {}; // not the graph that was ranked

  // reach[p]: the first step of the path that task p leads to (itself if on
  // it). Submission order is topological, so walking it backwards sees
  // every successor first. The path is a chain: a task that leads to step i
  // leads to every later step, so p is a predecessor of step i exactly when
  // reach[p] <= i.
  std::vector<std::uint32_t> reach(tasks.size(), none);
  for (std::uint32_t p = static_cast<std::uint32_t>(tasks.size()); p-- > 0;) {
    if (step_of[p] != none)
      reach[p] = step_of[p];
    else if (finished[p])
      reach[p] = 0;
    else
      for (std::uint32_t s : successors[p])
        reach[p] = std::min(reach[p], reach[s]);
  }
  std::vector<std::size_t> reaching(path.size(), 0); // tasks whose first step is i
  for (std::uint32_t r : reach)
    if (r != none) ++reaching[r];

  // Step i's predecessors all come before it in the program; the other tasks
  // before it delay it.
  ProgramOrderLateness lateness{.most_tasks_ahead = 0, .path_length = path.size()};
  std::size_t predecessors_and_self = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    predecessors_and_self += reaching[i];
    if (path[i] + 1 > predecessors_and_self)
      lateness.most_tasks_ahead = std::max(lateness.most_tasks_ahead, path[i] + 1 - predecessors_and_self);
  }
  return lateness;
}

bool critical_path_comes_first(const std::vector<TaskRef> &ranked) {
  const ProgramOrderLateness lateness = program_order_lateness(ranked);
  return lateness.path_length > 0 && lateness.most_tasks_ahead <= lateness.path_length;
}

bool rank_in_program_order(const std::vector<TaskRef> &ranked) {
  const auto count = static_cast<std::size_t>(std::count_if(ranked.begin(), ranked.end(), unfinished));
  if (count == 0 || count >= std::numeric_limits<std::uint32_t>::max()) return false;
  // Earlier in the program, higher: the ready lists hand out the highest
  // first.
  auto next = static_cast<std::uint32_t>(count);
  for (const TaskRef &task : ranked)
    if (unfinished(task)) task->rank.store(next--, std::memory_order_relaxed);
  return true;
}

} // namespace gpuss
