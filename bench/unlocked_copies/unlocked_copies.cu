// unlocked_copies: the rate at which memory the runtime has never seen
// reaches the GPUs, by every path open to a first run, from several host
// threads and to one or every GPU. Each case takes fresh memory: malloc'ed,
// written by the host (as a user's matrix is), never registered, freed after.
//
//   pageable   cudaMemcpyAsync straight from the unlocked tiles (the driver
//              stages them), T threads a GPU, each with its own stream;
//   register   cudaHostRegister of every tile from T threads (the lock rate),
//              the copies from the locked tiles not counted;
//   staged     T threads a GPU, each memcpy'ing tiles into two pinned buffers
//              of its own and copying them on, ping-pong;
//   hmm-read   where the GPU may read pageable memory (HMM or ATS,
//              cudaDevAttrPageableMemoryAccess): a kernel on each GPU reading
//              its share of the tiles through the malloc'ed pointers;
//   prefetch   the same, migrated with cudaMemPrefetchAsync.
//
// Usage: unlocked_copies [GiB a case (8)] [tile MiB (32)]
// Prints one line a case: case= gpus= threads= GBs= (aggregate host to device).
#include "cuda_check.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Runs body(t) on `threads` threads and waits for them.
void on_threads(int threads, const std::function<void(int)> &body) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(body, t);
  for (std::thread &thread : pool)
    thread.join();
}

// Tiles of fresh memory, written by the host in parallel, never registered.
class FreshTiles {
public:
  FreshTiles(std::size_t tiles, std::size_t bytes) : tiles_(tiles), bytes_(bytes) {
    for (std::size_t i = 0; i < tiles; ++i) {
      void *p = std::malloc(bytes);
      if (!p) {
        std::fprintf(stderr, "unlocked_copies: malloc failed\n");
        std::exit(1);
      }
      tiles_[i] = p;
    }
    int writers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    on_threads(writers, [&](int t) {
      for (std::size_t i = t; i < tiles; i += writers)
        std::memset(tiles_[i], int(i & 0x7f) + 1, bytes);
    });
  }
  ~FreshTiles() {
    for (void *p : tiles_)
      std::free(p);
  }
  FreshTiles(const FreshTiles &) = delete;
  FreshTiles &operator=(const FreshTiles &) = delete;
  std::size_t size() const { return tiles_.size(); }
  void *operator[](std::size_t i) const { return tiles_[i]; }

private:
  std::vector<void *> tiles_;
  std::size_t bytes_;
};

__global__ void read_all(const double *x, std::size_t n, double *sink) {
  double sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    sum += x[i];
  if (sum == -1.0) *sink = sum; // never true: keeps the loads
}

struct Case {
  const char *name;
  int gpus, threads;
};

} // namespace

