// NoMpi: make_transport for a libgpuss built without MPI (Transport.hpp):
// one rank, and the layer works as on one process.
#include "Transport.hpp"

namespace gpuss::mpi {

std::unique_ptr<Transport> make_transport(const NetworkModel &) {
  return make_single_rank_transport();
}

} // namespace gpuss::mpi
