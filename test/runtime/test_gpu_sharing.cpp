// Which GPUs each of several processes on one node uses (devices/GpuSharing):
// two ranks of one job on a four-GPU node both took every GPU and the second
// ran out of device memory at start-up.
#include "devices/GpuSharing.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

using gpuss::GpuShare;
using gpuss::NodeRanks;
using gpuss::share_gpus;

TEST(GpuSharing, OneProcessTakesEveryGpu) {
  GpuShare share = share_gpus(4, NodeRanks{0, 1});
  EXPECT_EQ(share.ordinals, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(share.sharers, 1u);
}

TEST(GpuSharing, RanksOfANodeGetDisjointGpus) {
  EXPECT_EQ(share_gpus(4, NodeRanks{0, 2}).ordinals, (std::vector<int>{0, 2}));
  EXPECT_EQ(share_gpus(4, NodeRanks{1, 2}).ordinals, (std::vector<int>{1, 3}));
  std::vector<int> taken(4, 0);
  for (int rank = 0; rank < 4; ++rank) {
    GpuShare share = share_gpus(4, NodeRanks{rank, 4});
    ASSERT_EQ(share.ordinals.size(), 1u);
    EXPECT_EQ(share.sharers, 1u);
    ++taken[share.ordinals[0]];
  }
  EXPECT_EQ(taken, (std::vector<int>{1, 1, 1, 1}));
  // Three ranks on four GPUs: the first rank takes the fourth as well.
  EXPECT_EQ(share_gpus(4, NodeRanks{0, 3}).ordinals, (std::vector<int>{0, 3}));
  EXPECT_EQ(share_gpus(4, NodeRanks{2, 3}).ordinals, (std::vector<int>{2}));
}

TEST(GpuSharing, MoreRanksThanGpusSplitTheirMemory) {
  // Five ranks on two GPUs: GPU 0 has ranks 0, 2, 4; GPU 1 has ranks 1, 3.
  for (int rank = 0; rank < 5; ++rank) {
    GpuShare share = share_gpus(2, NodeRanks{rank, 5});
    ASSERT_EQ(share.ordinals.size(), 1u);
    EXPECT_EQ(share.ordinals[0], rank % 2);
    EXPECT_EQ(share.sharers, rank % 2 == 0 ? 3u : 2u) << "rank " << rank;
  }
  GpuShare shared = share_gpus(1, NodeRanks{1, 2});
  EXPECT_EQ(shared.ordinals, (std::vector<int>{0}));
  EXPECT_EQ(shared.sharers, 2u);
}

TEST(GpuSharing, NoGpuNoShare) {
  EXPECT_TRUE(share_gpus(0, NodeRanks{1, 2}).ordinals.empty());
}

class NodeRanksEnvironment : public ::testing::Test {
protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    for (const char *name : {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALRANKID",
                             "MPI_LOCALNRANKS", "CUDA_VISIBLE_DEVICES"})
      unsetenv(name);
  }
};

TEST_F(NodeRanksEnvironment, OutsideALauncherOneProcess) {
  NodeRanks node = gpuss::node_ranks_from_environment();
  EXPECT_EQ(node.rank, 0);
  EXPECT_EQ(node.ranks, 1);
}

TEST_F(NodeRanksEnvironment, OpenMpiAndMpichAreRead) {
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
  NodeRanks node = gpuss::node_ranks_from_environment();
  EXPECT_EQ(node.rank, 1);
  EXPECT_EQ(node.ranks, 4);
  clear();
  setenv("MPI_LOCALRANKID", "2", 1);
  setenv("MPI_LOCALNRANKS", "3", 1);
  node = gpuss::node_ranks_from_environment();
  EXPECT_EQ(node.rank, 2);
  EXPECT_EQ(node.ranks, 3);
}

TEST_F(NodeRanksEnvironment, GpusChosenByTheUserAreKept) {
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
  setenv("CUDA_VISIBLE_DEVICES", "1", 1);
  EXPECT_EQ(gpuss::node_ranks_from_environment().ranks, 1);
}

TEST_F(NodeRanksEnvironment, AMalformedValueIsNamed) {
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "x", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
  EXPECT_DEATH(gpuss::node_ranks_from_environment(), "OMPI_COMM_WORLD_LOCAL_RANK='x'");
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2", 1);
  EXPECT_DEATH(gpuss::node_ranks_from_environment(), "is not below OMPI_COMM_WORLD_LOCAL_SIZE=2");
}
