// Transport: the messages of the MPI layer (docs/mpi.md).
//
// The layer submits each transfer as an external task (ExternalTasks.hpp) on
// both ranks it involves: a send on the rank that holds the value, reading
// the datum, and a receive on the rank that needs it, writing the datum.
// Their descriptors carry TransferArgs. When the runtime starts one (its data
// current in host memory), the transport posts a non-blocking MPI_Isend or
// MPI_Irecv for it; a progress thread completes the task when MPI says the
// message is done. Messages of a pair of ranks are told apart by a sequence
// number both ranks count alike (the tag), so no message agrees on anything.
//
// With CSS_MPI_NET (NetworkModel.hpp) the ranks exchange a token per
// message, and each message completes when the modelled network would have
// carried it.
//
// Threads: the helper calls start(); the progress thread posts, tests and
// completes; the master calls barrier() and counters(). Every MPI call of
// the layer holds one lock, so MPI_THREAD_SERIALIZED is enough.
#pragma once

#include "devices/ExternalTasks.hpp"
#include "NetworkModel.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

namespace gpuss::mpi {

// The packed arguments of a send or receive task.
struct TransferArgs {
  enum Kind : std::int32_t { Send = 1, Receive = 2 } kind;
  std::int32_t peer;
  std::uint64_t sequence; // per pair and direction, counted alike on both ranks
  // Counts down when the message is done (css_mpi_gather waits for its
  // sends); null otherwise.
  std::atomic<std::uint64_t> *pending;
};

struct TransportCounters {
  std::uint64_t sends = 0, bytes_sent = 0, receives = 0, bytes_received = 0;
};

class Transport : public ExternalExecutor {
public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Whether MPI is in use (false: one rank, no MPI).
  virtual bool distributed() const = 0;
  // Master: returns when every rank has called it with the same `digest`
  // (the ranks' decisions so far); differing digests are an error.
  virtual void barrier(std::uint64_t digest) = 0;
  // Master, at exit: stops the progress thread and finalises MPI if the
  // layer initialised it.
  virtual void shutdown() = 0;
  TransportCounters counters() const {
    return {sends_.load(), bytes_sent_.load(), receives_.load(), bytes_received_.load()};
  }

protected:
  std::atomic<std::uint64_t> sends_{0}, bytes_sent_{0}, receives_{0}, bytes_received_{0};
};

// The MPI transport when libgpuss has MPI and the program runs under a
// launcher (mpirun, srun) or has initialised MPI itself; one rank otherwise.
std::unique_ptr<Transport> make_transport(const NetworkModel &network);
// One rank, no MPI.
std::unique_ptr<Transport> make_single_rank_transport();

// How many processes the launcher started, and this one's rank, from its
// environment (OMPI_COMM_WORLD_*, PMI_*, PMIX_RANK); 1 and 0 without one.
int launched_size();
int launched_rank();

} // namespace gpuss::mpi
