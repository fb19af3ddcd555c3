// Directory: which memory spaces hold a valid copy of every object, which
// copy is dirty, and what must move for a task to run in a given space.
//
// Owned by the helper thread (paper, section 4.3); nothing else reads or
// writes replica state. The directory decides and the helper acts: the
// copies it decides on outside a task's plan (write-backs, loads ahead) wait
// in its outbox until the helper takes them (take_copy_orders) and sends
// them, so that devices have one sender. It knows devices only as memory
// nodes (MemoryNode.hpp), and replicas change state only through the
// transitions of Coherence.hpp; with GPUSS_CHECK_INVARIANTS every object it
// touches is checked against the rules below after each operation. The coherence policy (CSS_CACHE_POLICY)
// decides what happens after a task writes on an accelerator:
//   nocache  write back at once and free the device copies the task used
//   wt       write back at once (write-through); other copies are invalidated
//   wb       keep the result on the device (write-back); the host copy is
//            updated only when someone else needs it, or at barrier/wait/finish
// Writing anywhere invalidates every other copy (write-invalidate).
//
// Under pressure a device's cache gives up replicas (make_room): under
// CSS_EVICTION=lru the least recently used, under next-use (Belady's rule
// over the submitted graph) the one whose next use is furthest away in the
// order a barrier's ranking expects the unfinished tasks to run
// (expect_order), objects with no known use first; a dirty replica (a
// write-back, then a reload) counts its next use as a quarter nearer than
// a clean one's. Replicas that a ready task, not placed yet, uses go after
// all others (note_ready): the device runs ready tasks next whatever the
// expected order says, and the order a run follows strays from the ranked
// one (performance.md, 2026-11-28: replayed on recorded orders, 11-12%
// fewer loads and 25-35% fewer write-backs). Dirty victims are written
// back asynchronously; while the blocks they free, with what is free,
// would make the room, nothing more is evicted: the task waits for those
// copies instead.
//
// Overlapping objects on one device (CSS_DEVICE_ALIASES). Objects whose
// regions share bytes (a panel and the tiles inside it) have copies of
// their own, kept coherent through the host: before one is used, a copy of
// another that holds newer bytes of it goes home first (resolve_aliases).
// Where the newer bytes are on the device the task runs on, two cases skip
// the host:
//   a read   an object contained in another whose copy there is valid
//            takes its value from that copy (an alias copy, Transfer.hpp);
//            one that contains others with valid copies there is filled
//            from them (and from the host for the rest), and they keep
//            their copies (LU's pivots: a suffix of the vector whose
//            pieces the panels wrote);
//   a write  an object that contains others with valid copies there is
//            filled from them (and from the host for the rest), and those
//            copies, dirty ones included, are given up: their bytes are
//            now the writer's, whose write-back brings them home before
//            anyone reads them from the host (`absorb`); and a write inside
//            a container newer there than in host memory, where the
//            container's bytes all lie in valid copies of objects inside
//            it, hands its value to those copies, which become the dirty
//            ones (`split`: LU's left interchanges at each step write the
//            tiles of a panel the gemms have read them from).
// Both rest on one rule the directory keeps: a valid device copy is
// current for all its bytes (a write to any of them drops it).
#pragma once

#include "graph/IntervalIndex.hpp"
#include "graph/Renaming.hpp"
#include "memory/HostWriteCheck.hpp"
#include "memory/MemoryNode.hpp"
#include "memory/SoftwareCache.hpp"
#include "memory/Transfer.hpp"
#include "support/Config.hpp"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpuss {

struct Stats;
class PageLocks;

// What the worker needs to run a task: where each access lives, and the
// copies before and after.
struct TaskPlan {
  std::vector<void *> addresses; // accelerators only: host workers use host_addresses
  std::vector<Transfer> before;
  std::vector<Transfer> after;
  // Accelerators: a copy of the task's is still filling that the task reads
  // (a load ahead, another task's fetch): the task must follow the fetches
  // already issued on its device, as it must its own (`before`).
  bool reads_fills = false;
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

// A copy the directory decided on outside a task's plan, for the worker of
// `executing_space` (the space that reads or writes device memory in it).
struct CopyOrder {
  Transfer transfer;
  int executing_space = 0;
};

class Directory {
public:
  // `nodes[space - 1]` is accelerator `space`. `page_locks` (null without
  // page-locking) is told before the host memory of a renamed buffer is
  // freed. `clean_while_idle`: CSS_WB_CLEAN.
  Directory(CachePolicy policy, std::vector<MemoryNode *> nodes,
            std::vector<std::unique_ptr<SoftwareCache>> caches, ObjectStore &objects, Stats &stats,
            PageLocks *page_locks, bool clean_while_idle = false, Eviction eviction = Eviction::Lru,
            bool device_aliases = true, bool check_host_writes = false);

