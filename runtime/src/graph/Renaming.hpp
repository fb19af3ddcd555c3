// Renaming (StarSs): fresh storage for output-only accesses so that a task
// need not wait for earlier readers and writers of the region.
//
// RenameBudget caps the bytes of renamed buffers alive at once; beyond the
// cap the tracker does not rename and the task waits instead.
// ObjectStore creates DataObjects: the original (user memory) storage of a
// region, or a renamed buffer charged to the budget. Objects are handed to
// the retire queue when their last reference goes.
//
// The master creates objects (and child domains, on the workers that run
// their parents); the budget is charged there and credited by whichever
// thread drops an object's last reference; the helper destroys retired
// objects.
#pragma once

#include "memory/DataObject.hpp"
#include "support/Queues.hpp"

#include <atomic>
#include <cstddef>

namespace gpuss {

class RenameBudget {
public:
  explicit RenameBudget(std::size_t cap) : cap_(cap) {}
  // Any thread. False when `bytes` more would exceed the cap.
  bool try_reserve(std::size_t bytes) {
    std::size_t used = used_.load(std::memory_order_relaxed);
    do {
      if (bytes > cap_ || used > cap_ - bytes) return false;
    } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
  }
  void release(std::size_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  std::size_t used() const { return used_.load(std::memory_order_relaxed); }

private:
  const std::size_t cap_;
  std::atomic<std::size_t> used_{0};
};

class ObjectStore {
public:
  ObjectStore(int num_spaces, RenameBudget &budget, BatchQueue<DataObject *> &retire_queue,
              WakeSignal &helper_signal)
      : num_spaces_(num_spaces), budget_(budget), retire_queue_(&retire_queue), helper_signal_(&helper_signal) {
  }
  // Objects of host memory that no directory tracks (a parent task's
  // children, NestedTasks.hpp): freed as soon as their last reference goes.
  explicit ObjectStore(RenameBudget &budget) : num_spaces_(1), budget_(budget) {}

  // Master thread. The storage of `region` in user memory.
  DataObjectRef make_original(const Region &region);
  // Master thread. The storage, in user memory, of several regions a task
  // uses together; `span` runs from the first one's first byte to the last
  // one's end.
  DataObjectRef make_composite(const Region &span, std::vector<ObjectPart> parts);
  // Master thread. A renamed buffer laid out like `region`, or null when the
  // budget is exhausted or the allocation fails.
  DataObjectRef make_renamed(const Region &region);

  // Helper thread: the end of a retired object (replicas already released).
  void destroy(DataObject *object);

private:
  DataObjectRef adopt(std::unique_ptr<DataObject> object);

  const int num_spaces_;
  RenameBudget &budget_;
  BatchQueue<DataObject *> *retire_queue_ = nullptr; // null: no directory
  WakeSignal *helper_signal_ = nullptr;
  std::atomic<std::uint64_t> next_id_{1};
};

} // namespace gpuss
