// staged_dma: how fast the DMAs of staged copies run, by the shape and size
// of the staging buffer each DMA empties or fills (the ceiling of a first
// run's copies, which go through page-locked buffers: docs/architecture.md).
//
// A tile of `rows` columns of `row` bytes, `pitch` bytes apart on the device
// (a 2048 x 2048 double tile of a column-major n = 49152 matrix: 2048 rows of
// 16 KiB, pitch 393216), is copied from (or to) page-locked host memory
//   whole       one contiguous copy of the tile's payload (the link's rate);
//   parts P     one 2-D copy per P MiB part of packed rows, the way
//               CudaDevice copies a staged tile (its buffers hold 2 MiB);
// `tiles` tiles back to back on one stream, timed by events after a warm-up.
//
// Usage: staged_dma [tiles (64)] [row bytes (16384)] [rows (2048)] [pitch (393216)]
// Prints one line a case: dir= shape= part_MiB= GBs=.
#include "cuda_check.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Shape {
  std::size_t row, rows, pitch;
  std::size_t payload() const { return row * rows; }
};

// Copies `tiles` tiles in `part_bytes` parts (0: whole, contiguous) and
// returns GB/s of payload.
double rate(bool to_device, const Shape &shape, std::size_t part_bytes, int tiles, unsigned char *host,
            unsigned char *device, cudaStream_t stream) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  auto one_tile = [&](int t) {
    unsigned char *h = host + static_cast<std::size_t>(t % 4) * shape.payload();
    unsigned char *d = device + static_cast<std::size_t>(t % 2) * shape.pitch * shape.rows;
    if (part_bytes == 0) {
      CUDA_CHECK(to_device ? cudaMemcpyAsync(d, h, shape.payload(), cudaMemcpyHostToDevice, stream)
                           : cudaMemcpyAsync(h, d, shape.payload(), cudaMemcpyDeviceToHost, stream));
      return;
    }
    const std::size_t rows_a_part = std::max<std::size_t>(1, part_bytes / shape.row);
    for (std::size_t r = 0; r < shape.rows; r += rows_a_part) {
      const std::size_t rows = std::min(rows_a_part, shape.rows - r);
      unsigned char *hp = h + r * shape.row, *dp = d + r * shape.pitch;
      CUDA_CHECK(to_device ? cudaMemcpy2DAsync(dp, shape.pitch, hp, shape.row, shape.row, rows,
                                               cudaMemcpyHostToDevice, stream)
                           : cudaMemcpy2DAsync(hp, shape.row, dp, shape.pitch, shape.row, rows,
                                               cudaMemcpyDeviceToHost, stream));
    }
  };
  for (int t = 0; t < 4; ++t)
    one_tile(t);
  CUDA_CHECK(cudaEventRecord(start, stream));
  for (int t = 0; t < tiles; ++t)
    one_tile(t);
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return static_cast<double>(shape.payload()) * tiles / (ms * 1e-3) / 1e9;
}

} // namespace

int main(int argc, char **argv) {
  const int tiles = argc > 1 ? std::atoi(argv[1]) : 64;
  Shape shape{argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 16384,
              argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2048,
              argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 393216};
  unsigned char *host = nullptr, *device = nullptr;
  CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&host), 4 * shape.payload(), cudaHostAllocPortable));
  CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&device), 2 * shape.pitch * shape.rows));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (bool to_device : {true, false}) {
    const char *dir = to_device ? "h2d" : "d2h";
    std::printf("dir=%s shape=whole part_MiB=- GBs=%.1f\n", dir, rate(to_device, shape, 0, tiles, host, device, stream));
    for (std::size_t mib : {1, 2, 4, 8, 16, 32}) {
      if (mib << 20 > shape.payload()) break;
      std::printf("dir=%s shape=parts part_MiB=%zu GBs=%.1f\n", dir, mib,
                  rate(to_device, shape, mib << 20, tiles, host, device, stream));
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(device));
  CUDA_CHECK(cudaFreeHost(host));
  return 0;
}
