// CudaDevice: a GPU, driven by its own worker thread.
//
// Only the worker makes CUDA calls for its device (the master may query
// properties before it starts). Each worker has its streams: `in` for
// copies from the host, `peer` for copies from other GPUs, the compute
// lanes for task bodies and `out` for write-backs, so the fetches of staged
// tasks overlap the running task, and a copy from a peer over NVLink does
// not queue behind copies from the host over PCIe (they use different copy
// engines). Completion is found by polling events; the device is never
// synchronised.
//
// With CSS_GPU_PARTITIONS=N each GPU appears as N devices, each a complete
// CudaDevice (worker, streams, cuBLAS handles, pool, cache) over 1/N of the
// GPU's memory, so that the multi-GPU paths (peer copies, coherence across
// caches) run on a node with fewer GPUs. Partitions of one GPU share its
// context: a copy between them is a plain device-to-device copy.
#include "devices/CpuWorkers.hpp"
#include "devices/CudaStaging.hpp"
#include "devices/CudaSupport.hpp"
#include "devices/Device.hpp"
#include "devices/FaultReports.hpp"
#include "devices/GpuSharing.hpp"
#include "graph/NestedTasks.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "memory/PageLocks.hpp"
#include "memory/StagedCopies.hpp"
#include "support/Fatal.hpp"
#include "support/StatsCounters.hpp"
#include "support/Trace.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExtMem.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <latch>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

namespace gpuss {

namespace {

using cuda::check_cuda;
using cuda::CublasHandle;
using cuda::CublasLibrary;
using cuda::CudaEvent;
using cuda::CudaStream;
using cuda::StagingBuffers;

// Stream and cuBLAS handle of the GPU worker running on this thread, for
// css_cuda_stream_ptr() and css_cublas_handle_ptr(). Thread-local because a
// task body asks "which stream am I on", and each worker is one thread.
thread_local void *current_stream = nullptr;
thread_local void *current_cublas = nullptr;

// The pool as compute-sanitizer sees it (NVTX memory API, `--nvtx=yes`): a
// heap of sub-allocations, each replica one region, so that memcheck reports
// an access to pool memory no replica holds. With CSS_DEVICE_GUARD every
// replica has unregistered guard zones around it, so that a task reaching a
// little outside its data is reported too. The calls do nothing unless a
// tool is attached.
class SanitizerHeap {
public:
  // Worker thread, once the pool exists.
  void open(void *pool, std::size_t bytes) {
    domain_ = nvtxDomainCreateA("GPUSs");
    nvtxMemVirtualRangeDesc_t range{};
    range.ptr = pool;
    range.size = bytes;
    nvtxMemHeapDesc_t heap{};
    heap.extCompatID = NVTX_EXT_COMPATID_MEM;
    heap.structSize = sizeof heap;
    heap.usage = NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR;
    heap.type = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    heap.typeSpecificDescSize = sizeof range;
    heap.typeSpecificDesc = &range;
    heap_ = nvtxMemHeapRegister(domain_, &heap);
  }
  // Worker thread, before the pool goes.
  void close() {
    if (heap_) nvtxMemHeapUnregister(domain_, heap_);
    heap_ = nullptr;
  }
  // Helper thread.
  void add(const DeviceBlock &block) const {
    if (!heap_) return;
    nvtxMemVirtualRangeDesc_t range{};
    range.ptr = block.address;
    range.size = block.usable;
    nvtxMemRegionsRegisterBatch_t batch{};
    batch.extCompatID = NVTX_EXT_COMPATID_MEM;
    batch.structSize = sizeof batch;
    batch.regionType = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    batch.heap = heap_;
    batch.regionCount = 1;
    batch.regionDescElementSize = sizeof range;
    batch.regionDescElements = &range;
    nvtxMemRegionsRegister(domain_, &batch);
  }
  void remove(const DeviceBlock &block) const {
    if (!heap_) return;
    nvtxMemRegionRef_t region{};
    region.pointer = block.address;
    nvtxMemRegionsUnregisterBatch_t batch{};
    batch.extCompatID = NVTX_EXT_COMPATID_MEM;
    batch.structSize = sizeof batch;
    batch.refType = NVTX_MEM_REGION_REF_TYPE_POINTER;
    batch.refCount = 1;
    batch.refElementSize = sizeof region;
    batch.refElements = &region;
    nvtxMemRegionsUnregister(domain_, &batch);
  }

private:
  nvtxDomainHandle_t domain_ = nullptr;
  nvtxMemHeapHandle_t heap_ = nullptr;
};

// Page locks for GPU copies: registered with every context (portable).
class CudaPageLocker final : public PageLocker {
public:
  bool lock(void *start, std::size_t bytes) override {
    if (cudaHostRegister(start, bytes, cudaHostRegisterPortable) == cudaSuccess) return true;
    (void)cudaGetLastError(); // memory CUDA cannot lock (already pinned, mapped files): copy it pageable
    return false;
  }
  void unlock(void *start) override {
    if (cudaHostUnregister(start) != cudaSuccess) (void)cudaGetLastError();
  }
};

// A physical GPU as the master finds it, before any of its devices starts.
struct GpuInfo {
  int ordinal = 0;
  std::string name;             // cudaDeviceProp::name
  std::size_t usable_bytes = 0; // free at start-up, less a reserve; shared by its partitions
};

// Master thread.
GpuInfo query_gpu(int ordinal) {
  GpuInfo gpu;
  gpu.ordinal = ordinal;
  CSS_CUDA_CHECK(cudaSetDevice(ordinal));
  cudaDeviceProp properties{};
  CSS_CUDA_CHECK(cudaGetDeviceProperties(&properties, ordinal));
  gpu.name = properties.name;
  std::size_t free_bytes = 0, total_bytes = 0;
  CSS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // Leave room for cuBLAS workspaces and the task bodies' own allocations,
  // once per GPU: its partitions divide what is left (and the default
  // CSS_GPU_MEMORY=90% leaves a tenth of each share free as well).
  std::size_t reserve = std::min<std::size_t>(free_bytes / 10, std::size_t{2} << 30);
  gpu.usable_bytes = free_bytes > reserve ? free_bytes - reserve : 0;
  return gpu;
}

class CudaDevice final : public Device {
public:
  // Partition `partition` of `partitions` (CSS_GPU_PARTITIONS) of `gpu`; one
  // partition is the whole GPU.
  CudaDevice(int space, const GpuInfo &gpu, unsigned partition, unsigned partitions, PageLocks *page_locks,
             CopyThreads *copy_threads, const CudaDeviceOptions &options)
      : Device(space), ordinal_(gpu.ordinal),
        name_("cuda" + std::to_string(gpu.ordinal) + (partitions > 1 ? "." + std::to_string(partition) : "") +
              " (" + gpu.name + ")"),
        memory_(gpu.usable_bytes / partitions), page_locks_(page_locks),
        copy_threads_(page_locks ? copy_threads : nullptr),
        copy_unlocked_pageable_(options.copy_unlocked_pageable),
        lane_count_(std::max(1u, options.compute_streams)), priority_lane_(options.priority_lane),
        lane_depth_(options.lane_depth), wait_all_fetches_(options.wait_all_fetches),
        alias_priority_(options.alias_priority) {}
  ~CudaDevice() override { stop(); }

