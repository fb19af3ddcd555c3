// PageLocks: the host memory page-locked for copies to and from GPUs, and
// the bytes of it that tasks named.
//
// GPUs copy page-locked memory about seven times faster than pageable memory
// (performance.md), so user memory is locked the first time a task names it
// and stays locked for later tasks. But a lock outlives the memory: CUDA
// keeps the registration of freed memory, and a new allocation at the same
// addresses would be copied from the old pages (measured: every value lost).
// So a lock is undone before its memory goes back to the system: when the
// program frees it (HostReleaseHooks), at css_unpin, at finish, and for the
// runtime's own buffers before it frees them; and never while a copy still
// uses it, since a copy of a neighbouring block may go through a lock that
// also covers the freed block's pages.
//
// Thread-safe: the pinning service's threads lock ahead of need
// (PinService.hpp), GPU workers lock what they copy if it is not locked yet
// and split their copies, the master and the program's threads unlock.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace gpuss {

// How pages are locked: cudaHostRegister on GPUs, a recorder in tests.
class PageLocker {
public:
  virtual ~PageLocker() = default;
  // Locks [start, start + bytes), whole pages. False where the memory cannot
  // be locked (locked by someone else, a mapped file): its copies then run
  // from pageable memory.
  virtual bool lock(void *start, std::size_t bytes) = 0;
  virtual void unlock(void *start) = 0;
};

class PageLocks {
public:
  // The locks a copy goes through; they stay until released.
  using Leases = std::vector<std::uintptr_t>;
  struct Piece {
    std::size_t offset = 0, length = 0;
  };

  explicit PageLocks(std::unique_ptr<PageLocker> locker);
  ~PageLocks(); // unlocks everything; no copy may be in flight
  PageLocks(const PageLocks &) = delete;
  PageLocks &operator=(const PageLocks &) = delete;

  // [address, address + bytes) is memory tasks use: locks the pages not yet
  // locked, and remembers the bytes as named by tasks. The lock is not held
  // while the locker works (milliseconds per megabyte of memory never
  // touched), so copies through locks already made never wait for it; a
  // part another thread is locking meanwhile is left to that thread.
  void ensure(const void *address, std::size_t bytes);
  // As ensure, and returns only once every page of the range is locked or
  // could not be: parts another thread is locking are waited for. For a
  // device worker about to copy the range: a lock the pinning service
  // (PinService.hpp) has started is nearly done, and copying through it
  // beats copying pageable.
  void ensure_now(const void *address, std::size_t bytes);

  // Undoes every lock that touches the pages of [address, address + bytes)
  // (a lock may also cover a neighbour's pages, which are then copied
  // pageable until locked again), once the copies leasing it are done, and
  // forgets the bytes named there. Waits for them: never call it on a thread
  // whose copies hold leases.
  void forget(const void *address, std::size_t bytes);
  void forget_all();

  // Whether tasks named any byte of [address, address + bytes): memory the
  // program is freeing must then be unlocked first.
  bool named(const void *address, std::size_t bytes) const;

  // A device worker issuing a copy: [address, address + bytes) split where
  // it crosses from one lock to another or to unlocked memory (CUDA rejects
  // a copy whose host range spans two registrations, and neighbouring user
  // blocks often share a page). Each lock used is leased, and stays until
  // release(leases) after the copy has finished.
  std::vector<Piece> pieces(const void *address, std::size_t bytes, Leases &leases);
  void release(Leases &leases);

  // The same for a strided region: `rows` rows of `row_bytes`, `stride`
  // apart, from `address`. A strided tile spans far more memory than it
  // holds (a 2048-column tile of a column-major n = 49152 matrix: 786 MB),
  // so its span often crosses locks made for its neighbours; copied row by
  // row, such a tile took 2048 calls of 16 KiB and the copy engine ran at
  // 10.6 GB/s where one 2-D copy runs at 45-49 (one H100, 2026-11-27). Here
  // consecutive rows inside one lock, or all unlocked, make one 2-D piece,
  // and only a row that crosses a lock boundary is cut, into one-row pieces.
  // Pieces in address order; each lock used is leased once.
  struct RowPiece {
    std::size_t offset = 0; // from `address`: the first row's first byte copied
    std::size_t length = 0; // bytes copied of each row
    std::size_t rows = 1;
  };
  std::vector<RowPiece> row_pieces(const void *address, std::size_t row_bytes, std::size_t rows,
                                   std::size_t stride, Leases &leases);

