#include "DependencyTracker.hpp"
#include "StatsCounters.hpp"

#include <algorithm>

namespace gpuss {

namespace {

// Body of a copy-back task: access 0 is the renamed value, access 1 the user
// memory it returns to.
void copy_back_body(void *, const css_task_env *env) {
  Region shape = Region::from(env->accesses[0].region);
  copy_region_bytes(static_cast<std::byte *>(env->addresses[1]),
                    static_cast<const std::byte *>(env->addresses[0]), shape);
}

} // namespace

bool DependencyTracker::unfinished(const TaskRef &task) {
  if (!task) return false;
  std::lock_guard lock(task->edges_mutex);
  return !task->finished;
}

void DependencyTracker::prune(std::vector<TaskRef> &tasks) const {
  if (graph_.recording()) return;
  std::erase_if(tasks, [](const TaskRef &t) { return !unfinished(t); });
}

void DependencyTracker::depend_on(const TaskRef &task, TaskRef &predecessor) {
  if (!predecessor) return;
  if (!graph_.add_edge(*predecessor, task) && predecessor->completed.load(std::memory_order_relaxed) &&
      !graph_.recording())
    predecessor.reset(); // finished long ago: forget it
}

DependencyTracker::Entry &DependencyTracker::entry_for(const Region &region) {
  Entry *entry = entries_.find_exact(region, region_of);
  if (!entry) {
    Entry fresh;
    fresh.region = region;
    fresh.original = objects_.make_original(region);
    fresh.current = fresh.original;
    entry = &entries_.insert(region, std::move(fresh))->second;
  }
  entry->used_since_barrier = true;
  return *entry;
}

TaskRef DependencyTracker::make_copy_back(Entry &entry) {
  auto task = std::make_shared<Task>();
  task->id = next_task_id();
  task->kind = TaskKind::CopyBack;
  task->label = "css_copy_back";
  task->file = "<gpuss>";
  task->body = copy_back_body;
  css_access from{}, to{};
  from.region = {reinterpret_cast<void *>(entry.region.base), entry.region.row_bytes, entry.region.rows,
                 entry.region.stride};
  from.direction = CSS_IN;
  to = from;
  to.direction = CSS_OUT;
  BoundAccess renamed{from, entry.region, entry.current, 0, true, false, true, false};
  BoundAccess home{to, entry.region, entry.original, 0, false, true, false, true};
  task->accesses = {renamed, home};
  task->user_accesses = {from, to};
  graph_.note_task(*task);

  depend_on(task, entry.last_writer); // the renamed value must exist
  for (TaskRef &user : entry.home_users)
    depend_on(task, user);
  entry.current = entry.original;
  entry.last_writer = task;
  entry.readers.clear();
  entry.home_users.clear();
  return task;
}

void DependencyTracker::add_task(const TaskRef &task, std::vector<TaskRef> &created) {
  for (BoundAccess &access : task->accesses) {
    if (access.region.empty()) continue;
    const Region &region = access.region;

    // Values renamed in a region this access overlaps without being it go
    // home first, so every byte has one storage again.
    std::vector<Entry *> overlapping;
    for_each_overlapping(region, [&](Entry &e) { overlapping.push_back(&e); });
    for (Entry *other : overlapping)
      if (other->renamed() && !(other->region == region)) created.push_back(make_copy_back(*other));

    Entry &entry = entry_for(region);
    bool alone = true;
    for (Entry *other : overlapping)
      if (other != &entry) alone = false;

    // Renaming: an output-only access that would otherwise wait.
    if (allow_renaming_ && access.writes && !access.reads && alone) {
      prune(entry.readers);
      bool would_wait = unfinished(entry.last_writer) ||
                        std::any_of(entry.readers.begin(), entry.readers.end(), unfinished);
      if (would_wait) {
        if (DataObjectRef renamed = objects_.make_renamed(region)) {
          if (!entry.renamed()) {
            // The tasks that use user memory now must finish before the value returns there.
            if (unfinished(entry.last_writer)) entry.home_users.push_back(entry.last_writer);
            for (TaskRef &reader : entry.readers)
              entry.home_users.push_back(reader);
          }
          if (!entry.renamed()) renamed_entries_.push_back(&entry);
          entry.current = renamed;
          entry.last_writer = task;
          entry.readers.clear();
          access.object = std::move(renamed);
          access.offset = 0;
          Stats::add(stats_.renamed, 1);
          continue;
        }
      }
    }

    // Ordinary ordering against every overlapping region.
    for (Entry *other : overlapping) {
      depend_on(task, other->last_writer); // RAW, and WAW for writes
      if (access.writes) {
        for (TaskRef &reader : other->readers)
          depend_on(task, reader); // WAR
      }
    }
    access.object = entry.current;
    access.offset = 0;
    if (access.writes) {
      entry.last_writer = task;
      entry.readers.clear();
    } else {
      if (entry.readers.size() > 32) prune(entry.readers);
      entry.readers.push_back(task);
    }
  }
}

void DependencyTracker::bring_entry_home(Entry &entry, std::vector<TaskRef> &created,
                                         std::vector<TaskRef> *last_writers,
                                         std::vector<DataObjectRef> *objects) {
  if (entry.renamed()) created.push_back(make_copy_back(entry));
  if (last_writers && unfinished(entry.last_writer)) last_writers->push_back(entry.last_writer);
  if (objects) objects->push_back(entry.original);
}

void DependencyTracker::bring_home(const Region *region, std::vector<TaskRef> &created,
                                   std::vector<TaskRef> *last_writers, std::vector<DataObjectRef> *objects) {
  auto visit = [&](Entry &entry) { bring_entry_home(entry, created, last_writers, objects); };
  if (region) {
    std::vector<Entry *> overlapping;
    for_each_overlapping(*region, [&](Entry &e) { overlapping.push_back(&e); });
    for (Entry *entry : overlapping)
      visit(*entry);
  } else if (!last_writers && !objects) {
    // A barrier without accelerators only needs the renamed values home.
    for (Entry *entry : renamed_entries_)
      if (entry->renamed()) created.push_back(make_copy_back(*entry));
    renamed_entries_.clear();
  } else {
    for (auto &[base, entry] : entries_.entries())
      visit(entry);
    renamed_entries_.clear();
  }
}

void DependencyTracker::forget_tasks() {
  for (auto &[base, entry] : entries_.entries()) {
    entry.last_writer.reset();
    entry.readers.clear();
    entry.home_users.clear();
    entry.used_since_barrier = false;
  }
}

bool DependencyTracker::settle_for_release(const Region &region, std::vector<TaskRef> &created,
                                           std::vector<TaskRef> &users, std::vector<DataObjectRef> *objects) {
  std::vector<Entry *> used;
  for_each_overlapping(region, [&](Entry &entry) {
    if (entry.used_since_barrier) used.push_back(&entry);
  });
  for (Entry *entry : used) {
    // A copy-back becomes the last writer, after every home user; the
    // readers it forgets read the renamed buffer, not this memory.
    bring_entry_home(*entry, created, &users, objects);
    for (const TaskRef &reader : entry->readers)
      if (unfinished(reader)) users.push_back(reader);
  }
  return !used.empty();
}

void DependencyTracker::forget_released(const Region &region) {
  // Settled before the release (or untouched since the last barrier): no
  // task uses these entries, and no device holds a copy of them.
  std::erase_if(renamed_entries_, [&](const Entry *entry) { return region.contains(entry->region); });
  entries_.erase_overlapping_if(region, region_of, [&](Entry &entry) {
    entry.used_since_barrier = false;
    return region.contains(entry.region);
  });
}

void DependencyTracker::clear() {
  renamed_entries_.clear();
  entries_.clear();
}

bool DependencyTracker::overlaps_another(const Region &region) {
  bool found = false;
  for_each_overlapping(region, [&](Entry &entry) { found |= !(entry.region == region); });
  return found;
}

} // namespace gpuss