  DeviceKind kind() const override { return DeviceKind::Cuda; }
  std::string name() const override { return name_; }
  std::size_t total_memory() const override { return memory_; }
  double bandwidth_from(int from_space) const override { return from_space == 0 ? 50e9 : 300e9; }
  // Helper thread.
  bool can_copy_from_device(int from_space) const override {
    std::lock_guard lock(peer_mutex_);
    return peers_.contains(from_space);
  }
  // Master thread, before start(): the spaces of the devices whose memory
  // this one reads directly, the other partitions of its GPU and those of
  // peer GPUs.
  void set_peers(const std::vector<int> &spaces) {
    std::lock_guard lock(peer_mutex_);
    for (int space : spaces)
      if (space != this->space()) peers_.insert(space);
  }

  void start(std::size_t pool_bytes, WorkerContext context) override {
    context_ = context;
    pool_bytes_ = pool_bytes;
    std::latch ready(1);
    thread_ = std::jthread([this, &ready] { run(ready); });
    ready.wait();
  }

  void stop() override {
    if (!thread_.joinable()) return;
    inbox_.wake_all();
    thread_ = {};
  }

  std::byte *pool_base() const override { return pool_; }
  void submit(DeviceCommand command) override { inbox_.push(std::move(command)); }
  void block_allocated(const DeviceBlock &block) override { sanitizer_heap_.add(block); }
  void block_released(const DeviceBlock &block) override { sanitizer_heap_.remove(block); }

private:
  // A command on its way through the streams. The events time each phase
  // on the device; `done` ends the last one, and its completion is what the
  // worker polls for.
  struct InFlight {
    DeviceCommand command;
    CudaEvent copies_start{true}, copies_end{true}; // fetches from the host, a load, or a write-back
    CudaEvent peer_start{true}, peer_end{true};     // fetches from peers
    CudaEvent task_start{true}, task_end{true};
    CudaEvent after_start{true}; // write-backs after the task
    CudaEvent done{true};
    PageLocks::Leases leases; // the page locks its host copies go through, released once `done`
    bool completed = false;   // `done` seen (complete() has run)
    // Parts of its staged copies out not yet drained into user memory: the
    // command is reported once `done` and this is zero (OutPart).
    std::size_t staged_out_left = 0;
    bool stages_out = false;
    double staged_out_from = -1; // host clock at its first part's DMA, for the trace
    double streamed_in_from = -1; // host clock at its first streamed copy in's DMA (Pending), for the trace
    // The lane its task was launched on while it counts against the lane's
    // depth (launched_per_lane_), until its task ends; none otherwise.
    std::optional<std::size_t> held_lane;
    // Launched without waiting for the fetches before it (after_fetches
    // false): its copy events are not recorded.
    bool fetch_free = false;
  };
  // A part (at most one buffer) of a piece of a staged copy, either way:
  // the piece's first byte in user memory and on this device, its region,
  // which part of it, and whose copy it is (for a fault in user memory).
  struct PartOfCopy {
    std::byte *host = nullptr;
    std::byte *device = nullptr;
    Region shape;
    StagedPart part;
    faults::Activity activity;
  };
  // A part of a staged copy out, through the out ring. Parts take the out
  // ring's buffers in the order they were queued, as many at once as are
  // free: a DMA into the buffer, then a copy thread drains the buffer into
  // user memory, then the buffer is free for the next part. So a copy out
  // larger than the ring streams through it. Before (the eighth session),
  // a copy out staged only if all of its parts had buffers at once, else
  // this thread page-locked its span first: each of LU's L block columns
  // (0.8 GB of span against 512 MiB of ring) was locked at about 20 GB/s,
  // one after another, while the GPU idled (performance.md).
  struct OutPart {
    InFlight *flight = nullptr; // reported once all its parts are drained
    PartOfCopy copy;
    std::byte *buffer = nullptr;       // taken once its turn comes
    std::shared_ptr<CudaEvent> landed; // recorded after its DMA (and the others of its batch)
    CopyThreads::Job drain;            // posted once `landed`; must not move then
    bool draining = false;
  };
  // A command popped from the inbox, waiting to be issued while the copy
  // threads fill the staging buffers of its copies in. Commands are issued
  // in the order they came (the streams must see them in that order: a later
  // task may read what an earlier fetch brings), each once its fills are
  // done; meanwhile the worker goes on polling, and the fills of the
  // commands behind it proceed.
  struct StagedFill {
    StagingBuffers::InBuffer *buffer = nullptr;
    StagedPart part;
    CopyThreads::Job job;
  };
  struct Pending {
    DeviceCommand command;
    bool prepared = false;
    std::vector<bool> staged;      // for each host piece it copies in, in copy order: through buffers?
    std::size_t next_piece = 0;    // issue(): the next entry of `staged`
    std::vector<StagedFill> fills; // in copy order; reserved before the first is posted (a job must not move)
    std::size_t next_fill = 0;     // issue(): the next of `fills` to DMA
    // Copies in larger than the ring stream through it before the command
    // is issued, once it is the oldest: `streamed` lists their parts, whose
    // fills are posted as buffers free and DMAed in order (next_dma).
    std::vector<PartOfCopy> streamed;
    std::size_t next_dma = 0;
    double streamed_from = -1; // host clock at the first of their DMAs
    bool streams_in() const { return !streamed.empty(); }
    bool all_filling() const { return fills.size() == streamed.size(); }
  };

  // `task`: the task whose command this is (null for write-backs and loads
  // ahead, which the task that made the object stands for).
  // `flight`: where staged copies out put their drains (null: none may stage).
  void copy(const Transfer &transfer, cudaStream_t stream, PageLocks::Leases &leases, const Task *task,
            InFlight *flight = nullptr) {
    const bool from_host = transfer.from_space == 0, to_host = transfer.to_space == 0;
    faults::Activity copying = copy_activity(transfer, task);
    transfer.for_each_piece([&](std::size_t offset, const Region &shape) {
      if (!from_host && !to_host) {
        copy_piece(transfer, offset, shape, stream, leases);
        return;
      }
      // Host memory is read (or written, from pageable memory) by this
      // thread inside the CUDA calls, and locked by it: a fault there is
      // the region's (FaultReports.hpp).
      copying.region = shape;
      copying.host =
          reinterpret_cast<std::uintptr_t>((from_host ? transfer.source : transfer.destination) + offset);
      faults::Scope scope(copying);
      copy_piece(transfer, offset, shape, stream, leases, &copying, flight);
    });
  }

