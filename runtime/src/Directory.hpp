// Directory: which memory spaces hold a valid copy of every object, which
// copy is dirty, and what must move for a task to run in a given space.
//
// Owned by the helper thread (paper, section 4.3); nothing else reads or
// writes replica state. The coherence policy (CSS_CACHE_POLICY) decides what
// happens after a task writes on an accelerator:
//   nocache  write back at once and free the device copies the task used
//   wt       write back at once (write-through); other copies are invalidated
//   wb       keep the result on the device (write-back); the host copy is
//            updated only when someone else needs it, or at barrier/wait/finish
// Writing anywhere invalidates every other copy (write-invalidate).
#pragma once

#include "Config.hpp"
#include "Device.hpp"
#include "IntervalIndex.hpp"
#include "Renaming.hpp"
#include "SoftwareCache.hpp"

#include <memory>
#include <vector>

namespace gpuss {

struct Stats;

// What the worker needs to run a task: where each access lives, and the
// copies before and after.
struct TaskPlan {
  std::vector<void *> addresses; // accelerators only: host workers use host_addresses
  std::vector<Transfer> before;
  std::vector<Transfer> after;
};

// The distinct objects a task uses, with what it does to each.
struct ObjectUse {
  DataObjectRef object;
  bool reads = false; // needs the current value in the executing space
  bool writes = false;
  bool copy_out = false;
};

enum class PlanOutcome {
  Ready,  // the plan is made; replicas are pinned until the task completes
  Blocked // data is on its way (or room is being made); try again later
};

class Directory {
public:
  // `page_locks` (null without page-locking) is told before the host memory
  // of a renamed buffer is freed.
  Directory(CachePolicy policy, std::vector<Device *> devices,
            std::vector<std::unique_ptr<SoftwareCache>> caches, ObjectStore &objects, Stats &stats,
            PageLocks *page_locks);

  // Plans `task` in `space` (0 = host). All or nothing: on Blocked nothing is
  // pinned, though write-backs that make progress possible may be issued.
  PlanOutcome plan(Task &task, int space, TaskPlan &plan);

  // Load-ahead: copy an object's value from the host into a device before
  // any task there asks for it (Helper::load_ahead).
  enum class LoadOutcome {
    Issued,
    NotNeeded, // its value is not (only) in host memory, or already on a device
    NoRoom     // the device would keep less than `keep_free` bytes free
  };
  LoadOutcome load_ahead(const DataObjectRef &object, int space, std::size_t keep_free);

  // What `task` would have to fetch to run in `space`.
  struct FetchEstimate {
    std::size_t bytes = 0;
    std::size_t written_bytes = 0; // of which the task also writes: moving those moves the value's home
  };
  FetchEstimate estimate_fetch(const Task &task, int space) const;

  // After a task ran in `space`: unpin, and make its writes the only
  // current copies. Its transfers are reported separately, after this.
  void on_task_complete(Task &task, int space);
  // wb: start write-backs of idle dirty copies on `space` while its
  // device-to-host engine has nothing to do.
  void clean_while_idle(int space);
  // nocache: free the device copies a finished task used.
  void release_after_task(Task &task, int space);
  void on_transfer_complete(const Transfer &transfer);

  // An object a barrier waits for has no unfinished task left: copy its
  // value home now, while other tasks still run, instead of after the last.
  void write_back_final(DataObject &object);

  // Starts write-backs so that each object's value reaches user memory.
  // True when every one is already there (nothing in flight).
  bool flush_to_host(const std::vector<DataObjectRef> &objects);

  // The last reference to `object` is gone: release its replicas.
  void retire(DataObject *object);

  // After a barrier or wait on: the master may now write user memory, so
  // accelerator copies of these objects must not be used again.
  void forget_device_copies(const std::vector<DataObjectRef> &objects);

  bool transfers_in_flight() const { return transfers_in_flight_ > 0; }
  std::size_t cache_capacity(int space) const { return cache(space).capacity(); }

private:
  Device &device(int space) const { return *devices_[space - 1]; }
  SoftwareCache &cache(int space) const { return *caches_[space - 1]; }

  // Issues a copy of the dirty replica to the host, unless one is in flight.
  void write_back(DataObject &object);
  // A copy of `object` from space `from` into `to`, counted and in flight
  // from now: the source is pinned by a reader, the destination is filling.
  Transfer start_copy(const DataObjectRef &object, int from, int to);
  // `block` now holds a replica of `object` in `space`, valid from now on
  // (a copy into it runs first on the device's in-order fetch streams).
  void install_replica(DataObject &object, int space, DeviceBlock block);
  // Hands a started copy to the worker of `executing_space`, alone.
  void issue(Transfer transfer, int executing_space);
  void drop_replica(DataObject &object, int space);
  // A device other than `space` with a settled copy of a value the host
  // also holds, that `space` can copy from; 0 (the host) if none.
  int clean_peer_source(const DataObject &object, int space) const;
  void claim_writes(const std::vector<ObjectUse> &uses, int space);
  // The replica's value is obsolete: free it now, or once its users are done.
  void invalidate_replica(DataObject &object, int space);
  // Frees a replica invalidated while in use once its last user is done.
  bool drop_if_released(DataObject &object, int space);
  bool make_room(int space, std::size_t bytes, bool &waiting);
  bool resolve_aliases(DataObject &object, bool writes, bool &blocked);

  const CachePolicy policy_;
  std::vector<Device *> devices_;
  PageLocks *page_locks_;
  std::vector<std::unique_ptr<SoftwareCache>> caches_;
  ObjectStore &objects_;
  Stats &stats_;
  // Originals with replicas on accelerators, to keep overlapping user
  // regions coherent with each other.
  IntervalIndex<DataObject *> aliases_;
  std::size_t transfers_in_flight_ = 0;
  std::vector<unsigned> write_backs_in_flight_; // per space: copies to the host it executes
};

} // namespace gpuss