  // A device worker about to copy [address, address + bytes) without
  // waiting for it to be locked (CSS_UNLOCKED_COPIES=pageable): pieces() as
  // above, taken once no lock is being made over its pages, and its unlocked
  // pieces are kept from being locked until end_pageable(claim). CUDA
  // refuses a copy whose host range is partly registered: a lock the pinning
  // service made over a neighbour's pages while a pageable copy was being
  // issued failed it (cudaErrorInvalidValue, two H100s, 2026-11-28). A
  // pageable copy returns only once it no longer touches host memory, so the
  // claim ends right after its calls.
  struct PageableClaim {
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> pages; // [lo, hi) of each unlocked piece
  };
  std::vector<Piece> pieces_pageable(const void *address, std::size_t bytes, Leases &leases,
                                     PageableClaim &claim);
  void end_pageable(PageableClaim &claim);

  // Whether every page of [address, address + bytes) is locked now.
  bool locked(const void *address, std::size_t bytes) const;

  // A device worker is about to copy [address, address + bytes), which is
  // not locked, through staging buffers (StagedCopies.hpp): returns how
  // many staged copies of the range starting at `address` there have been,
  // this one included. Memory copied often is worth locking (CudaDevice.cpp
  // decides); the count goes with the memory (forget).
  unsigned count_staged(const void *address, std::size_t bytes);

  // Bytes locked now (tests and diagnostics).
  std::size_t locked_bytes() const;

  // What locking has cost so far: bytes locked, and the time spent in the
  // locker doing it (summed over the threads that locked), for the stats
  // line's page-lock rate.
  struct Totals {
    std::uint64_t bytes = 0;
    double seconds = 0;
  };
  Totals totals() const;

private:
  struct Lock {
    std::uintptr_t end = 0;
    std::uint32_t leases = 0; // copies in flight through it
  };
  using Locks = std::map<std::uintptr_t, Lock>;            // by start, disjoint
  using Ranges = std::map<std::uintptr_t, std::uintptr_t>; // [start, end), disjoint

  void unlock_when_unleased(std::unique_lock<std::mutex> &held, Locks &doomed);
  // Under mutex_: [lo, hi) cut where it crosses from one lock to another or
  // to unlocked memory, in address order: visit(at, end, lock), `lock` the
  // lock holding [at, end) or locks_.end() where it is unlocked.
  template <typename Visit> void cut_at_locks(std::uintptr_t lo, std::uintptr_t hi, Visit visit);

  std::unique_ptr<PageLocker> locker_;
  mutable std::mutex mutex_;
  std::condition_variable released_; // a lease ended, a pending lock was made, or a closing one undone
  Locks locks_;                      // locked, in use
  Ranges pending_;                   // being locked by some thread, disjoint from locks_
  Locks closing_;                    // forgotten, waiting for their leases to end
  Ranges named_;                     // bytes tasks named, merged
  struct Staged {
    std::uintptr_t end = 0;
    unsigned copies = 0;
  };
  std::map<std::uintptr_t, Staged> staged_; // by first byte: staged copies of unlocked ranges
  // Pages pageable copies are reading or writing now (pieces_pageable), one
  // entry per claim, so ranges may repeat and overlap: no lock starts over
  // them. Few at a time (one copy per device worker).
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> pageable_;
  bool copying_pageable(std::uintptr_t lo, std::uintptr_t hi) const; // under mutex_
  bool being_locked(std::uintptr_t lo, std::uintptr_t hi) const;     // under mutex_
  Totals totals_;                    // guarded by mutex_
};

} // namespace gpuss