  // Plans `task` in `space` (0 = host). All or nothing: on Blocked nothing is
  // pinned, though write-backs that make progress possible may be issued.
  // Refused lending: no copy of an overlapping object lends the task bytes
  // on the device (plan's own retry where lenders held the room).
  enum class Lending { Allowed, Refused };
  PlanOutcome plan(Task &task, int space, TaskPlan &plan, Lending lending = Lending::Allowed);

  // Load-ahead: copy an object's value from the host into a device before
  // any task there asks for it (Helper::load_ahead).
  enum class LoadOutcome {
    Issued,
    NotNeeded, // its value is not (only) in host memory, or already on a device
    NoRoom     // the device would keep less than `keep_free` bytes free
  };
  LoadOutcome load_ahead(const DataObjectRef &object, int space, std::size_t keep_free);

  // A barrier's ranking (CSS_EVICTION=next-use): `ranked`, the unfinished
  // tasks in submission order with their ranks, are expected to run by rank
  // (highest first; a predecessor always outranks its successors, so this
  // is a topological order), then in submission order. Each task gets its
  // position in that order and each object it uses the position as an
  // upcoming use; a task's completion removes its uses (complete).
  void expect_order(const std::vector<TaskRef> &ranked);
  // Helper thread, under next-use: the helper made `task` ready (it waits in
  // a ready list), then placed it on a worker or device; between the two its
  // objects count it in DataObject::ready_uses, which protects their replicas.
  void note_ready(const Task &task) { count_ready_uses(task, +1); }
  void note_placed(const Task &task) { count_ready_uses(task, -1); }
  // ... or held back again, as out-of-core ranking holds later sets' tasks.
  void note_held(const Task &task) { count_ready_uses(task, -1); }
  // The position of `object`'s next expected use, or no_known_use.
  static constexpr std::uint64_t no_known_use = UINT64_MAX;
  static std::uint64_t next_use(const DataObject &object) {
    return object.upcoming_uses.empty() ? no_known_use : object.upcoming_uses.front();
  }

  // What `task` would have to fetch to run in `space`.
  struct FetchEstimate {
    std::size_t bytes = 0;
    std::size_t written_bytes = 0; // of which the task also writes: moving those moves the value's home
    std::size_t unlocked_bytes = 0; // of which host memory not page-locked yet (a first run's data)
  };
  FetchEstimate estimate_fetch(const Task &task, int space) const;

  // A worker's command is done: the task it ran (unpinned; its writes made
  // the only current copies; under nocache its device copies freed; under
  // CSS_WB_CLEAN idle dirty copies started home) and the copies it made.
  void complete(const Completion &completion);

  // The copies decided since the last call, in the order decided.
  std::vector<CopyOrder> take_copy_orders() { return std::exchange(outbox_, {}); }

  // An object a barrier waits for has no unfinished task left: copy its
  // value home now, while other tasks still run, instead of after the last
  // (unless tasks still use objects inside it: inner_objects_in_use).
  void write_back_final(DataObject &object);
  // The last unfinished task that used `object` has ended: its own final
  // write-back, if a barrier waits for it, and those of the containers
  // that waited for the objects inside them.
  void last_use_ended(DataObject &object);

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
  MemoryNode &device(int space) const { return *nodes_[space - 1]; }
  SoftwareCache &cache(int space) const { return *caches_[space - 1]; }