  faults::Activity copy_activity(const Transfer &transfer, const Task *task) const {
    const DataObject &object = *transfer.object;
    return faults::Activity::copy(task ? task->label : object.first_label,
                                  task ? task->file : object.first_file,
                                  task ? task->line : object.first_line,
                                  transfer.from_space == 0 ? "the host" : name_.c_str(),
                                  transfer.to_space == 0 ? "the host" : name_.c_str());
  }

  // Whether a copy of `shape`, whose host side at `host` is not locked, goes
  // through staging buffers. Staging a range costs about as much as locking
  // it (once) and copying it from the lock, three times over on the nodes
  // measured (staged 18 GB/s, locking 5-19, locked 50: performance.md), so a
  // range is staged for its first three copies and locked before its fourth
  // (the rule of ski rental: at most about twice the cost of knowing ahead).
  static constexpr unsigned staged_copies_before_locking = 3;
  bool stages(std::byte *host, const Region &shape) {
    return copy_threads_ && !page_locks_->locked(host, shape.span()) &&
           page_locks_->count_staged(host, shape.span()) <= staged_copies_before_locking;
  }

  // Made when the worker starts, wherever copy threads stage (run).
  StagingBuffers &staging() { return *staging_; }

  // Calls fn(host, shape, transfer) for each host piece the command copies
  // in, in the order issue() copies them.
  template <typename Fn> static void for_each_host_piece_in(const DeviceCommand &command, Fn fn) {
    for (const Transfer &transfer : command.before)
      if (transfer.from_space == 0)
        transfer.for_each_piece(
            [&](std::size_t offset, const Region &shape) { fn(transfer.source + offset, shape, transfer); });
  }

  // Starts the fills of the command's staged copies in: each host piece not
  // locked goes through buffers (unless it has been staged often: stages),
  // all of the command's or none. False when the ring has too few free
  // buffers now: the command waits, and so do those behind it. A command
  // with more parts than the ring has buffers streams them instead
  // (stream_in); until the ninth session it was locked as copied, on this
  // thread: LU's first panel, 805 MB, at 14 GB/s (performance.md).
  bool prepare(Pending &pending) {
    if (!copy_threads_) return pending.prepared = true;
    std::size_t needed = 0;
    for_each_host_piece_in(pending.command,
                           [&](const std::byte *host, const Region &shape, const Transfer &) {
                             if (!page_locks_->locked(host, shape.span()))
                               needed += plan_staged_parts(shape, StagingBuffers::buffer_bytes).size();
                           });
    if (needed == 0) return pending.prepared = true;
    StagingBuffers &buffers = staging();
    if (needed > StagingBuffers::ring_size) {
      plan_streamed_in(pending);
      return pending.prepared = true;
    }
    if (needed > buffers.free_in()) return false;
    pending.fills.reserve(needed);
    auto start_fills = [&](std::byte *host, const Region &shape, const Transfer &transfer) {
      const bool staged = stages(host, shape);
      pending.staged.push_back(staged);
      if (!staged) return;
      const faults::Activity activity = copy_activity(transfer, pending.command.task.get());
      for (const StagedPart &part : plan_staged_parts(shape, StagingBuffers::buffer_bytes)) {
        StagingBuffers::InBuffer &buffer = buffers.take_in();
        StagedFill &fill = pending.fills.emplace_back(
            StagedFill{&buffer, part, CopyThreads::pack(shape, part, host, buffer.host, activity)});
        copy_threads_->post(fill.job);
      }
    };
    for_each_host_piece_in(pending.command, start_fills);
    return pending.prepared = true;
  }

  // prepare(), for a command whose copies in outnumber the ring's buffers:
  // the parts of its pieces that stage, in copy order; nothing is posted yet.
  void plan_streamed_in(Pending &pending) {
    for_each_host_piece_in(
        pending.command, [&](std::byte *host, const Region &shape, const Transfer &transfer) {
          const bool staged = stages(host, shape);
          pending.staged.push_back(staged);
          if (!staged) return;
          const faults::Activity activity = copy_activity(transfer, pending.command.task.get());
          std::byte *device = transfer.destination + (host - transfer.source);
          for (const StagedPart &part : plan_staged_parts(shape, StagingBuffers::buffer_bytes))
            pending.streamed.push_back({host, device, shape, part, activity});
        });
    pending.fills.reserve(pending.streamed.size());
  }

  // The stream for the next fetch: copies from the host on `in`, copies
  // within this device's memory (alias copies) on `within` where there is
  // one. Those are kernels: on a stream of the lanes' priority they waited
  // for SMs behind the queued gemms (a 32 MiB tile 0.53 ms against 0.05 on
  // an idle H200; 0.10 from a stream of the highest priority). The fetches
  // keep one order across both streams, as on one: a switch makes the next
  // stream wait for the other's last fetch, so that a fetch still follows
  // every fetch issued before it (a copy-in's alias copies overwrite parts
  // of what it brought in; a later task may read what an earlier fetch fills).
  cudaStream_t fetch_stream(bool within) {
    cudaStream_t next = within && within_ ? within_->get() : in_->get();
    if (next != fetch_tail_) {
      fetch_switch_->record(fetch_tail_);
      CSS_CUDA_CHECK(cudaStreamWaitEvent(next, fetch_switch_->get(), 0));
      fetch_tail_ = next;
    }
    return next;
  }

  // The oldest pending command streams its copies in: the parts filled so
  // far are DMAed in order on the `in` stream (the command's own copies and
  // task follow there once it is issued; every earlier command is issued
  // already), and as many next parts start filling as the ring has free
  // buffers. True if anything moved.
  bool stream_in(Pending &pending) {
    bool moved = false;
    while (pending.next_dma < pending.fills.size() &&
           copy_threads_->finished(pending.fills[pending.next_dma].job)) {
      StagedFill &fill = pending.fills[pending.next_dma];
      const PartOfCopy &part = pending.streamed[pending.next_dma++];
      if (pending.streamed_from < 0) pending.streamed_from = context_.now();
      cudaStream_t stream = fetch_stream(false);
      dma_part(part.device + part.part.offset, part.shape.stride, fill.buffer->host, part.part.row_bytes,
               part.part, cudaMemcpyHostToDevice, stream);
      staging_->queued_from(*fill.buffer, stream);
      moved = true;
    }
    while (!pending.all_filling()) {
      StagingBuffers::InBuffer *buffer = staging_->try_take_in();
      if (!buffer) break;
      const PartOfCopy &part = pending.streamed[pending.fills.size()];
      StagedFill &fill = pending.fills.emplace_back(
          StagedFill{buffer, part.part,
                     CopyThreads::pack(part.shape, part.part, part.host, buffer->host, part.activity)});
      copy_threads_->post(fill.job);
      moved = true;
    }
    return moved;
  }