int main(int argc, char **argv) {
  double gib = argc > 1 ? std::atof(argv[1]) : 8.0;
  std::size_t tile = (argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 32) << 20;
  std::size_t tiles = std::max<std::size_t>(1, static_cast<std::size_t>(gib * (1ull << 30)) / tile);
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    std::printf("unlocked_copies: no GPU, skipped\n");
    return 0;
  }
  int pageable_access = 0, uses_host_tables = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&uses_host_tables, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
  std::printf(
      "unlocked_copies gpus=%d tiles=%zu tile_mib=%zu pageable_memory_access=%d uses_host_page_tables=%d\n",
      gpus, tiles, tile >> 20, pageable_access, uses_host_tables);
  double total = double(tile) * tiles;
  auto report = [&](const char *name, int g, int threads, double seconds) {
    std::printf("unlocked_copies case=%s gpus=%d threads=%d seconds=%.3f GBs=%.1f\n", name, g, threads,
                seconds, total / seconds / 1e9);
    std::fflush(stdout);
  };

  // Per GPU, per thread: a stream and two device tiles, made before the clock.
  struct Lane {
    int gpu;
    cudaStream_t stream;
    void *device[2];
    void *pinned[2];
    cudaEvent_t drained[2];
  };
  auto make_lanes = [&](int g, int per_gpu, bool staging) {
    std::vector<Lane> lanes;
    for (int d = 0; d < g; ++d)
      for (int t = 0; t < per_gpu; ++t) {
        Lane lane{d, nullptr, {nullptr, nullptr}, {nullptr, nullptr}, {nullptr, nullptr}};
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaStreamCreateWithFlags(&lane.stream, cudaStreamNonBlocking));
        for (int i = 0; i < 2; ++i) {
          CUDA_CHECK(cudaMalloc(&lane.device[i], tile));
          if (staging) {
            CUDA_CHECK(cudaMallocHost(&lane.pinned[i], tile));
            CUDA_CHECK(cudaEventCreateWithFlags(&lane.drained[i], cudaEventDisableTiming));
          }
        }
        lanes.push_back(lane);
      }
    return lanes;
  };
  auto free_lanes = [&](std::vector<Lane> &lanes) {
    for (Lane &lane : lanes) {
      CUDA_CHECK(cudaSetDevice(lane.gpu));
      CUDA_CHECK(cudaStreamSynchronize(lane.stream));
      CUDA_CHECK(cudaStreamDestroy(lane.stream));
      for (int i = 0; i < 2; ++i) {
        CUDA_CHECK(cudaFree(lane.device[i]));
        if (lane.pinned[i]) {
          CUDA_CHECK(cudaFreeHost(lane.pinned[i]));
          CUDA_CHECK(cudaEventDestroy(lane.drained[i]));
        }
      }
    }
  };

  // Tiles are dealt to lanes round-robin; each lane runs on its own thread.
  auto copy_case = [&](const char *name, int g, int per_gpu, bool staging) {
    FreshTiles host(tiles, tile);
    std::vector<Lane> lanes = make_lanes(g, per_gpu, staging);
    int count = int(lanes.size());
    auto start = Clock::now();
    on_threads(count, [&](int l) {
      Lane &lane = lanes[l];
      CUDA_CHECK(cudaSetDevice(lane.gpu));
      int k = 0;
      for (std::size_t i = l; i < host.size(); i += count, ++k) {
        int b = k % 2;
        if (staging) {
          CUDA_CHECK(cudaEventSynchronize(lane.drained[b]));
          std::memcpy(lane.pinned[b], host[i], tile);
          CUDA_CHECK(
              cudaMemcpyAsync(lane.device[b], lane.pinned[b], tile, cudaMemcpyHostToDevice, lane.stream));
          CUDA_CHECK(cudaEventRecord(lane.drained[b], lane.stream));
        } else {
          CUDA_CHECK(cudaMemcpyAsync(lane.device[b], host[i], tile, cudaMemcpyHostToDevice, lane.stream));
        }
      }
      CUDA_CHECK(cudaStreamSynchronize(lane.stream));
    });
    report(name, g, per_gpu, seconds_since(start));
    free_lanes(lanes);
  };

  for (int t : {1, 2, 4, 8})
    copy_case("pageable", 1, t, false);
  for (int t : {1, 2, 4})
    if (gpus > 1) copy_case("pageable", gpus, t, false);
  for (int t : {4, 8, 16})
    copy_case("staged", 1, t, true);
  for (int t : {2, 4})
    if (gpus > 1) copy_case("staged", gpus, t, true);

  for (int t : {1, 2, 4, 8}) {
    FreshTiles host(tiles, tile);
    auto start = Clock::now();
    on_threads(t, [&](int id) {
      for (std::size_t i = id; i < host.size(); i += t)
        CUDA_CHECK(cudaHostRegister(host[i], tile, cudaHostRegisterPortable));
    });
    report("register", 0, t, seconds_since(start));
    for (std::size_t i = 0; i < host.size(); ++i)
      CUDA_CHECK(cudaHostUnregister(host[i]));
  }

  if (pageable_access) {
    for (int g : {1, gpus}) {
      FreshTiles host(tiles, tile);
      std::vector<double *> sinks(g);
      std::vector<cudaStream_t> streams(g);
      for (int d = 0; d < g; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaMalloc(&sinks[d], sizeof(double)));
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking));
      }
      auto start = Clock::now();
      for (std::size_t i = 0; i < host.size(); ++i) {
        int d = int(i % g);
        CUDA_CHECK(cudaSetDevice(d));
        read_all<<<264, 512, 0, streams[d]>>>(static_cast<const double *>(host[i]), tile / sizeof(double),
                                              sinks[d]);
        CUDA_CHECK(cudaGetLastError());
      }
      for (int d = 0; d < g; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaStreamSynchronize(streams[d]));
      }
      report("hmm-read", g, 1, seconds_since(start));
      start = Clock::now();
      for (std::size_t i = 0; i < host.size(); ++i) {
        int d = int(i % g);
        CUDA_CHECK(cudaSetDevice(d));
        cudaMemLocation where{cudaMemLocationTypeDevice, d};
        CUDA_CHECK(cudaMemPrefetchAsync(host[i], tile, where, 0, streams[d]));
      }
      for (int d = 0; d < g; ++d) {
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaStreamSynchronize(streams[d]));
        CUDA_CHECK(cudaFree(sinks[d]));
        CUDA_CHECK(cudaStreamDestroy(streams[d]));
      }
      report("prefetch", g, 1, seconds_since(start));
    }
  }
  return 0;
}
