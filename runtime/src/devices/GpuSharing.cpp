#include "devices/GpuSharing.hpp"

#include "support/Fatal.hpp"

#include <cstdlib>
#include <string>

namespace gpuss {

GpuShare share_gpus(int gpu_count, NodeRanks node) {
  GpuShare share;
  if (gpu_count <= 0) return share;
  if (node.ranks <= 1) {
    for (int g = 0; g < gpu_count; ++g)
      share.ordinals.push_back(g);
    return share;
  }
  if (node.ranks <= gpu_count) {
    for (int g = node.rank; g < gpu_count; g += node.ranks)
      share.ordinals.push_back(g);
    return share;
  }
  const int gpu = node.rank % gpu_count;
  share.ordinals.push_back(gpu);
  share.sharers = 0;
  for (int r = gpu; r < node.ranks; r += gpu_count)
    ++share.sharers;
  return share;
}

namespace {

// A non-negative integer from the environment, or -1 where the variable is unset.
int launcher_count(const char *name) {
  const char *value = std::getenv(name);
  if (value == nullptr) return -1;
  char *end = nullptr;
  long parsed = std::strtol(value, &end, 10);
  if (*value == '\0' || *end != '\0' || parsed < 0 || parsed > 1 << 20)
    fatal(std::string(name) + "='" + value + "' (set by the MPI launcher) is not a process count");
  return static_cast<int>(parsed);
}

} // namespace

NodeRanks node_ranks_from_environment() {
  if (std::getenv("CUDA_VISIBLE_DEVICES") != nullptr) return {};
  const std::pair<const char *, const char *> launchers[] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"}, // Open MPI
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},                       // MPICH (Hydra)
  };
  for (const auto &[rank_name, size_name] : launchers) {
    int rank = launcher_count(rank_name), ranks = launcher_count(size_name);
    if (rank < 0 || ranks < 0) continue;
    if (ranks == 0 || rank >= ranks)
      fatal(std::string(rank_name) + "=" + std::to_string(rank) + " is not below " + size_name + "=" +
            std::to_string(ranks));
    return {rank, ranks};
  }
  return {};
}

} // namespace gpuss