  // Whether the command's fills are done: for one that streams, all of its
  // parts DMAed already.
  bool fills_done(Pending &pending) {
    if (pending.streams_in()) return pending.next_dma == pending.streamed.size();
    return std::all_of(pending.fills.begin() + static_cast<std::ptrdiff_t>(pending.next_fill),
                       pending.fills.end(),
                       [&](const StagedFill &fill) { return copy_threads_->finished(fill.job); });
  }

  // issue(): the next host piece copied in went through buffers, filled by
  // now: their DMAs to `device`, in order, on `stream`.
  void dma_staged_in(Pending &pending, std::byte *device, const Region &shape, cudaStream_t stream) {
    if (pending.streams_in()) { // DMAed while it streamed, to the same place in the same order
      const std::size_t parts = plan_staged_parts(shape, StagingBuffers::buffer_bytes).size();
      if (pending.next_fill + parts > pending.next_dma ||
          pending.streamed[pending.next_fill].device != device)
        fatal("internal error: a streamed copy in out of order (CudaDevice.cpp)");
      pending.next_fill += parts;
      return;
    }
    for (const StagedPart &part : plan_staged_parts(shape, StagingBuffers::buffer_bytes)) {
      if (pending.next_fill == pending.fills.size())
        fatal("internal error: a staged fill missing (CudaDevice.cpp)");
      StagedFill &fill = pending.fills[pending.next_fill++];
      if (fill.part.offset != part.offset || fill.part.rows != part.rows)
        fatal("internal error: staged fills out of order (CudaDevice.cpp)");
      dma_part(device + part.offset, shape.stride, fill.buffer->host, part.row_bytes, part,
               cudaMemcpyHostToDevice, stream);
      staging_->queued_from(*fill.buffer, stream);
    }
  }

  // One staged part between its buffer (rows packed) and device memory (rows
  // `..._pitch` apart, the region's stride).
  static void dma_part(std::byte *to, std::size_t to_pitch, const std::byte *from, std::size_t from_pitch,
                       const StagedPart &part, cudaMemcpyKind kind, cudaStream_t stream) {
    CSS_CUDA_CHECK(part.rows == 1
                       ? cudaMemcpyAsync(to, from, part.row_bytes, kind, stream)
                       : cudaMemcpy2DAsync(to, to_pitch, from, from_pitch, part.row_bytes, part.rows, kind,
                                           stream));
  }

  // Device to host through the out ring: the piece's parts are queued and
  // go through the ring's buffers as they come free (OutPart, pump_out);
  // the command is reported once they are all in user memory.
  void stage_out(std::byte *device, std::byte *host, const Region &shape, const faults::Activity *activity,
                 InFlight &flight) {
    for (const StagedPart &part : plan_staged_parts(shape, StagingBuffers::buffer_bytes)) {
      OutPart &queued = out_parts_.emplace_back();
      queued.flight = &flight;
      queued.copy = {host, device, shape, part, activity ? *activity : faults::Activity{}};
      ++flight.staged_out_left;
    }
    flight.stages_out = true;
  }

  // Moves the staged copies out on: a DMA for each waiting part that a
  // free buffer can take, in queue order (after the task that wrote its
  // data, if any); a drain for each part whose DMA has landed; the buffers
  // of drained parts back to the ring. Parts leave the queue from its front
  // (a drain that finishes early keeps its buffer until those before it
  // have). True if anything moved.
  bool pump_out() {
    bool moved = false;
    std::shared_ptr<CudaEvent> batch;
    const InFlight *waited_for = nullptr;
    cudaStream_t stream = staged_out_->get();
    for (; out_issued_ < out_parts_.size(); ++out_issued_) {
      OutPart &part = out_parts_[out_issued_];
      std::byte *buffer = staging_->take_out();
      if (!buffer) break;
      InFlight &flight = *part.flight;
      // A copy after a task reads what the task wrote: this stream waits
      // for it (the task's own `out` stream did, for its unstaged copies).
      if (&flight != waited_for && flight.command.task) {
        CSS_CUDA_CHECK(cudaStreamWaitEvent(stream, flight.task_end.get(), 0));
        waited_for = &flight;
      }
      if (flight.staged_out_from < 0) flight.staged_out_from = context_.now();
      if (!batch) batch = std::make_shared<CudaEvent>();
      part.buffer = buffer;
      part.landed = batch;
      const PartOfCopy &copy = part.copy;
      dma_part(buffer, copy.part.row_bytes, copy.device + copy.part.offset, copy.shape.stride, copy.part,
               cudaMemcpyDeviceToHost, stream);
      part.drain = CopyThreads::unpack(copy.shape, copy.part, buffer, copy.host, copy.activity);
      moved = true;
    }
    if (batch) batch->record(stream);
    const CudaEvent *seen_landed = nullptr; // parts of one batch share their event: query it once
    for (std::size_t i = 0; i < out_issued_; ++i) {
      OutPart &part = out_parts_[i];
      if (part.draining) continue;
      if (part.landed.get() != seen_landed) {
        if (!part.landed->done()) break; // the stream is in order: later batches have not landed either
        seen_landed = part.landed.get();
      }
      copy_threads_->post(part.drain);
      part.draining = true;
      moved = true;
    }
    while (out_issued_ > 0 && out_parts_.front().draining &&
           copy_threads_->finished(out_parts_.front().drain)) {
      OutPart &part = out_parts_.front();
      staging_->give_back_out(part.buffer);
      --part.flight->staged_out_left;
      out_parts_.pop_front();
      --out_issued_;
      moved = true;
    }
    return moved;
  }

