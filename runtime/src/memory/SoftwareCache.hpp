// SoftwareCache: the bookkeeping of one accelerator's memory.
//
// MemoryPool hands out blocks of one device allocation made at start-up
// (first fit with coalescing; no cudaMalloc per task). SoftwareCache keeps
// the objects that have a replica on the device in LRU order (the order is
// the cache's own: replicas know nothing of it) and picks eviction victims
// among the unpinned ones: least recently used first, or by a score the
// directory gives (CSS_EVICTION=next-use: how far away the next use is),
// least recently used among equals. It also decides where a replica lives
// (reserve): a pool block of its own, or a view into a shared extent.
//
// Shared extents (CSS_DEVICE_EXTENTS). A replica keeps its region's layout
// in user memory, so that a task body indexes it as on the host: a strided
// region's copy spans its rows from the first to the last, and the bytes
// between the rows are other data. Alone, a 2048 x 2048 tile of a
// column-major matrix with lda 49152 would take 805 MB of device memory for
// 32 MiB of data. An extent is one pool block that mirrors a window of user
// addresses, [low, high); the replicas of strided objects inside the window
// that share no byte with each other are views into it at their own
// offsets, so that the tiles of one block column cost about the block
// column, and the blocks of a stencil's block row about the block row. A new
// extent is the object's span widened by one stride on each side (the
// neighbours one row up or down fit too). An object that shares a byte with
// a replica already in an extent gets a block of its own or another extent:
// the device copies of two objects never share storage, so the coherence of
// overlapping objects (Directory::resolve_aliases) is what it was. With
// guard zones (CSS_DEVICE_GUARD) every replica has a block of its own.
//
// Both belong to the helper thread; neither touches device memory itself.
// The memory node (if given) is told of every pool block given out and
// taken back (MemoryNode::block_allocated), never of views.
#pragma once

#include "memory/DataObject.hpp"
#include "memory/MemoryNode.hpp"

#include <algorithm>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace gpuss {

class MemoryPool {
public:
  static constexpr std::size_t alignment = 256;

  // `guard`: bytes left unused before and after every block (CSS_DEVICE_GUARD).
  void reset(std::byte *base, std::size_t capacity, std::size_t guard = 0);
  std::optional<DeviceBlock> allocate(std::size_t bytes);
  void release(const DeviceBlock &block);
  bool can_allocate(std::size_t bytes) const;
  // What a block of `bytes` takes from the pool, guard zones included.
  std::size_t footprint(std::size_t bytes) const { return rounded(bytes == 0 ? 1 : bytes) + 2 * guard_; }

  std::size_t capacity() const { return capacity_; }
  std::size_t free_bytes() const { return free_bytes_; }
  std::size_t guard() const { return guard_; }
  static std::size_t rounded(std::size_t bytes) { return (bytes + alignment - 1) / alignment * alignment; }

private:
  std::byte *base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t free_bytes_ = 0;
  std::size_t guard_ = 0;
  std::map<std::size_t, std::size_t> free_; // offset -> size, disjoint and coalesced
};

struct CacheOptions {
  std::size_t guard = 0;       // CSS_DEVICE_GUARD: with guard zones, no extents
  bool shared_extents = true;  // CSS_DEVICE_EXTENTS
  MemoryNode *node = nullptr;  // told of pool blocks given out and taken back
};

class SoftwareCache {
public:
  SoftwareCache(int space, std::byte *base, std::size_t capacity, CacheOptions options = {})
      : space_(space), node_(options.node), extents_enabled_(options.shared_extents && options.guard == 0) {
    pool_.reset(base, capacity, options.guard);
  }

  int space() const { return space_; }
  std::size_t capacity() const { return pool_.capacity(); }
  MemoryPool &pool() { return pool_; }

