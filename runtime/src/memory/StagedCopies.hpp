// StagedCopies: copies of host memory that is not page-locked to a GPU,
// through page-locked staging buffers filled by host threads in parallel.
//
// A user's first run finds nothing locked. Locking costs 5 to 26 GB/s
// depending on the node (cudaHostRegister; performance.md), a copy from
// pageable memory 6-7 GB/s, while a GPU reads locked memory at about 50
// GB/s. A device worker that must copy a range not locked yet can instead
// cut it into buffer-sized parts (plan_staged_parts), have these threads
// memcpy each part into a locked buffer (several parts at once: one thread
// copies at a few GB/s, eight reach about 18 on an H200 node, pinning.cu),
// and DMA each buffer as soon as it is full. A range copied often is locked
// after all, before its fourth staged copy (PageLocks::count_staged; the
// device decides), and later copies go through the lock.
//
// The buffers and the DMAs are the device's (CudaDevice.cpp: only a device's
// worker makes CUDA calls for it); here are the plan and the threads.
//
// Threads: any device worker posts jobs and waits for them; the pool's own
// threads run them. Totals are read by the runtime at finish.
#pragma once

#include "devices/FaultReports.hpp"
#include "graph/Region.hpp"
#include "support/Config.hpp"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuss {

// One staging buffer's worth of a region: `rows` runs of `row_bytes`, the
// first `offset` bytes after the region's first byte, `stride` apart as in
// the region (host and device copies share the region's layout). Packed
// into the buffer, they take rows * row_bytes bytes.
struct StagedPart {
  std::size_t offset = 0;
  std::size_t row_bytes = 0;
  std::size_t rows = 1;
};

// The region cut into parts of at most `buffer_bytes` each, in address
// order, covering each byte of the region once and no byte between its
// rows: whole rows where a row fits a buffer, else pieces of one row.
std::vector<StagedPart> plan_staged_parts(const Region &shape, std::size_t buffer_bytes);

// CSS_STAGING_THREADS=auto: how many copy threads stage, for `gpus` GPUs on
// a node with `hardware_threads`. With one GPU, as many as the node has
// threads, at most 16, from four up: on one H200 (2026-11-28, sixth session,
// performance.md) a first-run Cholesky at n = 49152 reached 42.1-43.9
// TFLOP/s staged with 8 or 16 threads against 35.2-43.3 locking as copied,
// on a node whose locks ran at 10-18 GB/s; at 65536, 45.0-45.6 against
// 43.0-45.5. (Before the staging buffers were allocated at start, staging
// lost where locking was fast, and auto measured the lock rate to choose.)
// Several GPUs copy memory not locked yet as it is (choose_unlocked_copies).
unsigned auto_staging_threads(int gpus, unsigned hardware_threads);

// CSS_UNLOCKED_COPIES: what `asked` means for `gpus` GPUs (never Auto).
// Several GPUs copy memory not locked yet faster as it is than by locking it
// first: on a 4xH100 node of 2026-11-28 (performance.md), a first-run
// Cholesky at n = 65536 reached 52.8-65.9 TFLOP/s with pageable copies
// (54.3-63.6 with the pinning service locking behind them) against 38.4-46.8
// with each GPU worker locking what it copies: cudaHostRegister from four
// workers at once adds up to under 10 GB/s, and four pageable streams to
// some 15. One GPU copies pageable memory at 7 GB/s, slower than it locks
// (17.0-17.4 against 26.2-28.3 on that node): Lock.
UnlockedCopies choose_unlocked_copies(UnlockedCopies asked, int gpus);

class CopyThreads {
public:
  // rows of row_bytes from `from` (rows from_stride apart) to `to` (rows
  // to_stride apart). The poster keeps the job alive until done.
  struct Job {
    const std::byte *from = nullptr;
    std::byte *to = nullptr;
    std::size_t row_bytes = 0, rows = 1, from_stride = 0, to_stride = 0;
    // What a fault while copying is reported as (FaultReports.hpp): the
    // copy reads user memory, whose region may reach past its allocation.
    faults::Activity activity;
    bool done = false; // guarded by the pool's mutex
  };

  explicit CopyThreads(unsigned threads);
  ~CopyThreads(); // no job may be outstanding
  CopyThreads(const CopyThreads &) = delete;
  CopyThreads &operator=(const CopyThreads &) = delete;

  unsigned threads() const { return static_cast<unsigned>(threads_.size()); }
  void post(Job &job);
  // Returns once the job has run; the job may then be destroyed.
  void wait(const Job &job);
  // Whether the job has run (a worker polling).
  bool finished(const Job &job);

  struct Totals {
    std::uint64_t bytes = 0;
    double busy_seconds = 0; // summed over the threads
  };
  Totals totals() const;

  // The job that packs `part` of `shape` (whose first byte is at `host`)
  // into a staging buffer, and the one that unpacks a buffer into it; a fault
  // in either names the part (`activity` says whose copy it is).
  static Job pack(const Region &shape, const StagedPart &part, const std::byte *host, std::byte *buffer,
                  const faults::Activity &activity);
  static Job unpack(const Region &shape, const StagedPart &part, const std::byte *buffer, std::byte *host,
                    const faults::Activity &activity);

private:
  void run();

  std::mutex mutex_;
  std::condition_variable posted_;   // a job was posted, or the pool is stopping
  std::condition_variable finished_; // a job is done (the pool's: a finished job may be gone)
  std::deque<Job *> queue_; // guarded by mutex_
  bool stopping_ = false;   // guarded by mutex_
  std::atomic<std::uint64_t> bytes_{0};
  std::atomic<std::uint64_t> busy_nanoseconds_{0};
  std::vector<std::jthread> threads_;
};

} // namespace gpuss
