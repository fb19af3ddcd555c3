// Hooks: what capi.cpp calls into runtime/mpi, and what it offers back.
//
// The only coupling between the C API and the MPI layer: capi.cpp routes the
// task calls and waits through the layer once a css_mpi_ call has started it
// (layer() is null before, and in programs that make none), names per-rank
// files and prints per-rank stats under mpirun. Without MPI the same code
// runs with one rank.
//
// Threads: the master, under the process lock, except with_process_runtime,
// which takes it.
#pragma once

#include <functional>

namespace gpuss {

class Runtime;
struct Config;

// capi.cpp: runs `fn` under the process lock with the process's runtime,
// started first when `start` is true (null otherwise if it is not running).
void with_process_runtime(bool start, const std::function<void(Runtime *)> &fn);

namespace mpi {

class Layer;
// The layer, once started (Layer.hpp); null before.
Layer *layer();
// Before a runtime starts: under a launcher with more than one process,
// CSS_TRACE and CSS_DAG get the rank in their names (trace.rank1.json), and
// the stats line is left to after_finish, which names the rank.
void adjust_config(Config &config);
// After the runtime finished: the css-stats: line with rank=, and the
// layer's css-mpi: line.
void after_finish(Runtime &runtime);

} // namespace mpi
} // namespace gpuss