  // Storage for a replica of `object` here, without evicting. For a strided
  // object a view into an extent that holds its span and none of whose
  // replicas shares a byte with it, else a new extent; for others (and with
  // OwnBlock, where no room can be made for an extent) a block of its own.
  // None if the pool has no room.
  enum class Placement { Preferred, OwnBlock };
  std::optional<DeviceBlock> reserve(const DataObject &object, Placement placement = Placement::Preferred);
  // The pool bytes `reserve` would need now: 0 when the object joins an
  // extent, an extent's size, or the object's span.
  std::size_t reservation_bytes(const DataObject &object) const;
  // Gives back what `reserve` gave `object`; an extent goes back to the pool
  // with its last view.
  void release(const DataObject &object, const DeviceBlock &block);
  // The pool bytes releasing `block` would give back now.
  std::size_t freed_by_release(const DeviceBlock &block) const;
  // Extents in use, and the replicas they hold (for tests and checks).
  std::size_t extent_count() const { return extents_.size(); }
  std::size_t views_in_extents() const;

  // The object now has a replica here, most recently used.
  void insert(DataObject &object);
  void touch(DataObject &object);
  void remove(DataObject &object);
  bool contains(const DataObject &object) const { return positions_.contains(&object); }

  // Whether any replica here is pinned (by a task, a copy in flight).
  bool any_pinned() const {
    return std::any_of(lru_.begin(), lru_.end(), [&](const DataObject *o) { return o->replicas[space_].pinned(); });
  }

  // The least recently used object whose replica here is not pinned; null
  // if every replica here is pinned.
  DataObject *lru_victim() const {
    for (auto it = lru_.rbegin(); it != lru_.rend(); ++it)
      if (!(*it)->replicas[space_].pinned()) return *it;
    return nullptr;
  }

  // The unpinned object with the highest score(const DataObject&) (a
  // std::uint64_t), the least recently used among equals; null if every
  // replica here is pinned. One pass: a make_room usually needs one victim.
  template <typename Score> DataObject *best_victim(Score score) const {
    DataObject *best = nullptr;
    std::uint64_t best_score = 0;
    for (auto it = lru_.rbegin(); it != lru_.rend(); ++it) {
      if ((*it)->replicas[space_].pinned()) continue;
      const std::uint64_t s = score(static_cast<const DataObject &>(**it));
      if (!best || s > best_score) best = *it, best_score = s;
    }
    return best;
  }

  // Calls fn(DataObject&) on at most `limit` objects, least recently used
  // first, until fn returns false. fn must not evict.
  template <typename Fn> void for_each_least_recent(unsigned limit, Fn fn) {
    for (auto it = lru_.rbegin(); it != lru_.rend() && limit-- > 0; ++it)
      if (!fn(**it)) return;
  }

private:
  struct Extent {
    std::uintptr_t low = 0, high = 0; // the user addresses it mirrors
    DeviceBlock block;                // its pool block
    std::vector<const DataObject *> views;
  };
  // The stride that makes `object` worth an extent: its rows' (the largest
  // of its parts'), 0 for contiguous or renamed data.
  std::uintptr_t extent_stride(const DataObject &object) const;
  // The id of an extent that holds `object`'s span and no replica sharing a
  // byte with it; 0 if none.
  std::uint32_t joinable(const DataObject &object) const;
  // The window a new extent for `object` would mirror; empty when its size
  // is out of proportion with the cache.
  std::pair<std::uintptr_t, std::uintptr_t> new_extent_window(const DataObject &object) const;
  std::optional<DeviceBlock> allocate_block(std::size_t bytes);
  void release_block(const DeviceBlock &block);
  static DeviceBlock view_of(const Extent &extent, std::uint32_t id, const DataObject &object);

  int space_;
  MemoryNode *node_;
  bool extents_enabled_;
  MemoryPool pool_;
  std::unordered_map<std::uint32_t, Extent> extents_;                 // by id (DeviceBlock::extent)
  std::multimap<std::uintptr_t, std::uint32_t> extents_by_low_;     // low -> id
  std::uintptr_t longest_extent_ = 0;                                 // bounds the search by low
  std::uint32_t next_extent_ = 1;
  std::list<DataObject *> lru_; // front: most recently used
  std::unordered_map<const DataObject *, std::list<DataObject *>::iterator> positions_; // in lru_
};

} // namespace gpuss
