#include "memory/SoftwareCache.hpp"

namespace gpuss {

void MemoryPool::reset(std::byte *base, std::size_t capacity, std::size_t guard) {
  base_ = base;
  guard_ = rounded(guard);
  capacity_ = capacity / alignment * alignment;
  free_bytes_ = capacity_;
  free_.clear();
  if (capacity_) free_.emplace(0, capacity_);
}

std::optional<DeviceBlock> MemoryPool::allocate(std::size_t bytes) {
  std::size_t size = footprint(bytes);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    std::size_t offset = it->first, remaining = it->second - size;
    free_.erase(it);
    if (remaining) free_.emplace(offset + size, remaining);
    free_bytes_ -= size;
    return DeviceBlock{offset, size, base_ + offset + guard_, bytes};
  }
  return std::nullopt;
}

bool MemoryPool::can_allocate(std::size_t bytes) const {
  std::size_t size = footprint(bytes);
  for (const auto &[offset, free_size] : free_)
    if (free_size >= size) return true;
  return false;
}

void MemoryPool::release(const DeviceBlock &block) {
  auto [it, inserted] = free_.emplace(block.offset, block.bytes);
  free_bytes_ += block.bytes;
  // Coalesce with the following and the preceding free ranges.
  auto next = std::next(it);
  if (next != free_.end() && it->first + it->second == next->first) {
    it->second += next->second;
    free_.erase(next);
  }
  if (it != free_.begin()) {
    auto previous = std::prev(it);
    if (previous->first + previous->second == it->first) {
      previous->second += it->second;
      free_.erase(it);
    }
  }
}

void SoftwareCache::insert(DataObject &object) {
  auto [position, inserted] = positions_.try_emplace(&object);
  if (!inserted) {
    lru_.splice(lru_.begin(), lru_, position->second);
    return;
  }
  lru_.push_front(&object);
  position->second = lru_.begin();
}

void SoftwareCache::touch(DataObject &object) {
  insert(object);
}

void SoftwareCache::remove(DataObject &object) {
  auto position = positions_.find(&object);
  if (position == positions_.end()) return;
  lru_.erase(position->second);
  positions_.erase(position);
}

} // namespace gpuss
