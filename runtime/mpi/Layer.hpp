// Layer: GPUSs over MPI, between the C API and the runtime (docs/mpi.md).
//
// Started by the first css_mpi_ call. From then on the C API sends the
// program's task calls and waits here (capi.cpp's hooks, Hooks.hpp): the
// Distribution decides, identically on every rank, where each task runs and
// which data move first; this rank submits the transfers it takes part in
// (a send or a receive, as external tasks the Transport carries out) and the
// task itself if it runs here, and nothing for tasks of other ranks. The
// local runtime orders the transfers with its own tasks by their regions, so
// its renaming, priorities, devices and caches work as without MPI.
//
// Threads: the master, under the process lock (capi.cpp), for everything
// but the Transport's own thread.
#pragma once

#include "Distribution.hpp"
#include "api/Runtime.hpp"
#include "Transport.hpp"

#include <atomic>
#include <memory>
#include <span>
#include <vector>

struct css_mpi_counters;

namespace gpuss::mpi {

class Layer {
public:
  Layer(std::unique_ptr<Transport> transport, const NetworkModel &network);

  int rank() const { return transport_->rank(); }
  int size() const { return transport_->size(); }
  const NetworkModel &network() const { return network_; }

  // The C API's calls, made in distributed mode. `runtime` is the process's.
  void submit(Runtime &runtime, const css_task_desc &desc);
  void barrier(Runtime &runtime);
  void wait_on(Runtime &runtime, std::span<const css_region> regions, const char *file = nullptr, int line = 0);
  void release(Runtime &runtime, std::span<const css_region> regions);
  // Before the runtime finishes: the barrier that brings every value home.
  void finish(Runtime &runtime);

  // css_mpi_owner, css_mpi_task_rank: no runtime needed.
  void declare(const Region &region, int owner, const Where &where);
  void place_next(int rank, const Where &where);
  void forget(const Region &range) { distribution_.forget(range); }
  // css_mpi_gather.
  void gather(Runtime &runtime, const Region &range, int root, const Where &where);

  void counters(css_mpi_counters &counters) const;
  // The css-mpi: line of the stats (CSS_STATS).
  std::string stats_line() const;
  // At exit: the Transport stops, and MPI is finalised if the layer started it.
  void shutdown() { transport_->shutdown(); }

private:
  // Submits this rank's part of each transfer; with `pending`, counts the
  // sends and receives submitted in it (they count it down when done).
  void submit_transfers(Runtime &runtime, const std::vector<Transfer> &transfers, const char *file, int line,
                        std::atomic<std::uint64_t> *pending = nullptr);
  static void wait_for(std::atomic<std::uint64_t> &pending);

  std::unique_ptr<Transport> transport_;
  NetworkModel network_;
  Distribution distribution_;
  std::vector<std::uint64_t> sent_to_;       // per rank: transfers to it so far (their sequence numbers)
  std::vector<std::uint64_t> received_from_; // per rank: transfers from it so far
  std::uint64_t tasks_run_ = 0, tasks_skipped_ = 0;
  // The transfers of a gather or wait on still under way: they count it
  // down from the Transport's thread, so it lives as long as the layer.
  std::atomic<std::uint64_t> pending_{0};
};

// The layer, once a css_mpi_ call has started it; null before.
Layer *layer();
// css_mpi_init: starts it (MPI too, under a launcher) if not yet started.
Layer &start_layer();

} // namespace gpuss::mpi
