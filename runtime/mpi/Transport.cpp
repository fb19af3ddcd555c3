// Transport: the launcher's environment, and the one-rank transport used
// without MPI (Transport.hpp). The MPI one is MpiTransport.cpp.
#include "Transport.hpp"
#include "support/Fatal.hpp"

#include <cstdlib>

namespace gpuss::mpi {

namespace {

int environment_number(std::initializer_list<const char *> names, int fallback) {
  for (const char *name : names)
    if (const char *text = std::getenv(name); text && *text) return std::atoi(text);
  return fallback;
}

// One rank, no MPI: libgpuss built without it, or a program started without
// a launcher. No transfer is ever planned, so nothing is ever started.
class SingleRank final : public Transport {
public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  bool distributed() const override { return false; }
  void barrier(std::uint64_t) override {}
  void shutdown() override {}
  void start(ExternalTask task) override {
    fatal_for_task(task.task().label, task.task().file, task.task().line,
                   "a transfer between ranks in a run of one rank (a bug of the MPI layer)");
  }
};

} // namespace

int launched_size() {
  return environment_number({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"}, 1);
}

int launched_rank() {
  return environment_number({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}, 0);
}

std::unique_ptr<Transport> make_single_rank_transport() {
  return std::make_unique<SingleRank>();
}

} // namespace gpuss::mpi