  // Issues a copy of the dirty replica to the host, unless one is in flight.
  void write_back(DataObject &object);
  // A copy of `object` from space `from` into `to`, counted and in flight
  // from now: the source is pinned by a reader, the destination is filling.
  Transfer start_copy(const DataObjectRef &object, int from, int to);
  // `block` now holds a replica of `object` in `space`, valid from now on
  // (a copy into it runs first on the device's in-order fetch streams).
  void install_replica(DataObject &object, int space, DeviceBlock block);
  // Queues a started copy for the worker of `executing_space`, alone.
  void issue(Transfer transfer, int executing_space);
  void on_task_complete(Task &task, int space);
  void on_transfer_complete(const Transfer &transfer);
  // wb: start write-backs of idle dirty copies on `space` while its
  // device-to-host engine has nothing to do.
  void clean_while_idle(int space);
  // nocache: free the device copies a finished task used.
  void release_after_task(Task &task, int space);
  // GPUSS_CHECK_INVARIANTS: the rules every object's replicas keep between
  // operations (Directory.cpp); a violation is fatal, naming the object.
  void check(const DataObject &object) const;
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
  // The replica `make_room` gives up next in `space`; null if all are pinned.
  DataObject *next_victim(int space) const;
  // How much evicting `object` from `space` is worth under next-use: higher
  // first (Directory.cpp).
  std::uint64_t eviction_score(const DataObject &object, int space) const;
  // A task `expect_order` placed has completed: its uses are no longer upcoming.
  void forget_expected_uses(const Task &task, const std::vector<ObjectUse> &uses);
  // Where, on the device a task is planned for, a use's value can come
  // from instead of the host (see "Overlapping objects on one device").
  struct AliasSources {
    DataObject *container = nullptr; // a read: the whole value, from this object's copy
    std::vector<DataObject *> parts; // these objects' bytes, from their copies (a writer takes them over)
  };
  // Orders the copies that keep `object` coherent with the objects that
  // overlap it, for a task in `space` that reads it (and writes it when
  // `writes`); `sources` (null: none) receives what can be taken on the
  // device instead. Sets `blocked` while a copy must land first.
  // A write overwrites bytes of `object`: its copies on the devices other
  // than `keep` (0: all of them) go; `blocked` where one is still in use.
  void drop_other_copies(DataObject &object, int keep, bool &blocked);
  void resolve_aliases(DataObject &object, bool writes, int space, bool &blocked, AliasSources *sources);
  // Whether copies of `outer` and `inner` on accelerator `space` may lend
  // each other bytes: aliasing on the device is on, neither has several
  // regions, and `outer` contains every byte of `inner`.
  bool may_alias_on_device(const DataObject &outer, const DataObject &inner, int space) const;
  // Hands the value of `container`, dirty in accelerator `space`, to the
  // valid copies there of objects inside it, where they cover it: they
  // become dirty, the container clean (its device copy is then dropped by
  // the writer that called this). Later: they will, once the copies still
  // reading the container or filling them have landed. No: they do not
  // cover it (nothing changes).
  enum class Split { Done, Later, No };
  Split split(DataObject &container, int space);
  // Whether unfinished tasks use objects inside `object` on the device that
  // holds its value (its final write-back waits for them).
  bool inner_objects_in_use(const DataObject &object);
  // After resolve_aliases for each of a task's uses: a lender the task also
  // uses is dropped (that use goes through the host), and a lender whose
  // copy another use gave up blocks the plan (it is made again without).
  // The task's uses drop the copies that lend them bytes and go through
  // the host, as without device aliases (plan, where the lenders hold the
  // room the task needs).
  void go_through_host(const std::vector<ObjectUse> &uses, std::vector<AliasSources> &aliases, int space,
                       bool &blocked);
  void check_lenders(const std::vector<ObjectUse> &uses, std::vector<AliasSources> &aliases, int space,
                     bool &blocked);
  // Every object that lends bytes to a use (with repeats).
  static std::vector<DataObject *> lenders_of(const std::vector<AliasSources> &aliases);
  // An alias copy on `space` from `source`'s copy into `destination`'s
  // (into the part `source` covers when `into_part`), counted and in
  // flight from now.
  Transfer start_alias_copy(const DataObjectRef &destination, DataObject &source, int space, bool into_part);
  // `part`'s bytes are now `writer`'s, on `space`: its copy there is given
  // up, dirty or not, and the host counts as holding its value again.
  void absorb(DataObject &part, int space);

  const CachePolicy policy_;
  const bool clean_while_idle_;
  const Eviction eviction_;
  const bool device_aliases_;
  // CSS_CHECK_REGIONS: host bytes the program changes behind a device copy
  // (HostWriteCheck.hpp); null when not checking.
  std::unique_ptr<HostWriteCheck> host_writes_;
  std::vector<MemoryNode *> nodes_;
  PageLocks *page_locks_;
  std::vector<std::unique_ptr<SoftwareCache>> caches_;
  ObjectStore &objects_;
  Stats &stats_;
  // Originals with replicas on accelerators, to keep overlapping user
  // regions coherent with each other.
  IntervalIndex<DataObject *> aliases_;
  std::size_t transfers_in_flight_ = 0;
  std::vector<unsigned> write_backs_in_flight_; // per space: copies to the host it executes
  std::vector<CopyOrder> outbox_;               // decided, not yet taken by the helper
  // Per space: the blocks of replicas evicted dirty whose write-back is in
  // flight (freed when it ends), and their bytes.
  std::vector<std::unordered_map<const DataObject *, std::size_t>> evicting_;
  std::vector<std::size_t> evicting_bytes_;
  // Next-use (expect_order): the next position to hand out, and the highest
  // position of a completed task (how far the expected order has come).
  std::uint64_t next_position_ = 1;
  std::uint64_t frontier_ = 0;

  void count_ready_uses(const Task &task, int change);
};

} // namespace gpuss