  // One region of a transfer, `offset` bytes after the object's first byte.
  void copy_piece(const Transfer &transfer, std::size_t offset, const Region &shape, cudaStream_t stream,
                  PageLocks::Leases &leases, const faults::Activity *activity = nullptr,
                  InFlight *flight = nullptr) {
    std::byte *source = transfer.source + offset, *destination = transfer.destination + offset;
    if (transfer.from_space == 0 && transfer.to_space != 0 && issuing_ &&
        issuing_->next_piece < issuing_->staged.size() && issuing_->staged[issuing_->next_piece++]) {
      dma_staged_in(*issuing_, destination, shape, stream);
      return;
    }
    if (transfer.to_space == 0 && transfer.from_space != 0 && flight && stages(destination, shape)) {
      stage_out(source, destination, shape, activity, *flight);
      return;
    }
    // Locked ahead by the pinning service, mostly; what is not yet locked
    // is locked now, or waited for where the service has started on it,
    // unless it is copied pageable (CSS_UNLOCKED_COPIES=pageable). Strided
    // regions are locked even then: their unlocked rows would be copied one
    // pageable call each.
    std::byte *host = transfer.from_space == 0 ? source : transfer.to_space == 0 ? destination : nullptr;
    const bool pageable = host && page_locks_ && copy_unlocked_pageable_ && shape.is_contiguous();
    if (host && page_locks_ && !pageable) page_locks_->ensure_now(host, shape.span());
    // Unified addressing: cudaMemcpyDefault works out host, device or peer;
    // between two partitions of one GPU it is a device-to-device copy.
    cudaError_t status = cudaSuccess;
    auto copy_pieces = [&](const std::vector<PageLocks::Piece> &pieces) {
      for (auto [at, length] : pieces)
        if (status == cudaSuccess)
          status = cudaMemcpyAsync(destination + at, source + at, length, cudaMemcpyDefault, stream);
    };
    PageLocks::PageableClaim claim; // the unlocked pieces, kept from locking until the calls return
    if (shape.is_contiguous()) {
      copy_pieces(pageable              ? page_locks_->pieces_pageable(host, shape.span(), leases, claim)
                  : host && page_locks_ ? page_locks_->pieces(host, shape.span(), leases)
                                        : std::vector<PageLocks::Piece>{{0, shape.span()}});
    } else {
      // One 2-D copy, or, where the host side crosses registrations, one per
      // run of rows inside one of them (PageLocks::row_pieces).
      auto pieces = host && page_locks_
                        ? page_locks_->row_pieces(host, shape.row_bytes, shape.rows, shape.stride, leases)
                        : std::vector<PageLocks::RowPiece>{{0, shape.row_bytes, shape.rows}};
      for (auto [offset, length, rows] : pieces)
        if (status == cudaSuccess)
          status = cudaMemcpy2DAsync(destination + offset, shape.stride, source + offset, shape.stride, length,
                                     rows, cudaMemcpyDefault, stream);
    }
    // Pageable copies have read (to a device) or written (from one) the
    // host memory by the time their calls return: those pages may be locked.
    if (pageable) {
      page_locks_->end_pageable(claim);
      // CUDA refuses a host range that is partly registered. The claim keeps
      // our own locks off the pages being copied; memory registered by
      // someone else can still be that (the program's own cudaHostRegister
      // next to a block). Then the range is locked as a whole, and copied
      // again through the lock: the same bytes to the same place.
      if (status == cudaErrorInvalidValue) {
        (void)cudaGetLastError();
        page_locks_->ensure_now(host, shape.span());
        status = cudaSuccess;
        copy_pieces(page_locks_->pieces(host, shape.span(), leases));
      }
    }
    if (status != cudaSuccess) {
      char where[512];
      std::snprintf(where, sizeof where, "copy of %zu bytes (%zu rows) from space %d at %p to space %d at %p",
                    shape.payload_bytes(), shape.rows, transfer.from_space, static_cast<void *>(source),
                    transfer.to_space, static_cast<void *>(destination));
      cudaPointerAttributes source_attributes{}, destination_attributes{};
      cudaError_t source_query = cudaPointerGetAttributes(&source_attributes, source);
      cudaError_t destination_query = cudaPointerGetAttributes(&destination_attributes, destination);
      (void)cudaGetLastError();
      std::snprintf(where + std::strlen(where), sizeof where - std::strlen(where),
                    " [source type %d/%d, destination type %d/%d device %d; pool %p + %zu; on %s]",
                    static_cast<int>(source_attributes.type), static_cast<int>(source_query),
                    static_cast<int>(destination_attributes.type), static_cast<int>(destination_query),
                    destination_attributes.device, static_cast<void *>(pool_), pool_bytes_, name_.c_str());
      check_cuda(status, where, __FILE__, __LINE__);
    }
  }

  // A copy-back placed here: the renamed value (access 0) and the original
  // (access 1) both have replicas on this device, so the value goes home by
  // a copy in device memory, in the task's place on the compute stream. The
  // original then reaches user memory by the usual write-back, and the
  // renamed buffer on the host is never touched (performance.md: page-locking
  // it stalled this worker for 12 ms per 32 MB).
  void copy_back(const Task &task, const std::vector<void *> &addresses, cudaStream_t stream) {
    Transfer within;
    within.object = task.accesses[0].object;
    within.from_space = within.to_space = space();
    within.source = static_cast<std::byte *>(addresses[0]);
    within.destination = static_cast<std::byte *>(addresses[1]);
    PageLocks::Leases none; // device memory on both sides
    copy(within, stream, none, &task);
  }

  void issue(Pending &pending) {
    issuing_ = &pending;
    auto flight = std::make_unique<InFlight>();
    flight->command = std::move(pending.command);
    flight->streamed_in_from = pending.streamed_from;
    DeviceCommand &command = flight->command;
    if (!command.task) {
      // Transfer-only: loads ahead of this device's tasks, or write-backs of
      // its replicas to the host.
      const bool load = command.is_load();
      flight->copies_start.record(load ? fetch_tail_ : out_->get());
      for (const Transfer &transfer : command.before)
        copy(transfer, load ? fetch_stream(transfer.is_alias_copy()) : out_->get(), flight->leases, nullptr,
             flight.get());
      const cudaStream_t last = load ? fetch_tail_ : out_->get();
      flight->copies_end.record(last);
      flight->done.record(last);
    } else if (!wait_all_fetches_ && !command.after_fetches) {
      flight->fetch_free = true;
    } else {
      flight->copies_start.record(fetch_tail_);
      flight->peer_start.record(peer_->get());
      // Alias copies within this device's memory follow the copies from the
      // host in the fetch order: they overwrite parts of what those brought
      // in. (No copy out among them stages: the task must follow its copies
      // on these streams, and a staged part's DMA is issued when its turn comes.)
      for (const Transfer &transfer : command.before)
        copy(transfer,
             transfer.from_space == 0 || transfer.is_alias_copy() ? fetch_stream(transfer.is_alias_copy())
                                                                  : peer_->get(),
             flight->leases, command.task.get());
      // The fetches are in one order, and the peer stream in its own: these
      // events also cover earlier commands' fetches and loads, which this
      // task may read.
      flight->copies_end.record(fetch_tail_);
      flight->peer_end.record(peer_->get());
    }
    issuing_ = nullptr;
    if (pending.next_fill != pending.fills.size())
      fatal("internal error: staged fills left unissued (CudaDevice.cpp)");
    if (!command.task)
      in_flight_.push_back(std::move(flight));
    else if (lane_depth_ == 0)
      launch(std::move(flight));
    else
      copying_.push_back(std::move(flight));
  }

