#include "master/LoadAheadPlan.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace gpuss {

std::vector<LoadAhead> plan_loads_ahead(const std::vector<TaskRef> &tasks, DependencyTracker &tracker,
                                        bool cuda_devices, bool simulated_devices) {
  // The objects that unfinished accelerator tasks read, in the order the
  // highest-ranked of their readers will want them: in a right-looking
  // factorisation, block column by block column, the order in which a
  // left-looking code would touch them. Loading them while the devices'
  // fetch engines would otherwise wait for tasks to become ready keeps the
  // start of the run from being bound by loading the data the first steps
  // touch (every block, in step 0).
  //
  // Only a value that is already final for its reader may go ahead of it:
  // an object that an unfinished task writes before that reader, or that
  // overlaps a region an unfinished task writes before that reader, is left
  // to the reader's own fetch. (An object overlapping another whose copy is
  // on a device when its turn comes is not loaded either: the directory
  // keeps such aliases coherent through the tasks' own fetches.) The helper
  // drops a load once its reader is dispatched, since the reader, and after
  // it later writers, may then write the value.
  std::vector<LoadAhead> order;
  std::unordered_set<const DataObject *> written, listed;
  // Objects that share bytes with other regions the program uses (LU's
  // tiles, inside its panels), and the first writes of such objects so far.
  std::unordered_map<const DataObject *, bool> overlapping;
  std::vector<Region> overlapping_writes;
  auto overlaps_another = [&](const DataObject &object) {
    auto [it, inserted] = overlapping.try_emplace(&object, false);
    if (inserted) it->second = tracker.overlaps_another(object.shape);
    return it->second;
  };
  auto written_around = [&](const DataObject &object) {
    return std::any_of(overlapping_writes.begin(), overlapping_writes.end(),
                       [&](const Region &region) { return region.overlaps(object.shape); });
  };
  std::vector<BoundAccess> accesses;
  for (const TaskRef &task : tasks) { // submission order
    {
      // The helper drops a completed task's accesses under this lock.
      std::lock_guard lock(task->edges_mutex);
      accesses = task->accesses;
    }
    bool on_accelerators = task->device_kind == CSS_DEVICE_CUDA ? cuda_devices
                                                                 : simulated_devices && task->kind == TaskKind::User;
    for (const BoundAccess &access : accesses) {
      const DataObjectRef &object = access.object;
      if (on_accelerators && object && access.reads && access.copy_in && !object->renamed &&
          !object->has_parts() && !written.contains(object.get()) && !listed.contains(object.get()) &&
          !(overlaps_another(*object) && written_around(*object))) {
        listed.insert(object.get());
        order.push_back(LoadAhead{object, task});
      }
    }
    for (const BoundAccess &access : accesses)
      if (access.object && access.writes && written.insert(access.object.get()).second &&
          overlaps_another(*access.object))
        overlapping_writes.push_back(access.object->shape);
  }
  std::stable_sort(order.begin(), order.end(), [](const LoadAhead &a, const LoadAhead &b) {
    return a.reader->rank.load(std::memory_order_relaxed) > b.reader->rank.load(std::memory_order_relaxed);
  });
  return order;
}

} // namespace gpuss
