// host_pinning: what it costs to reach pinned copy speed for user memory
// allocated with plain malloc, the question behind CSS_PIN_HOST.
//
// For blocks of a given size (the tiles of a blocked code) it measures:
//   - host to device and back from pageable memory;
//   - the one-time cost of cudaHostRegister on each block;
//   - host to device and back from the registered blocks;
//   - pinned staging: memcpy into a pinned buffer, then copy, pipelined
//     over two buffers and two streams;
//   - cudaHostRegister of a block malloc'd and never touched (a workspace
//     the program has not written yet), plainly and after faulting its pages
//     in with madvise(MADV_POPULATE_WRITE), which keeps the contents;
//   - strided copies from registered memory: the 2-D copies (cudaMemcpy2DAsync)
//     that move a tile of a column-major matrix, 2048 columns of 2048 doubles
//     (16 KiB) and of 1024 doubles, 384 KiB apart (lda 49152), to the device
//     and back, against one contiguous copy of the same bytes.
// Usage: host_pinning [block MiB] [blocks]
#include <cuda_runtime.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void check(cudaError_t status, const char *what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "host_pinning: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char **argv) {
  std::size_t block_mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 8;
  int blocks = argc > 2 ? std::atoi(argv[2]) : 256;
  std::size_t bytes = block_mib << 20;
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    std::printf("host_pinning: no GPU, skipped\n");
    return 0;
  }
  std::vector<void *> host(blocks);
  for (auto &p : host) {
    p = std::malloc(bytes);
    std::memset(p, 1, bytes);
  }
  void *device = nullptr;
  check(cudaMalloc(&device, bytes * 2), "cudaMalloc");
  cudaStream_t streams[2];
  for (auto &s : streams)
    check(cudaStreamCreate(&s), "stream");
  double total = static_cast<double>(bytes) * blocks;

  auto copy_all = [&](cudaMemcpyKind kind) {
    auto start = std::chrono::steady_clock::now();
    for (int b = 0; b < blocks; ++b) {
      char *d = static_cast<char *>(device) + (b % 2) * bytes;
      if (kind == cudaMemcpyHostToDevice)
        check(cudaMemcpyAsync(d, host[b], bytes, kind, streams[b % 2]), "h2d");
      else
        check(cudaMemcpyAsync(host[b], d, bytes, kind, streams[b % 2]), "d2h");
    }
    check(cudaDeviceSynchronize(), "sync");
    return total / seconds_since(start) / 1e9;
  };
  copy_all(cudaMemcpyHostToDevice); // warm up
  double pageable_h2d = copy_all(cudaMemcpyHostToDevice), pageable_d2h = copy_all(cudaMemcpyDeviceToHost);

  auto start = std::chrono::steady_clock::now();
  for (auto p : host)
    check(cudaHostRegister(p, bytes, cudaHostRegisterPortable), "cudaHostRegister");
  double register_seconds = seconds_since(start);
  double pinned_h2d = copy_all(cudaMemcpyHostToDevice), pinned_d2h = copy_all(cudaMemcpyDeviceToHost);
  start = std::chrono::steady_clock::now();
  for (auto p : host)
    check(cudaHostUnregister(p), "cudaHostUnregister");
  double unregister_seconds = seconds_since(start);

  // Pinned staging, two buffers in flight.
  void *staging[2];
  for (auto &s : staging)
    check(cudaMallocHost(&s, bytes), "cudaMallocHost");
  cudaEvent_t free_again[2];
  for (auto &e : free_again)
    check(cudaEventCreate(&e), "event");
  start = std::chrono::steady_clock::now();
  for (int b = 0; b < blocks; ++b) {
    int i = b % 2;
    check(cudaEventSynchronize(free_again[i]), "wait staging");
    std::memcpy(staging[i], host[b], bytes);
    check(cudaMemcpyAsync(static_cast<char *>(device) + i * bytes, staging[i], bytes, cudaMemcpyHostToDevice,
                          streams[i]),
          "staged h2d");
    check(cudaEventRecord(free_again[i], streams[i]), "record");
  }
  check(cudaDeviceSynchronize(), "sync");
  double staged_h2d = total / seconds_since(start) / 1e9;

  // Untouched blocks: each its own mapping (above malloc's mmap threshold),
  // so the kernel has to find and zero every page at registration.
  enum class Prepare { None, Populate, HugePopulate };
  auto untouched_ms = [&](Prepare prepare) {
    std::vector<void *> fresh(blocks);
    for (auto &p : fresh)
      p = std::malloc(bytes);
    std::uintptr_t page = 4096;
    auto begin = std::chrono::steady_clock::now();
    for (auto p : fresh) {
      // madvise takes whole pages: the pages the block lies in.
      std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(p) & ~(page - 1);
      std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(p) + bytes + page - 1) & ~(page - 1);
      void *start = reinterpret_cast<void *>(lo);
      if (prepare == Prepare::HugePopulate && madvise(start, hi - lo, MADV_HUGEPAGE) != 0)
        std::perror("madvise");
      if (prepare != Prepare::None && madvise(start, hi - lo, MADV_POPULATE_WRITE) != 0)
        std::perror("madvise");
      check(cudaHostRegister(p, bytes, cudaHostRegisterPortable), "cudaHostRegister (untouched)");
    }
    double ms = seconds_since(begin) * 1e3 / blocks;
    for (auto p : fresh) {
      check(cudaHostUnregister(p), "cudaHostUnregister");
      std::free(p);
    }
    return ms;
  };
  double untouched_register_ms = untouched_ms(Prepare::None),
         populated_register_ms = untouched_ms(Prepare::Populate),
         huge_register_ms = untouched_ms(Prepare::HugePopulate);

  // Strided tiles of a column-major matrix with lda 49152: 2048 columns, `row`
  // bytes of each, 384 KiB apart, from registered memory. Eight tiles a side.
  const std::size_t pitch = 49152 * sizeof(double), columns = 2048, tiles = 8;
  std::vector<char> matrix_storage(pitch * columns);
  char *matrix = matrix_storage.data();
  std::memset(matrix, 2, pitch * columns);
  check(cudaHostRegister(matrix, pitch * columns, cudaHostRegisterPortable), "cudaHostRegister (matrix)");
  void *tile_device = nullptr;
  check(cudaMalloc(&tile_device, 2048 * sizeof(double) * columns), "cudaMalloc (tile)");
  auto strided = [&](std::size_t row, cudaMemcpyKind kind) {
    auto begin = std::chrono::steady_clock::now();
    for (std::size_t t = 0; t < tiles; ++t) {
      char *host_tile = matrix + t * row;
      if (kind == cudaMemcpyHostToDevice)
        check(cudaMemcpy2DAsync(tile_device, row, host_tile, pitch, row, columns, kind, streams[0]), "2-D h2d");
      else
        check(cudaMemcpy2DAsync(host_tile, pitch, tile_device, row, row, columns, kind, streams[0]), "2-D d2h");
    }
    check(cudaDeviceSynchronize(), "sync");
    return static_cast<double>(row * columns * tiles) / seconds_since(begin) / 1e9;
  };
  strided(2048 * sizeof(double), cudaMemcpyHostToDevice); // warm up
  double strided16_h2d = strided(2048 * sizeof(double), cudaMemcpyHostToDevice),
         strided16_d2h = strided(2048 * sizeof(double), cudaMemcpyDeviceToHost),
         strided8_h2d = strided(1024 * sizeof(double), cudaMemcpyHostToDevice);
  auto begin = std::chrono::steady_clock::now();
  const std::size_t same_bytes = 2048 * sizeof(double) * columns;
  for (std::size_t t = 0; t < tiles; ++t)
    check(cudaMemcpyAsync(tile_device, matrix + t * same_bytes % (pitch * columns - same_bytes), same_bytes,
                          cudaMemcpyHostToDevice, streams[0]),
          "contiguous h2d");
  check(cudaDeviceSynchronize(), "sync");
  double contiguous_h2d = static_cast<double>(same_bytes * tiles) / seconds_since(begin) / 1e9;
  check(cudaHostUnregister(matrix), "cudaHostUnregister (matrix)");

  std::printf("host_pinning block_mib=%zu blocks=%d pageable_h2d_GBs=%.1f pageable_d2h_GBs=%.1f "
              "register_s=%.3f register_GBs=%.1f unregister_s=%.3f pinned_h2d_GBs=%.1f pinned_d2h_GBs=%.1f "
              "staged_h2d_GBs=%.1f untouched_register_ms=%.2f populate_register_ms=%.2f "
              "huge_populate_register_ms=%.2f strided16k_h2d_GBs=%.1f strided16k_d2h_GBs=%.1f "
              "strided8k_h2d_GBs=%.1f tile_contiguous_h2d_GBs=%.1f\n",
              block_mib, blocks, pageable_h2d, pageable_d2h, register_seconds, total / register_seconds / 1e9,
              unregister_seconds, pinned_h2d, pinned_d2h, staged_h2d, untouched_register_ms,
              populated_register_ms, huge_register_ms, strided16_h2d, strided16_d2h, strided8_h2d,
              contiguous_h2d);
  return 0;
}
