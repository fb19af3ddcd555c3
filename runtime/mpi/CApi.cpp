// CApi: the css_mpi_ functions of gpuss_mpi.h, over the process's layer.
//
// Each call takes the process lock (Hooks.hpp, with_process_runtime), as
// the other C API calls do, and starts the layer first: distributed mode
// begins with the first of them. Built without MPI, the layer has one rank.
//
// Threads: the program's (master) thread; a call inside a task body is an
// error.
#include "support/Fatal.hpp"
#include "Hooks.hpp"
#include "Layer.hpp"
#include "graph/NestedTasks.hpp"
#include "gpuss_mpi.h"

#include <cmath>
#include <string>

namespace {

using gpuss::mpi::Layer;
using gpuss::mpi::Where;
using gpuss::fatal_at; // the call site of a css_mpi_*_at call

void refuse_in_task(const char *call) {
  if (gpuss::RunningTask *running = gpuss::running_task())
    gpuss::fatal_for_task(running->task->label, running->task->file, running->task->line,
                          std::string(call) + " called inside the task's body; distribution belongs to the "
                                              "main program");
}

// Runs fn(layer, runtime) under the process lock; the runtime is started
// only when `start` (a gather waits for tasks).
template <typename Fn> void with_layer(const char *call, bool start, Fn fn) {
  refuse_in_task(call);
  gpuss::with_process_runtime(start,
                              [&](gpuss::Runtime *runtime) { fn(gpuss::mpi::start_layer(), runtime); });
}

// p x q with p * q = size, p <= q, as square as possible.
void default_grid(int size, int &p, int &q) {
  p = 1;
  for (int d = 1; d * d <= size; ++d)
    if (size % d == 0) p = d;
  q = size / p;
}

// The grid css_mpi_block_cyclic* use: (p, q) as given, or the default one.
void grid_for(int size, int &p, int &q, const char *call, const char *file, int line) {
  if (p == 0 && q == 0) return default_grid(size, p, q);
  if (p <= 0 || q <= 0)
    fatal_at(file, line,
             std::string(call) + ": the grid " + std::to_string(p) + " x " + std::to_string(q) +
                 " is not positive (0 x 0 picks one for the number of ranks)");
  if (static_cast<long>(p) * q > size)
    fatal_at(file, line,
             std::string(call) + ": the grid " + std::to_string(p) + " x " + std::to_string(q) + " needs " +
                 std::to_string(static_cast<long>(p) * q) + " ranks; the program runs on " +
                 std::to_string(size));
}

} // namespace

extern "C" {

int css_mpi_init(void) {
  int size = 1;
  with_layer("css_mpi_init", false, [&](Layer &layer, gpuss::Runtime *) { size = layer.size(); });
  return size;
}

int css_mpi_rank(void) {
  int rank = 0;
  with_layer("css_mpi_rank", false, [&](Layer &layer, gpuss::Runtime *) { rank = layer.rank(); });
  return rank;
}

int css_mpi_size(void) {
  return css_mpi_init();
}

void css_mpi_owner_at(const void *address, size_t bytes, int rank, const char *file, int line) {
  with_layer("css_mpi_owner", false, [&](Layer &layer, gpuss::Runtime *) {
    layer.declare(gpuss::Region::contiguous(reinterpret_cast<std::uintptr_t>(address), bytes), rank,
                  Where{file, line, "css_mpi_owner"});
  });
}

void css_mpi_owner_region_at(const css_region *region, int rank, const char *file, int line) {
  if (region == nullptr) fatal_at(file, line, "css_mpi_owner_region: a null region");
  with_layer("css_mpi_owner_region", false, [&](Layer &layer, gpuss::Runtime *) {
    layer.declare(gpuss::Region::from(*region), rank, Where{file, line, "css_mpi_owner_region"});
  });
}

int css_mpi_block_cyclic_owner(int i, int j, int p, int q) {
  int size = css_mpi_size();
  grid_for(size, p, q, "css_mpi_block_cyclic_owner", "<css_mpi_block_cyclic_owner>", 0);
  if (i < 0 || j < 0)
    gpuss::fatal("css_mpi_block_cyclic_owner: tile (" + std::to_string(i) + ", " + std::to_string(j) +
                 ") has a negative index");
  return (i % p) * q + (j % q);
}

void css_mpi_block_cyclic_at(void *const *tiles, int m, int n, int ld, size_t tile_bytes, int p, int q,
                             const char *file, int line) {
  if (tiles == nullptr) fatal_at(file, line, "css_mpi_block_cyclic: a null array of tiles");
  if (m < 0 || n < 0 || ld < m)
    fatal_at(file, line,
             "css_mpi_block_cyclic: " + std::to_string(m) + " x " + std::to_string(n) +
                 " tiles with a leading dimension of " + std::to_string(ld) + " (it must be at least m)");
  with_layer("css_mpi_block_cyclic", false, [&](Layer &layer, gpuss::Runtime *) {
    grid_for(layer.size(), p, q, "css_mpi_block_cyclic", file, line);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        if (void *tile = tiles[static_cast<std::size_t>(j) * static_cast<std::size_t>(ld) + i])
          layer.declare(gpuss::Region::contiguous(reinterpret_cast<std::uintptr_t>(tile), tile_bytes),
                        (i % p) * q + (j % q), Where{file, line, "css_mpi_block_cyclic"});
  });
}

void css_mpi_forget_at(const void *address, size_t bytes, const char *file, int line) {
  (void)file;
  (void)line;
  with_layer("css_mpi_forget", false, [&](Layer &layer, gpuss::Runtime *) {
    layer.forget(gpuss::Region::contiguous(reinterpret_cast<std::uintptr_t>(address), bytes));
  });
}

void css_mpi_task_rank_at(int rank, const char *file, int line) {
  with_layer("css_mpi_task_rank", false, [&](Layer &layer, gpuss::Runtime *) {
    layer.place_next(rank, Where{file, line, "css_mpi_task_rank"});
  });
}

void css_mpi_gather_at(const void *address, size_t bytes, int root, const char *file, int line) {
  with_layer("css_mpi_gather", true, [&](Layer &layer, gpuss::Runtime *runtime) {
    layer.gather(*runtime, gpuss::Region::contiguous(reinterpret_cast<std::uintptr_t>(address), bytes), root,
                 Where{file, line, "css_mpi_gather"});
  });
}

void css_mpi_get_counters(css_mpi_counters *counters) {
  if (counters == nullptr) gpuss::fatal("css_mpi_get_counters: a null pointer");
  with_layer("css_mpi_get_counters", false,
             [&](Layer &layer, gpuss::Runtime *) { layer.counters(*counters); });
}

} // extern "C"
