// OutOfCoreOrder: ranks for a graph whose data does not fit the devices'
// caches (CSS_OOC_ORDER).
//
// Ranked by the critical path alone, a right-looking factorisation updates
// the whole trailing matrix at every step, and out of core every step then
// streams it through the cache: about seven times the matrix from the host
// for Cholesky n = 131072 through 24 GiB, whatever the victims
// (performance.md, issue 20). Here the written data is cut into working
// sets of half the caches each, in the order of its last write in
// submission order (in a factorisation, block column after block column),
// and each task goes with the earliest working set it writes. A device then
// finishes one set, reading the results of earlier sets as they stream
// past, before it starts on the next: a left-looking order by groups of
// block columns, in which each finished panel is read once per set instead
// of the trailing matrix once per step. Within a set tasks keep submission
// order; a task that a task of an earlier set waits for goes with that set,
// so that a predecessor still outranks its successors. The helper holds
// ready tasks of later sets back (Helper::count_sets): the ranks alone do
// not keep a device from running them.
//
// Master thread, entering a barrier, after CriticalPath::rank_all.
#pragma once

#include "graph/Task.hpp"

#include <cstddef>
#include <vector>

namespace gpuss {

// When the distinct objects the unfinished tasks of `ranked` (in
// submission order, with their critical-path ranks) use exceed
// `cache_bytes`, the devices' caches together: re-ranks them by working
// sets and returns the number of sets. Otherwise 0, ranks unchanged.
std::size_t rank_out_of_core(const std::vector<TaskRef> &ranked, std::size_t cache_bytes);

} // namespace gpuss
