// CudaStaging: a GPU's page-locked staging buffers, for copies of host
// memory not locked yet (StagedCopies.hpp has the plan and the threads that
// fill and drain them).
//
// Included by CudaDevice.cpp alone.
#pragma once

#include "devices/CudaSupport.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpuss::cuda {

// Page-locked host memory from one cudaHostAlloc, freed with it.
class PinnedHostBlock {
public:
  explicit PinnedHostBlock(std::size_t bytes) {
    void *host = nullptr;
    CSS_CUDA_CHECK(cudaHostAlloc(&host, bytes, cudaHostAllocPortable));
    base_ = static_cast<std::byte *>(host);
  }
  ~PinnedHostBlock() {
    if (base_) cudaFreeHost(base_);
  }
  PinnedHostBlock(const PinnedHostBlock &) = delete;
  PinnedHostBlock &operator=(const PinnedHostBlock &) = delete;
  std::byte *data() const { return base_; }

private:
  std::byte *base_ = nullptr;
};

// One device's page-locked staging buffers, made by its worker when it
// starts (before its first command) if staging is on. Copies in take
// buffers of a fixed ring while their command waits to be issued; a buffer
// is free again once the DMA recorded after it has completed. A copy out
// takes its buffers one part at a time, in its turn, and holds each until
// a copy thread has moved its bytes on to user memory (CudaDevice's
// OutPart): a copy out larger than all max_out buffers streams through them.
//
// Every buffer is cut from two allocations made when the worker starts, not
// as copies need them: cudaHostAlloc runs at about 2-3 GB/s (0.30-0.41 s for
// these 768 MiB on an H200 node). Made at the first staged copy, 2 MiB at a
// time, they kept a first run's GPU from its first fetch for 110 ms, and each
// copy out that grew the pool by a tile's 16 buffers stalled the worker, and
// the GPU with it, for 13-20 ms (2026-11-28; performance.md).
// Worker thread only.
class StagingBuffers {
public:
  static constexpr std::size_t buffer_bytes = std::size_t{2} << 20;
  static constexpr std::size_t ring_size = 128; // 256 MiB: eight tiles of 2048 x 2048 doubles being filled
  static constexpr std::size_t max_out = 256;   // 512 MiB: copies out that have landed or are being drained

  StagingBuffers() : in_block_(ring_size * buffer_bytes), out_block_(max_out * buffer_bytes) {
    for (std::size_t i = 0; i < ring_size; ++i)
      in_.push_back({in_block_.data() + i * buffer_bytes, CudaEvent{}});
    for (std::size_t i = max_out; i-- > 0;)
      out_free_.push_back(out_block_.data() + i * buffer_bytes);
  }
  StagingBuffers(const StagingBuffers &) = delete;
  StagingBuffers &operator=(const StagingBuffers &) = delete;

  struct InBuffer {
    std::byte *host = nullptr;
    CudaEvent emptied;  // recorded after the DMA from it
    bool taken = false; // by a fill whose DMA is not queued yet
  };
  // Buffers of the ring free now: not taken, their last DMA finished.
  std::size_t free_in() const {
    return static_cast<std::size_t>(
        std::count_if(in_.begin(), in_.end(), [](const InBuffer &b) { return !b.taken && b.emptied.done(); }));
  }
  // A free buffer of the ring (there must be one: free_in), taken.
  InBuffer &take_in() {
    if (InBuffer *buffer = try_take_in()) return *buffer;
    fatal("internal error: no free staging buffer on a device (CudaDevice.cpp)");
  }
  // A free buffer of the ring, taken, or null when there is none.
  InBuffer *try_take_in() {
    for (std::size_t i = 0; i < in_.size(); ++i) {
      InBuffer &buffer = in_[(next_in_ + i) % in_.size()];
      if (buffer.taken || !buffer.emptied.done()) continue;
      buffer.taken = true;
      next_in_ = (next_in_ + i + 1) % in_.size();
      return &buffer;
    }
    return nullptr;
  }
  // Its DMA is queued on `stream`: free again once that is done.
  void queued_from(InBuffer &buffer, cudaStream_t stream) {
    buffer.emptied.record(stream);
    buffer.taken = false;
  }
  // A buffer for a part of a copy out, or null when all max_out are held.
  std::byte *take_out() {
    if (out_free_.empty()) return nullptr;
    std::byte *buffer = out_free_.back();
    out_free_.pop_back();
    return buffer;
  }
  void give_back_out(std::byte *buffer) { out_free_.push_back(buffer); }

private:
  // Declared before the buffers cut from them (and so destroyed after the
  // events recorded on them).
  PinnedHostBlock in_block_, out_block_;
  std::vector<InBuffer> in_;
  std::size_t next_in_ = 0;
  std::vector<std::byte *> out_free_;
};

} // namespace gpuss::cuda