  // A task whose copies are issued: its body on a lane, after its copies on
  // the GPU, then its copies out.
  void launch(std::unique_ptr<InFlight> flight) {
    DeviceCommand &command = flight->command;
    ComputeLane &lane = pick_lane(*command.task, *flight);
    cudaStream_t compute = lane.stream->get();
    if (!flight->fetch_free) {
      CSS_CUDA_CHECK(cudaStreamWaitEvent(compute, flight->copies_end.get(), 0));
      CSS_CUDA_CHECK(cudaStreamWaitEvent(compute, flight->peer_end.get(), 0));
    }
    flight->task_start.record(compute);
    command.task->launch_time = context_.now();
    current_stream = compute;
    current_cublas = lane.cublas->get();
    // The device index, not the ordinal: with partitions several devices
    // share an ordinal, and a body keying resources by device_index must
    // not share them between workers (gpuss.h).
    if (command.task->kind == TaskKind::CopyBack)
      copy_back(*command.task, command.addresses, compute);
    else {
      const Task &task = *command.task;
      faults::Activity body = faults::Activity::body(task.label, task.file, task.line, name_.c_str());
      faults::Scope in_body(body);
      RunningScope running({command.task.get(), &command.addresses, context_.nested, false, 0});
      run_task_body(*command.task, command.addresses, CSS_DEVICE_CUDA, index(), compute, lane.cublas->get());
    }
    // A failed launch inside the body would otherwise surface later, at
    // some unrelated call: report it against the task that made it.
    if (cudaError_t status = cudaGetLastError(); status != cudaSuccess)
      fatal_for_task(command.task->label, command.task->file, command.task->line,
                     "failed on " + name_ + ": " + cudaGetErrorName(status) + " (" +
                         cudaGetErrorString(status) + ")");
    flight->task_end.record(compute);
    if (command.after.empty()) {
      flight->done.record(compute);
    } else {
      CSS_CUDA_CHECK(cudaStreamWaitEvent(out_->get(), flight->task_end.get(), 0));
      flight->after_start.record(out_->get());
      for (const Transfer &transfer : command.after)
        copy(transfer, out_->get(), flight->leases, command.task.get(), flight.get());
      flight->done.record(out_->get());
    }
    in_flight_.push_back(std::move(flight));
  }

  // CSS_GPU_LANE_DEPTH: launches, while a lane has room, the staged task
  // that goes first (the helper's order: a task others wait for, then the
  // highest rank, then the oldest) among those whose copies have landed.
  // Launched in the order staged, a task that became the most urgent after
  // a dozen others were staged queued behind them on its lane: in LU's
  // traces each link of a block column's chain of swaps, solve and updates
  // waited there, and a step of a column took 30-80 ms (performance.md,
  // thirteenth session).
  bool launch_copied() {
    bool progress = false;
    for (;;) {
      auto best = copying_.end();
      for (auto it = copying_.begin(); it != copying_.end(); ++it) {
        if (!(*it)->fetch_free && (!(*it)->copies_end.done() || !(*it)->peer_end.done())) continue;
        if (best == copying_.end() || launches_before(*(*it)->command.task, *(*best)->command.task))
          best = it;
      }
      if (best == copying_.end() || !lane_has_room(*(*best)->command.task)) return progress;
      std::unique_ptr<InFlight> flight = std::move(*best);
      copying_.erase(best);
      launch(std::move(flight));
      progress = true;
    }
  }

  // With a lane depth the priority lane holds one task at a time: a task
  // that goes first and finds it busy takes a normal lane. Every such task
  // on the one priority stream (each step's solves and panels of an LU)
  // queued there behind each other (LU 3.08 s against 2.72 without the lane,
  // one H200, 2026-11-29).
  bool takes_urgent_lane(const Task &task) const {
    return urgent_lane_ && task.goes_first && (lane_depth_ == 0 || launched_per_lane_.back() == 0);
  }

  bool lane_has_room(const Task &task) const {
    return takes_urgent_lane(task) ||
           *std::min_element(launched_per_lane_.begin(), launched_per_lane_.begin() + lanes_.size()) <
               lane_depth_;
  }

  // A task whose lane counts it no longer, once it has ended: before the
  // flight is completed and dropped, or the lane would count it for ever.
  bool release_lane(InFlight &flight) {
    if (!flight.held_lane || !flight.task_end.done()) return false;
    drop_lane(flight);
    return true;
  }
  void drop_lane(InFlight &flight) {
    if (!flight.held_lane) return;
    --launched_per_lane_[*flight.held_lane];
    flight.held_lane.reset();
  }

  // `done` has completed: times, trace and counts; then the drains of its
  // staged copies out start (finish() reports it once they are drained).
  void complete(InFlight &flight) {
    DeviceCommand &command = flight.command;
    // Device times on the host clock: `done` has just been seen complete.
    double now = context_.now();
    auto at = [&](const CudaEvent &event) {
      float milliseconds = 0;
      CSS_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, event.get(), flight.done.get()));
      return now - milliseconds * 1e-3;
    };
    // Copies in that streamed began before the command was issued.
    auto copies_from = [&] {
      const double start = at(flight.copies_start);
      return flight.streamed_in_from >= 0 ? std::min(flight.streamed_in_from, start) : start;
    };
    bool tracing = context_.trace->enabled();
    if (tracing && !command.task) {
      if (!flight.stages_out) // else finish() traces it
        context_.trace->record(name_ + (command.is_load() ? " in" : " out"),
                               command.is_load() ? "load-ahead" : "write-back", copies_from(),
                               at(flight.copies_end), payload_bytes(command.before));
    } else if (tracing) {
      // Copies within this device's memory (alias copies) run on the fetch
      // stream, after the copies from the host: timed with those.
      std::uint64_t from_host = 0, within = 0, from_peers = 0;
      for (const Transfer &transfer : command.before)
        (transfer.from_space == 0   ? from_host
         : transfer.is_alias_copy() ? within
                                    : from_peers) += transfer.payload_bytes();
      if (from_host)
        context_.trace->record(name_ + " in", "fetch", copies_from(), at(flight.copies_end), from_host,
                               command.task->traced());
      if (within)
        context_.trace->record(name_ + " in", "alias", at(flight.copies_start), at(flight.copies_end), within,
                               command.task->traced());
      if (from_peers)
        context_.trace->record(name_ + " peer", "fetch", at(flight.peer_start), at(flight.peer_end),
                               from_peers, command.task->traced());
    }
    if (command.task) {
      Task &task = *command.task;
      task.start_time = at(flight.task_start);
      task.end_time = at(flight.task_end);
      context_.count_device_task(index(), name_, task);
      if (tracing && !command.after.empty() && !flight.stages_out)
        context_.trace->record(name_ + " out", "write-back", at(flight.after_start), now,
                               payload_bytes(command.after), task.traced());
    }
    flight.completed = true;
  }

