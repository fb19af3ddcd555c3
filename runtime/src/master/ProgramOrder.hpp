// ProgramOrder: ranks for a graph that no task holds up (CSS_PROGRAM_ORDER).
//
// The critical-path ranks pay where a few tasks hold the rest up: a
// factorisation's panel at each step, which runs early so that the devices
// never wait for it. In a graph in which every rank is held by many tasks
// (GEMM's chains of equal updates to each C tile, independent pipelines)
// nothing holds anything up, and ranking by the chain that follows each task
// only turns the program's order into step order: GEMM's first step then
// needs every C tile at once and its last makes every C tile final at once,
// so that a first run starts and ends on copies (n = 32768 on one H200: 77%
// of cublasDgemm, performance.md). There the program's own order, which its
// author arranged for a sequential machine's caches, is the better one: each
// C tile through all its updates, in the order the loops name them. Such a
// graph is ranked by submission order.
//
// Master thread, entering a barrier, after CriticalPath::rank_all.
#pragma once

#include "graph/Task.hpp"

#include <cstddef>
#include <vector>

namespace gpuss {

// When every critical-path rank among the unfinished tasks of `ranked` (in
// submission order) is held by at least `min_width` tasks: re-ranks them in
// submission order and returns true. Otherwise false, ranks unchanged.
bool rank_wide_graph_in_program_order(const std::vector<TaskRef> &ranked, std::size_t min_width);

} // namespace gpuss
