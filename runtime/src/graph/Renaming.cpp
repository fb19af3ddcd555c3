#include "graph/Renaming.hpp"

#include <new>

namespace gpuss {

DataObjectRef ObjectStore::adopt(std::unique_ptr<DataObject> object) {
  object->id = next_id_.fetch_add(1, std::memory_order_relaxed);
  // The deleter does not free: the helper owns the replicas (device memory,
  // cache position), so it gets the object through the retire queue.
  if (!retire_queue_) return DataObjectRef(object.release(), [this](DataObject *gone) { destroy(gone); });
  return DataObjectRef(object.release(), [this](DataObject *retired) {
    retire_queue_->push(retired);
    helper_signal_->notify();
  });
}

DataObjectRef ObjectStore::make_original(const Region &region) {
  auto object = std::make_unique<DataObject>();
  object->shape = region;
  object->host = reinterpret_cast<std::byte *>(region.base);
  object->replicas.resize(static_cast<std::size_t>(num_spaces_));
  object->replicas[0].start_valid(); // user memory holds the value to begin with
  return adopt(std::move(object));
}

DataObjectRef ObjectStore::make_composite(const Region &span, std::vector<ObjectPart> parts) {
  auto object = std::make_unique<DataObject>();
  object->shape = span;
  object->parts = std::move(parts);
  object->host = reinterpret_cast<std::byte *>(span.base);
  object->replicas.resize(static_cast<std::size_t>(num_spaces_));
  object->replicas[0].start_valid();
  return adopt(std::move(object));
}

DataObjectRef ObjectStore::make_renamed(const Region &region) {
  std::size_t bytes = region.span();
  if (!budget_.try_reserve(bytes)) return nullptr;
  std::unique_ptr<std::byte[]> buffer(new (std::nothrow) std::byte[bytes]);
  if (!buffer) {
    budget_.release(bytes);
    return nullptr;
  }
  auto object = std::make_unique<DataObject>();
  object->shape = region;
  object->host = buffer.get();
  object->renamed = true;
  object->replicas.resize(static_cast<std::size_t>(num_spaces_));
  object->renamed_buffer = std::move(buffer);
  object->renamed_bytes = bytes;
  // No replica is valid: the renaming task writes the first value.
  return adopt(std::move(object));
}

void ObjectStore::destroy(DataObject *object) {
  if (object->renamed) budget_.release(object->renamed_bytes);
  std::unique_ptr<DataObject> owned(object);
}

} // namespace gpuss
