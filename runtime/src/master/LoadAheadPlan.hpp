// LoadAheadPlan: which objects to load into the devices ahead of the tasks
// that read them (CSS_LOAD_AHEAD), and in what order.
//
// Master thread, entering a barrier, after the critical-path ranks: the plan
// goes to the helper (HelperQueues::load_orders), which deals the loads out
// to the devices while their fetch engines would otherwise wait.
#pragma once

#include "graph/DependencyTracker.hpp"
#include "scheduling/Helper.hpp"

#include <vector>

namespace gpuss {

// `tasks`: the unfinished tasks in submission order, ranked.
// `cuda_devices`, `simulated_devices`: the kinds of accelerator present.
std::vector<LoadAhead> plan_loads_ahead(const std::vector<TaskRef> &tasks, DependencyTracker &tracker,
                                        bool cuda_devices, bool simulated_devices);

} // namespace gpuss
