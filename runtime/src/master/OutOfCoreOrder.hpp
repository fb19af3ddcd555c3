// OutOfCoreOrder: ranks for a graph whose data does not fit the devices'
// caches (CSS_OOC_ORDER).
//
// Ranked by the critical path alone, a right-looking factorisation updates
// the whole trailing matrix at every step, and out of core every step then
// streams it through the cache: about seven times the matrix from the host
// for Cholesky n = 131072 through 24 GiB, whatever the victims
// (performance.md, issue 20). Here the data is cut into working sets of
// `set_bytes` each, in the order the critical-path order finishes writing
// it (in a factorisation, block column after block column), and each task
// goes with the earliest working set it writes. A device then finishes one
// set, reading the results of earlier sets as they stream past, before it
// starts on the next: a left-looking order by groups of block columns, in
// which each finished panel is read once per set instead of the trailing
// matrix once per step. Within a set, the critical-path ranks order the
// tasks as before; a task that a task of an earlier set waits for goes with
// that set, so that a predecessor still outranks its successors.
//
// Master thread, entering a barrier, after CriticalPath::rank_all.
#pragma once

#include "graph/Task.hpp"

#include <cstddef>
#include <vector>

namespace gpuss {

// The bytes of the distinct objects the unfinished tasks of `ranked` use.
std::size_t bytes_used(const std::vector<TaskRef> &ranked);

// Re-ranks `ranked` (the unfinished tasks in submission order, with their
// critical-path ranks) by working sets of `set_bytes`; returns the number of
// sets.
std::size_t rank_by_working_sets(const std::vector<TaskRef> &ranked, std::size_t set_bytes);

} // namespace gpuss
