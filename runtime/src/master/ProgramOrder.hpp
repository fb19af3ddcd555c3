// ProgramOrder: ranks in the program's own order (CSS_PROGRAM_ORDER).
//
// The critical-path ranks pay where a few tasks hold the rest up: a
// factorisation's panel at each step, which runs early so that the devices
// never wait for it. They cost where they reorder what the program already
// ordered well:
//
// - In a graph in which every rank is held by many tasks (GEMM's chains of
//   equal updates to each C tile, independent pipelines) nothing holds
//   anything up, and ranking by the chain that follows each task only turns
//   the program's order into step order: GEMM's first step then needs every
//   C tile at once and its last makes every C tile final at once, so that a
//   first run starts and ends on copies (n = 32768 on one H200: 77% of
//   cublasDgemm, performance.md).
// - In a program that submits each task of the critical path right after
//   what it needs (a left-looking factorisation: block column j's updates
//   by every earlier step, then its panel), the program's order already
//   runs the critical path first, and it also finishes one block column
//   before the next. Counted ranks instead run every column's chain of row
//   swaps a step at a time (a chain of 23 swaps outranks the next column's
//   panel), so that at a first run's start every column's data is wanted at
//   once and none is complete until most of the matrix has arrived (LU
//   n = 49152 on one H200: 2.87-2.92 s in program order against 3.13,
//   performance.md, twelfth session).
//
// Either graph is ranked by submission order: the order its author arranged
// for a sequential machine's caches.
//
// Master thread, entering a barrier, after CriticalPath::rank_all.
#pragma once

#include "graph/Task.hpp"

#include <cstddef>
#include <vector>

namespace gpuss {

// Whether every critical-path rank among the unfinished tasks of `ranked`
// (in submission order, ranked by CriticalPath) is held by at least
// `min_width` tasks.
bool every_rank_is_wide(const std::vector<TaskRef> &ranked, std::size_t min_width);

// How late the program's order runs the critical path, along one critical
// path of the unfinished tasks of `ranked` (in submission order, ranked by
// CriticalPath).
struct ProgramOrderLateness {
  // The most unfinished tasks that the program submitted before one task of
  // the path without that task depending on them, directly or not:
  // submission order would run those first. 0 where each task of the path
  // comes right after its own predecessors; a left-looking LU's most is one
  // block column's chain of row swaps (22 at 24 block columns), a
  // right-looking one's a step's updates of the far columns (5,081).
  std::size_t most_tasks_ahead = 0;
  std::size_t path_length = 0; // tasks on the path; 0 where no path was found
};
ProgramOrderLateness program_order_lateness(const std::vector<TaskRef> &ranked);

// CSS_PROGRAM_ORDER=auto ranks a graph in program order where every rank is
// held by at least program_order_width tasks per executor (devices and host
// workers: every_rank_is_wide), or where the program runs the critical path
// first: no task of the path has more tasks ahead of it in the program that
// it does not need than the path is long. Left-looking, a factorisation's worst is about one block
// column's tasks (NT, or NT swaps) against a path of 3 NT (NT^2 with a
// chain of swaps per step); right-looking, a step's updates of the far
// block columns (NT^2 and more).
bool critical_path_comes_first(const std::vector<TaskRef> &ranked);

// Re-ranks the unfinished tasks of `ranked` by submission order, the first
// highest. False, ranks unchanged, where there is nothing to rank.
bool rank_in_program_order(const std::vector<TaskRef> &ranked);

} // namespace gpuss
