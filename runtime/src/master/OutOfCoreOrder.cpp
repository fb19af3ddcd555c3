#include "master/OutOfCoreOrder.hpp"

#include "memory/DataObject.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <unordered_map>

namespace gpuss {

namespace {

// A task's accesses, copied under the lock a completing task drops them
// under (the helper may complete tasks meanwhile).
std::vector<BoundAccess> accesses_of(Task &task) {
  std::lock_guard lock(task.edges_mutex);
  return task.accesses;
}

} // namespace

std::size_t rank_out_of_core(const std::vector<TaskRef> &ranked, std::size_t cache_bytes) {
  const std::size_t count = ranked.size();
  std::vector<std::vector<BoundAccess>> accesses(count);
  for (std::size_t i = 0; i < count; ++i)
    accesses[i] = accesses_of(*ranked[i]);

  // Each written object's last write in submission order, and its working
  // set: objects in the order their values become final, `set_bytes` to a
  // set. Data the tasks only read streams past the sets.
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  struct ObjectOrder {
    std::size_t last_write = none;
    std::size_t bytes = 0;
    std::size_t set = none;
  };
  std::unordered_map<const DataObject *, ObjectOrder> objects;
  std::size_t bytes_used = 0; // of the distinct objects
  for (std::size_t i = 0; i < count; ++i)
    for (const BoundAccess &access : accesses[i]) {
      if (!access.object) continue;
      auto [entry, first_use] = objects.try_emplace(access.object.get());
      ObjectOrder &order = entry->second;
      if (first_use) {
        order.bytes = access.object->shape.payload_bytes();
        bytes_used += order.bytes;
      }
      if (access.writes) order.last_write = i;
    }
  if (bytes_used <= cache_bytes) return 0;       // in core: the critical-path ranks stay
  const std::size_t set_bytes = cache_bytes / 2; // the other half holds what streams past
  std::vector<ObjectOrder *> by_last_write;
  by_last_write.reserve(objects.size());
  for (auto &[object, order] : objects)
    if (order.last_write != none) by_last_write.push_back(&order);
  std::sort(by_last_write.begin(), by_last_write.end(),
            [](const ObjectOrder *a, const ObjectOrder *b) { return a->last_write < b->last_write; });
  std::size_t set = 0, in_set = 0;
  for (ObjectOrder *order : by_last_write) {
    if (in_set > 0 && in_set + order->bytes > set_bytes) ++set, in_set = 0;
    order->set = set;
    in_set += order->bytes;
  }
  const std::size_t sets = set + 1;

  // Each task's set: the earliest it writes (a task that writes nothing,
  // the earliest of those it reads); then, walking submission order backwards (a
  // topological order, reversed), no later than any successor's, so that a
  // task an earlier set waits for runs with that set.
  std::unordered_map<const Task *, std::size_t> task_set;
  task_set.reserve(count);
  for (std::size_t i = count; i-- > 0;) {
    std::size_t written = none, used = none;
    for (const BoundAccess &access : accesses[i]) {
      if (!access.object) continue;
      const std::size_t object_set = objects[access.object.get()].set;
      used = std::min(used, object_set);
      if (access.writes) written = std::min(written, object_set);
    }
    std::size_t own = written != none ? written : used;
    if (own == none) own = 0; // only data no task writes: no set to go with
    {
      std::lock_guard lock(ranked[i]->edges_mutex);
      for (const TaskRef &successor : ranked[i]->successors)
        if (auto it = task_set.find(successor.get()); it != task_set.end()) own = std::min(own, it->second);
    }
    task_set[ranked[i].get()] = own;
  }

  // Earlier sets outrank later ones; within a set, submission order (kept
  // in 16 bits: past that, ties fall to the ready lists' FIFO order).
  constexpr std::uint32_t order_bits = 16, max_sets = (std::uint32_t{1} << (32 - order_bits)) - 1,
                          last_order = (std::uint32_t{1} << order_bits) - 1;
  std::vector<std::uint32_t> position_in_set(sets, 0);
  for (const TaskRef &task : ranked) {
    const std::size_t set_of = std::min<std::size_t>(task_set[task.get()], max_sets - 1);
    const std::uint32_t order = std::min(position_in_set[set_of]++, last_order);
    task->rank.store(((max_sets - static_cast<std::uint32_t>(set_of)) << order_bits) | (last_order - order),
                     std::memory_order_relaxed);
    task->working_set = static_cast<std::int32_t>(set_of);
  }
  return sets;
}

} // namespace gpuss