  // Completed, and its staged copies out are in user memory: reported.
  void finish(InFlight &flight) {
    DeviceCommand &command = flight.command;
    // A write-back that staged ends when its last part is drained (its
    // events only cover what did not stage).
    if (flight.stages_out && context_.trace->enabled())
      context_.trace->record(name_ + " out", "write-back", flight.staged_out_from, context_.now(),
                             payload_bytes(command.task ? command.after : command.before),
                             command.task ? command.task->traced() : TraceTask{});
    if (page_locks_) page_locks_->release(flight.leases);
    context_.report_done(command, space());
  }

  void run(std::latch &ready) {
    release_hooks::Exemption exempt; // this thread's copies hold leases: it must never wait for them
    faults::AlternateStack signal_stack;
    CSS_CUDA_CHECK(cudaSetDevice(ordinal_));
    void *pool = nullptr;
    CSS_CUDA_CHECK(cudaMalloc(&pool, pool_bytes_ ? pool_bytes_ : 256));
    pool_ = static_cast<std::byte *>(pool);
    sanitizer_heap_.open(pool_, pool_bytes_ ? pool_bytes_ : 256);
    int least_priority = 0, greatest_priority = 0;
    CSS_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least_priority, &greatest_priority));
    in_ = std::make_unique<CudaStream>();
    if (alias_priority_) {
      within_ = std::make_unique<CudaStream>(greatest_priority);
      fetch_switch_ = std::make_unique<CudaEvent>();
    }
    fetch_tail_ = in_->get();
    peer_ = std::make_unique<CudaStream>();
    out_ = std::make_unique<CudaStream>();
    staged_out_ = std::make_unique<CudaStream>();
    // One cuBLAS handle per lane: a handle's workspace must not be shared by
    // kernels running at once.
    auto make_lane = [](int priority) {
      ComputeLane lane{std::make_unique<CudaStream>(priority), std::make_unique<CublasHandle>()};
      CSS_CUBLAS_CHECK(CublasLibrary::get().set_stream(lane.cublas->get(), lane.stream->get()));
      return lane;
    };
    for (unsigned i = 0; i < lane_count_; ++i)
      lanes_.push_back(make_lane(least_priority));
    launched_per_lane_.assign(lanes_.size() + 1, 0); // the last: the priority lane's
    if (priority_lane_) urgent_lane_ = make_lane(greatest_priority);
    current_stream = lanes_.front().stream->get();
    current_cublas = lanes_.front().cublas->get();
    ready.count_down();
    // The staging buffers before the first command rather than at its first
    // staged copy: page-locking them takes tens of milliseconds, which the
    // program's own work after start-up hides (css-stats: staging_alloc_s).
    if (copy_threads_) {
      const auto started = std::chrono::steady_clock::now();
      staging_ = std::make_unique<StagingBuffers>();
      Stats::add(context_.stats->staging_alloc_ns,
                 static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                std::chrono::steady_clock::now() - started)
                                                .count()));
    }

    const std::atomic<bool> &stop = *context_.stop;
    for (;;) {
      std::uint32_t ticket = inbox_.prepare();
      DeviceCommand command;
      bool progress = false;
      while (inbox_.try_pop(command)) {
        pending_.emplace_back().command = std::move(command);
        command = DeviceCommand{};
        progress = true;
      }
      for (Pending &pending : pending_) {
        if (!pending.prepared && !prepare(pending)) break;
        // One that streams takes the ring's buffers as they free: those
        // behind it take none until it has them all (they would hold them
        // until issued, after it).
        if (pending.streams_in() && !pending.all_filling()) break;
      }
      if (!pending_.empty() && pending_.front().streams_in() && stream_in(pending_.front())) progress = true;
      while (!pending_.empty() && pending_.front().prepared && fills_done(pending_.front())) {
        issue(pending_.front());
        pending_.pop_front();
        progress = true;
      }
      for (auto &flight : in_flight_)
        if (release_lane(*flight)) progress = true;
      if (!copying_.empty() && launch_copied()) progress = true;
      if (staging_ && pump_out()) progress = true;
      for (auto it = in_flight_.begin(); it != in_flight_.end();) {
        InFlight &flight = **it;
        if (!flight.completed) {
          if (!flight.done.done()) {
            ++it;
            continue;
          }
          drop_lane(flight); // its task has ended too, perhaps since the pass above
          complete(flight);
          progress = true;
        }
        if (flight.staged_out_left > 0) {
          ++it;
          continue;
        }
        finish(flight);
        it = in_flight_.erase(it);
        progress = true;
      }
      if (progress) continue;
      if (in_flight_.empty() && pending_.empty() && copying_.empty()) {
        if (stop.load(std::memory_order_acquire)) break;
        inbox_.wait(ticket, context_.spin_rounds);
      } else {
        // The GPU is busy: poll its events without burning a core.
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      }
    }
    lanes_.clear();
    urgent_lane_.reset();
    staging_.reset(); // no copy is in flight
    fetch_switch_.reset();
    within_.reset();
    in_.reset();
    peer_.reset();
    out_.reset();
    staged_out_.reset();
    sanitizer_heap_.close();
    CSS_CUDA_CHECK(cudaFree(pool_));
    pool_ = nullptr;
  }

  int ordinal_;
  std::string name_;
  std::size_t memory_;          // this partition's share of the GPU's usable memory
  PageLocks *page_locks_;       // null: host copies run pageable (CSS_PIN_HOST=0)
  CopyThreads *copy_threads_;   // null: unlocked memory is locked as it is copied (CSS_STAGING_THREADS=0)
  bool copy_unlocked_pageable_; // contiguous memory not locked yet is copied as it is (CSS_UNLOCKED_COPIES)
  std::unique_ptr<StagingBuffers> staging_; // worker thread only, made when it starts if it stages
  mutable std::mutex peer_mutex_;
  std::set<int> peers_; // spaces this device reads directly
  WorkerContext context_;
  std::size_t pool_bytes_ = 0;
  std::byte *pool_ = nullptr;
  SanitizerHeap sanitizer_heap_; // opened by the worker before start() returns; then read by the helper
  struct ComputeLane {
    std::unique_ptr<CudaStream> stream;
    std::unique_ptr<CublasHandle> cublas; // bound to `stream`; declared after it, so destroyed first
  };
  std::unique_ptr<CudaStream> in_, peer_, out_;
  // CSS_GPU_ALIAS_PRIORITY: the alias copies' stream (fetch_stream); null
  // otherwise. fetch_tail_: the one of `in_` and `within_` that holds the
  // latest fetch, worker thread only.
  std::unique_ptr<CudaStream> within_;
  cudaStream_t fetch_tail_ = nullptr;
  std::unique_ptr<CudaEvent>
      fetch_switch_;                       // the end of one fetch stream's work, for the other (with within_)
  std::unique_ptr<CudaStream> staged_out_; // the DMAs of staged copies out, in their turn (pump_out)
  std::deque<OutPart> out_parts_;          // worker thread only: queued, oldest first; never moved
  std::size_t out_issued_ = 0;             // the first out_issued_ of out_parts_ hold buffers
  unsigned lane_count_;
  std::vector<ComputeLane> lanes_; // CSS_GPU_STREAMS compute streams, worker thread only
  bool priority_lane_;             // CSS_GPU_PRIORITY_LANE
  std::optional<ComputeLane> urgent_lane_; // the priority lane, if asked for; worker thread only
  std::size_t next_lane_ = 0;
  const unsigned lane_depth_;               // CSS_GPU_LANE_DEPTH; 0: launched as issued
  const bool wait_all_fetches_;             // CSS_GPU_WAIT_ALL_FETCHES
  const bool alias_priority_;               // CSS_GPU_ALIAS_PRIORITY
  std::vector<unsigned> launched_per_lane_; // with a lane depth: tasks launched and not ended, per lane
  // With a lane depth: tasks whose copies are issued, not launched yet, in
  // the order staged. Worker thread only.
  std::deque<std::unique_ptr<InFlight>> copying_;

  // Tasks take the compute lanes in turn. Staged tasks are independent
  // (each was ready when dispatched), so a latency-bound kernel (a trsm, a
  // potrf) can overlap a gemm of another lane. With the priority lane, the
  // tasks the helper runs ahead of others (a panel, a task many wait for)
  // take it instead: the GPU gives SMs to a higher-priority stream's pending
  // blocks first, so such a kernel need not wait for the gemms issued before
  // it on other lanes to drain (performance.md, 2026-11-28: in LU's traces,
  // small swap kernels held their lanes behind other lanes' gemms). Opt-in
  // until measured on GPUs.
  // With a lane depth, the lane with the fewest tasks launched, which
  // then counts this one until it ends.
  ComputeLane &pick_lane(const Task &task, InFlight &flight) {
    if (takes_urgent_lane(task)) {
      Stats::add(context_.stats->priority_lane_tasks, 1);
      if (lane_depth_ > 0) {
        ++launched_per_lane_.back();
        flight.held_lane = lanes_.size();
      }
      return *urgent_lane_;
    }
    if (lane_depth_ == 0) return lanes_[next_lane_++ % lanes_.size()];
    const auto least =
        std::min_element(launched_per_lane_.begin(), launched_per_lane_.begin() + lanes_.size());
    ++*least;
    flight.held_lane = static_cast<std::size_t>(least - launched_per_lane_.begin());
    return lanes_[*flight.held_lane];
  }

  std::deque<std::unique_ptr<InFlight>> in_flight_; // worker thread only
  std::deque<Pending> pending_;                      // worker thread only: popped, not issued; never moved
  Pending *issuing_ = nullptr;                       // issue(): the command being issued
  Inbox<DeviceCommand> inbox_;
  std::jthread thread_;
};

} // namespace

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

