#include "memory/SoftwareCache.hpp"

#include <algorithm>

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

// ---- where replicas live

namespace {

std::uintptr_t align_down(std::uintptr_t address) {
  return address / MemoryPool::alignment * MemoryPool::alignment;
}
std::uintptr_t align_up(std::uintptr_t address) {
  return align_down(address + MemoryPool::alignment - 1);
}

} // namespace

std::uintptr_t SoftwareCache::extent_stride(const DataObject &object) const {
  if (!extents_enabled_ || object.renamed) return 0;
  if (!object.has_parts()) return object.shape.rows > 1 ? object.shape.stride : 0;
  std::uintptr_t stride = 0;
  for (const ObjectPart &part : object.parts)
    if (part.region.rows > 1) stride = std::max<std::uintptr_t>(stride, part.region.stride);
  return stride;
}

std::uint32_t SoftwareCache::joinable(const DataObject &object) const {
  if (extents_.empty() || extent_stride(object) == 0) return 0;
  const std::uintptr_t low = object.shape.base, high = object.shape.end();
  // Extents overlap each other, so every one starting within the longest
  // extent's length below `low` may hold the span.
  auto it = extents_by_low_.lower_bound(low > longest_extent_ ? low - longest_extent_ : 0);
  for (; it != extents_by_low_.end() && it->first <= low; ++it) {
    const Extent &extent = extents_.at(it->second);
    if (extent.high < high) continue;
    const bool shares = std::any_of(extent.views.begin(), extent.views.end(),
                                    [&](const DataObject *view) { return view->overlaps(object); });
    if (!shares) return it->second;
  }
  return 0;
}

std::pair<std::uintptr_t, std::uintptr_t> SoftwareCache::new_extent_window(const DataObject &object) const {
  const std::uintptr_t stride = extent_stride(object);
  if (stride == 0) return {0, 0};
  const std::uintptr_t base = object.shape.base;
  const std::uintptr_t low = align_down(base > stride ? base - stride : 0);
  const std::uintptr_t high = align_up(object.shape.end() + stride);
  // One extent may take at most a quarter of the cache: beyond that it would
  // crowd out what a task needs besides it.
  if (high - low > pool_.capacity() / 4) return {0, 0};
  return {low, high};
}

DeviceBlock SoftwareCache::view_of(const Extent &extent, std::uint32_t id, const DataObject &object) {
  DeviceBlock view;
  view.offset = extent.block.offset;
  view.bytes = 0; // the extent holds the pool bytes
  view.address = extent.block.address + (object.shape.base - extent.low);
  view.usable = object.shape.span();
  view.extent = id;
  return view;
}

std::optional<DeviceBlock> SoftwareCache::allocate_block(std::size_t bytes) {
  std::optional<DeviceBlock> block = pool_.allocate(bytes);
  if (block && node_) node_->block_allocated(*block);
  return block;
}

void SoftwareCache::release_block(const DeviceBlock &block) {
  if (node_) node_->block_released(block);
  pool_.release(block);
}

std::optional<DeviceBlock> SoftwareCache::reserve(const DataObject &object, Placement placement) {
  if (placement == Placement::OwnBlock) return allocate_block(object.storage_bytes());
  if (const std::uint32_t id = joinable(object)) {
    Extent &extent = extents_.at(id);
    extent.views.push_back(&object);
    return view_of(extent, id, object);
  }
  if (const auto [low, high] = new_extent_window(object); high > low) {
    if (std::optional<DeviceBlock> block = allocate_block(high - low)) {
      const std::uint32_t id = next_extent_++;
      Extent &extent = extents_[id];
      extent.low = low;
      extent.high = high;
      extent.block = *block;
      extent.views.push_back(&object);
      extents_by_low_.emplace(low, id);
      longest_extent_ = std::max(longest_extent_, high - low);
      return view_of(extent, id, object);
    }
    return std::nullopt; // room for the extent first (the cache evicts), or OwnBlock
  }
  return allocate_block(object.storage_bytes());
}

std::size_t SoftwareCache::reservation_bytes(const DataObject &object) const {
  if (joinable(object)) return 0;
  if (const auto [low, high] = new_extent_window(object); high > low) return high - low;
  return object.storage_bytes();
}

void SoftwareCache::release(const DataObject &object, const DeviceBlock &block) {
  if (block.extent == 0) {
    release_block(block);
    return;
  }
  auto found = extents_.find(block.extent);
  if (found == extents_.end()) return;
  Extent &extent = found->second;
  std::erase(extent.views, &object);
  if (!extent.views.empty()) return;
  release_block(extent.block);
  for (auto [it, end] = extents_by_low_.equal_range(extent.low); it != end; ++it)
    if (it->second == block.extent) {
      extents_by_low_.erase(it);
      break;
    }
  extents_.erase(found);
}

std::size_t SoftwareCache::freed_by_release(const DeviceBlock &block) const {
  if (block.extent == 0) return block.bytes;
  auto found = extents_.find(block.extent);
  return found != extents_.end() && found->second.views.size() == 1 ? found->second.block.bytes : 0;
}

std::size_t SoftwareCache::views_in_extents() const {
  std::size_t views = 0;
  for (const auto &[id, extent] : extents_)
    views += extent.views.size();
  return views;
}

} // namespace gpuss
