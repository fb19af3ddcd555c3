// SoftwareCache: the bookkeeping of one accelerator's memory.
//
// MemoryPool hands out blocks of one device allocation made at start-up
// (first fit with coalescing; no cudaMalloc per task). SoftwareCache keeps
// the objects that have a replica on the device in LRU order (the order is
// the cache's own: replicas know nothing of it) and picks eviction victims
// among the unpinned ones: least recently used first, or by a score the
// directory gives (CSS_EVICTION=next-use: how far away the next use is),
// least recently used among equals. Both belong to the helper thread;
// neither touches device memory itself.
#pragma once

#include "memory/DataObject.hpp"

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

class SoftwareCache {
public:
  SoftwareCache(int space, std::byte *base, std::size_t capacity, std::size_t guard = 0) : space_(space) {
    pool_.reset(base, capacity, guard);
  }

  int space() const { return space_; }
  std::size_t capacity() const { return pool_.capacity(); }
  MemoryPool &pool() { return pool_; }

  // The object now has a replica here, most recently used.
  void insert(DataObject &object);
  void touch(DataObject &object);
  void remove(DataObject &object);
  bool contains(const DataObject &object) const { return positions_.contains(&object); }

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
  int space_;
  MemoryPool pool_;
  std::list<DataObject *> lru_; // front: most recently used
  std::unordered_map<const DataObject *, std::list<DataObject *>::iterator> positions_; // in lru_
};

} // namespace gpuss