std::unique_ptr<PageLocker> make_cuda_page_locker() {
  return std::make_unique<CudaPageLocker>();
}

std::vector<std::unique_ptr<Device>> make_cuda_devices(int first_space, int max_gpus, unsigned partitions,
                                                       PageLocks *page_locks, CopyThreads *copy_threads,
                                                       const CudaDeviceOptions &options, NodeRanks node) {
  GpuShare share = share_gpus(cuda_device_count(), node);
  std::vector<int> &ordinals = share.ordinals;
  if (max_gpus >= 0 && static_cast<int>(ordinals.size()) > max_gpus) ordinals.resize(max_gpus);
  const int count = static_cast<int>(ordinals.size());
  partitions = std::max(1u, partitions);
  std::vector<std::unique_ptr<Device>> devices;
  std::vector<std::vector<CudaDevice *>> partitions_of(count); // by position in ordinals
  for (int i = 0; i < count; ++i) {
    GpuInfo gpu = query_gpu(ordinals[i]);
    // Processes sharing the GPU each take their part of the memory free now
    // (they start together, so each sees all of it free).
    gpu.usable_bytes /= share.sharers;
    for (unsigned partition = 0; partition < partitions; ++partition) {
      int space = first_space + static_cast<int>(devices.size());
      auto device =
          std::make_unique<CudaDevice>(space, gpu, partition, partitions, page_locks, copy_threads, options);
      partitions_of[i].push_back(device.get());
      devices.push_back(std::move(device));
    }
  }
  auto spaces_of = [&](int i, std::vector<int> &spaces) {
    for (CudaDevice *device : partitions_of[i])
      spaces.push_back(device->space());
  };
  // Peer access: each GPU maps every peer it can reach, so copies between
  // GPUs go over NVLink instead of through the host. The partitions of one
  // GPU share its context and read each other's pools without it (enabling
  // peer access from a GPU to itself is an error).
  for (int a = 0; a < count; ++a) {
    std::vector<int> readable;
    spaces_of(a, readable);
    CSS_CUDA_CHECK(cudaSetDevice(ordinals[a]));
    for (int b = 0; b < count; ++b) {
      int can = 0;
      if (a == b || cudaDeviceCanAccessPeer(&can, ordinals[a], ordinals[b]) != cudaSuccess || !can) continue;
      cudaError_t status = cudaDeviceEnablePeerAccess(ordinals[b], 0);
      if (status == cudaSuccess || status == cudaErrorPeerAccessAlreadyEnabled) spaces_of(b, readable);
      (void)cudaGetLastError();
    }
    for (CudaDevice *device : partitions_of[a])
      device->set_peers(readable);
  }
  return devices;
}

} // namespace gpuss

extern "C" void *css_cuda_stream_ptr(void) {
  return gpuss::current_stream;
}
extern "C" void *css_cublas_handle_ptr(void) {
  return gpuss::current_cublas;
}
