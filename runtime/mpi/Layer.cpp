// Layer: the distributed task calls, barriers and waits (Layer.hpp).
#include "Layer.hpp"
#include "support/Config.hpp"
#include "support/Fatal.hpp"
#include "Hooks.hpp"
#include "graph/NestedTasks.hpp"
#include "graph/Task.hpp"
#include "gpuss_mpi.h"

#include <cstdio>
#include <cstdlib>

namespace gpuss::mpi {

namespace {

// Transfers are external tasks: their bodies never run (ExternalTasks.hpp).
void transfer_body(void *, const css_task_env *) {
  fatal("a worker ran an MPI transfer's body (a bug of the MPI layer)");
}

css_region to_css(const Region &region) {
  return css_region{reinterpret_cast<void *>(region.base), region.row_bytes, region.rows, region.stride};
}

} // namespace

Layer::Layer(std::unique_ptr<Transport> transport, const NetworkModel &network)
    : transport_(std::move(transport)), network_(network), distribution_(transport_->size()),
      sent_to_(static_cast<std::size_t>(transport_->size()), 0),
      received_from_(static_cast<std::size_t>(transport_->size()), 0) {}

void Layer::submit_transfers(Runtime &runtime, const std::vector<Transfer> &transfers, const char *file,
                             int line, std::atomic<std::uint64_t> *pending) {
  const int me = rank();
  for (const Transfer &transfer : transfers) {
    if (transfer.from != me && transfer.to != me) continue; // other ranks' business
    const bool send = transfer.from == me;
    TransferArgs args{};
    args.kind = send ? TransferArgs::Send : TransferArgs::Receive;
    args.peer = send ? transfer.to : transfer.from;
    // Both ranks number the transfers of their pair in the same order: the
    // message's tag, so that no receive can match another datum's message.
    args.sequence = send ? sent_to_[static_cast<std::size_t>(transfer.to)]++
                         : received_from_[static_cast<std::size_t>(transfer.from)]++;
    args.pending = pending;
    if (pending) pending->fetch_add(1, std::memory_order_relaxed);
    // A send reads the datum: after its writer, before the next. A receive
    // writes it: after the readers of the old value (or renamed), before the
    // readers of the new one.
    css_access access{to_css(transfer.region), static_cast<std::uint32_t>(send ? CSS_IN : CSS_OUT),
                      CSS_COPY_DEFAULT, 0};
    css_task_desc desc{GPUSS_ABI_VERSION,
                       CSS_DEVICE_SMP,
                       0,
                       1,
                       &access,
                       transfer_body,
                       &args,
                       sizeof args,
                       send ? "mpi_send" : "mpi_recv",
                       file,
                       line};
    runtime.submit_external(desc, *transport_);
  }
}

void Layer::wait_for(std::atomic<std::uint64_t> &pending) {
  for (std::uint64_t left = pending.load(std::memory_order_acquire); left != 0;
       left = pending.load(std::memory_order_acquire))
    pending.wait(left, std::memory_order_acquire);
}

void Layer::submit(Runtime &runtime, const css_task_desc &desc) {
  check_task_desc(desc); // on every rank, not only where it runs
  TaskPlacement placement = distribution_.place(desc);
  submit_transfers(runtime, placement.transfers, desc.file, desc.line);
  if (placement.rank == rank()) {
    runtime.submit(desc);
    ++tasks_run_;
  } else {
    ++tasks_skipped_;
  }
}

void Layer::barrier(Runtime &runtime) {
  submit_transfers(runtime, distribution_.home(), "<barrier>", 0);
  runtime.barrier();
  // Every rank's tasks before it are done when any rank's barrier returns,
  // and the ranks check that they made the same decisions.
  const double start = runtime.now();
  transport_->barrier(distribution_.digest());
  runtime.trace_event("mpi barrier", "barrier", start, runtime.now());
}

void Layer::finish(Runtime &runtime) {
  barrier(runtime);
}

void Layer::wait_on(Runtime &runtime, std::span<const css_region> regions, const char *file, int line) {
  // Every rank runs the code after the wait, which may read the value (and
  // decide what to call next by it): every rank gets it.
  for (const css_region &user_region : regions) {
    const Region region = Region::from(user_region);
    if (auto problem = region.misuse()) {
      if (file) gpuss::fatal_at(file, line, "wait on: " + *problem);
      fatal("wait on: " + *problem);
    }
    submit_transfers(runtime, distribution_.gather(region, CSS_MPI_ALL), file ? file : "<wait on>", line,
                     &pending_);
  }
  runtime.wait_on(regions, file, line);
  wait_for(pending_); // the sends too, before the program may write what they read
}

void Layer::gather(Runtime &runtime, const Region &range, int root, const Where &where) {
  if (root != CSS_MPI_ALL && (root < 0 || root >= size()))
    fatal(std::string(where.file ? where.file : "<unknown>") + ":" + std::to_string(where.line) +
          ": css_mpi_gather: root " + std::to_string(root) + " is not a rank (0 to " +
          std::to_string(size() - 1) + ", or CSS_MPI_ALL)");
  std::vector<Region> data;
  submit_transfers(runtime, distribution_.gather(range, root, &data), where.file, where.line, &pending_);
  if (root == CSS_MPI_ALL || root == rank()) {
    std::vector<css_region> regions;
    for (const Region &region : data)
      regions.push_back(to_css(region));
    runtime.wait_on(regions);
  }
  wait_for(pending_);
}

void Layer::release(Runtime &runtime, std::span<const css_region> regions) {
  runtime.release(regions);
  for (const css_region &user_region : regions) {
    const Region region = Region::from(user_region);
    distribution_.forget(Region::contiguous(region.base, region.span()));
  }
}

void Layer::declare(const Region &region, int owner, const Where &where) {
  distribution_.declare(region, owner, where);
}

void Layer::place_next(int rank, const Where &where) {
  distribution_.place_next(rank, where);
}

void Layer::counters(css_mpi_counters &counters) const {
  const TransportCounters messages = transport_->counters();
  counters.tasks_run = tasks_run_;
  counters.tasks_skipped = tasks_skipped_;
  counters.sends = messages.sends;
  counters.bytes_sent = messages.bytes_sent;
  counters.receives = messages.receives;
  counters.bytes_received = messages.bytes_received;
}

std::string Layer::stats_line() const {
  css_mpi_counters c{};
  counters(c);
  char line[512];
  std::snprintf(
      line, sizeof line,
      "css-mpi: rank=%d/%d tasks_run=%llu tasks_skipped=%llu sends=%llu bytes_sent=%llu receives=%llu "
      "bytes_received=%llu data=%zu network=",
      rank(), size(), static_cast<unsigned long long>(c.tasks_run),
      static_cast<unsigned long long>(c.tasks_skipped), static_cast<unsigned long long>(c.sends),
      static_cast<unsigned long long>(c.bytes_sent), static_cast<unsigned long long>(c.receives),
      static_cast<unsigned long long>(c.bytes_received), distribution_.declared());
  std::string text = line;
  if (network_.modelled) {
    char model[96];
    std::snprintf(model, sizeof model, "modelled(latency=%gus,bandwidth=%gG)", network_.latency * 1e6,
                  network_.bandwidth / 1e9);
    text += model;
  } else {
    text += transport_->distributed() ? "mpi" : "none";
  }
  return text;
}

// ---------------------------------------------------------------- the process's layer

namespace {

// Immortal, like capi.cpp's runtime: exit handlers still reach it.
Layer *the_layer = nullptr;
bool print_stats = false; // adjust_config took CSS_STATS over, to print the rank

void at_exit() {
  // exit() inside a task body: capi.cpp's handler has warned; the process
  // ends without waiting, and without MPI_Finalize.
  if (running_task()) return;
  css_finish(); // the distributed barrier, on every rank, before MPI goes
  the_layer->shutdown();
}

} // namespace

Layer *layer() {
  return the_layer;
}

Layer &start_layer() {
  if (the_layer) return *the_layer;
  const Config config = Config::from_environment();
  NetworkModel network;
  if (!config.mpi_net.empty()) {
    std::string error;
    std::optional<NetworkModel> parsed = NetworkModel::parse(config.mpi_net, error);
    if (!parsed) fatal("CSS_MPI_NET: " + error);
    if (config.sim_model.empty())
      fatal("CSS_MPI_NET models the network for modelled devices only: with it no data moves between ranks, "
            "so it needs CSS_SIM_MODEL (and CSS_SIM_DEVICES)");
    network = *parsed;
  }
  std::unique_ptr<Transport> transport = make_transport(network);
  if (!transport->distributed() && launched_size() > 1)
    std::fprintf(stderr,
                 "gpuss: warning: libgpuss was built without MPI: each of the %d processes runs the whole "
                 "program alone (docs/mpi.md)\n",
                 launched_size());
  the_layer = new Layer(std::move(transport), network); // NOLINT: immortal
  std::atexit(at_exit);
  return *the_layer;
}

void adjust_config(Config &config) {
  print_stats = false;
  const int size = the_layer ? the_layer->size() : launched_size();
  const int rank = the_layer ? the_layer->rank() : launched_rank();
  if (size > 1) {
    // One file per rank: "trace.json" -> "trace.rank1.json".
    auto per_rank = [&](std::string &path) {
      if (path.empty()) return;
      const std::size_t slash = path.find_last_of('/'), dot = path.find_last_of('.');
      const std::size_t at =
          dot != std::string::npos && (slash == std::string::npos || dot > slash) ? dot : path.size();
      path.insert(at, ".rank" + std::to_string(rank));
    };
    per_rank(config.trace_file);
    per_rank(config.dag_file);
  }
  if (config.stats && (size > 1 || the_layer)) {
    config.stats = false;
    print_stats = true;
  }
}

void after_finish(Runtime &runtime) {
  if (!print_stats) return;
  print_stats = false;
  const int size = the_layer ? the_layer->size() : launched_size();
  const int rank = the_layer ? the_layer->rank() : launched_rank();
  std::string line = runtime.stats().format_line();
  const std::string prefix = "css-stats: ";
  if (line.rfind(prefix, 0) == 0)
    line.insert(prefix.size(), "rank=" + std::to_string(rank) + "/" + std::to_string(size) + " ");
  std::fprintf(stderr, "%s\n", line.c_str());
  if (the_layer) std::fprintf(stderr, "%s\n", the_layer->stats_line().c_str());
}

} // namespace gpuss::mpi
