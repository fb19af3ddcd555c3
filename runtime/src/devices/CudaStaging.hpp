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

// One device's page-locked staging buffers, made by its worker at its first
// staged copy. Copies in take buffers of a fixed ring while their command
// waits to be issued; a buffer is free again once the DMA recorded after it
// has completed. Copies out hold theirs until their command is done and the
// copy threads have moved the bytes on to user memory: they are made as
// needed, up to a cap, beyond which a copy out locks its memory instead.
// Worker thread only.
class StagingBuffers {
public:
  static constexpr std::size_t buffer_bytes = std::size_t{2} << 20;
  static constexpr std::size_t ring_size = 128; // 256 MiB: eight tiles of 2048 x 2048 doubles being filled
  static constexpr std::size_t max_out = 256;   // 512 MiB held by copies out at most

  StagingBuffers() {
    for (std::size_t i = 0; i < ring_size; ++i)
      in_.push_back({allocate(), CudaEvent{}});
  }
  ~StagingBuffers() {
    for (InBuffer &buffer : in_)
      cudaFreeHost(buffer.host);
    for (std::byte *buffer : out_all_)
      cudaFreeHost(buffer);
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
    for (std::size_t i = 0; i < in_.size(); ++i) {
      InBuffer &buffer = in_[(next_in_ + i) % in_.size()];
      if (buffer.taken || !buffer.emptied.done()) continue;
      buffer.taken = true;
      next_in_ = (next_in_ + i + 1) % in_.size();
      return buffer;
    }
    fatal("internal error: no free staging buffer on a device (CudaDevice.cpp)");
  }
  // Its DMA is queued on `stream`: free again once that is done.
  void queued_from(InBuffer &buffer, cudaStream_t stream) {
    buffer.emptied.record(stream);
    buffer.taken = false;
  }
  // A buffer for a copy out, or null when max_out are held.
  std::byte *take_out() {
    if (out_free_.empty()) {
      if (out_all_.size() >= max_out) return nullptr;
      out_all_.push_back(allocate());
      out_free_.push_back(out_all_.back());
    }
    std::byte *buffer = out_free_.back();
    out_free_.pop_back();
    return buffer;
  }
  void give_back_out(std::byte *buffer) { out_free_.push_back(buffer); }

private:
  static std::byte *allocate() {
    void *host = nullptr;
    CSS_CUDA_CHECK(cudaHostAlloc(&host, buffer_bytes, cudaHostAllocPortable));
    return static_cast<std::byte *>(host);
  }

  std::vector<InBuffer> in_;
  std::size_t next_in_ = 0;
  std::vector<std::byte *> out_all_, out_free_;
};

} // namespace gpuss::cuda
