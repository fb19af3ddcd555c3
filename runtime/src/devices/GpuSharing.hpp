// GpuSharing: which GPUs of a node a process uses when several processes of
// one job run there (MPI ranks started by mpirun, one or more per node).
//
// Each process of GPUSs takes every GPU it sees and most of each GPU's
// memory, so two ranks on one node would both claim all of it: the second
// ran out of device memory at start-up (4 H100s, `mpirun -np 2`,
// 2026-11-27). The launcher tells each process its rank among the processes
// of its node (Open MPI: OMPI_COMM_WORLD_LOCAL_RANK and _LOCAL_SIZE; MPICH:
// MPI_LOCALRANKID and MPI_LOCALNRANKS); the GPUs are dealt among them. Where
// the program or the user picked GPUs per process with CUDA_VISIBLE_DEVICES,
// nothing is dealt: each process keeps what it sees.
//
// Pure functions; called once, by the composition root, while devices are made.
#pragma once

#include <vector>

namespace gpuss {

// This process among those of its node: rank in [0, ranks).
struct NodeRanks {
  int rank = 0;
  int ranks = 1;
};

struct GpuShare {
  std::vector<int> ordinals; // the GPUs this process uses, in order
  unsigned sharers = 1;      // processes that use each of them (their memory is split as many ways)
};

// With no more processes than GPUs, process r of L takes the GPUs g with
// g % L == r (4 GPUs, 2 ranks: 0 and 2, 1 and 3); with more processes than
// GPUs, process r takes GPU r % G and shares it with the other processes
// given the same GPU, each getting an equal part of its memory.
GpuShare share_gpus(int gpu_count, NodeRanks node);

// The launcher's word on this process's place in its node, from the
// environment: {0, 1} outside a launcher or where CUDA_VISIBLE_DEVICES is
// set. A malformed value is an error naming the variable.
NodeRanks node_ranks_from_environment();

} // namespace gpuss
