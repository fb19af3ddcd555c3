#include "graph/DependencyTracker.hpp"
#include "devices/FaultReports.hpp"
#include "support/StatsCounters.hpp"

#include <algorithm>
#include <cstring>

namespace gpuss {

namespace {

// Body of a copy-back task: access 0 is the renamed value, access 1 the user
// memory it returns to; the argument is the renamed value's DataObject. On a
// host worker this copy is the first to touch user memory that only the
// renamed task wrote: a fault names that task, which made the renamed
// object (FaultReports.hpp).
void copy_back_body(void *args, const css_task_env *env) {
  const DataObject *renamed = nullptr;
  std::memcpy(&renamed, args, sizeof renamed);
  Region shape = Region::from(env->accesses[0].region);
  const bool to_user_memory = env->addresses[1] == env->accesses[1].region.base;
  faults::Activity copy = faults::Activity::copy(
      renamed->first_label, renamed->first_file, renamed->first_line, "its renamed buffer",
      to_user_memory ? "user memory" : "a device's copy of user memory");
  copy.region = shape;
  copy.host = reinterpret_cast<std::uintptr_t>(env->addresses[1]);
  faults::Scope copying(copy);
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

void DependencyTracker::add_reader(Entry &entry, const TaskRef &reader) {
  // A region read every step and never written (a stencil's fixed boundary)
  // collects readers while the master runs ahead, none of them finished.
  // Scanning them at every read, as once past 32 readers, made each submit
  // cost grow with the step; scanning when the list has doubled since the
  // last scan costs a constant per reader.
  if (entry.readers.size() > entry.prune_readers_above) {
    prune(entry.readers);
    entry.prune_readers_above = std::max(min_readers_before_prune, 2 * entry.readers.size());
  }
  entry.readers.push_back(reader);
}

void DependencyTracker::depend_on(const TaskRef &task, TaskRef &predecessor) {
  if (!predecessor) return;
  if (graph_.add_edge(*predecessor, task))
    Stats::add(stats_.edges.value, 1);
  else if (predecessor->completed.load(std::memory_order_relaxed) && !graph_.recording())
    predecessor.reset(); // finished long ago: forget it
}

DependencyTracker::Entry &DependencyTracker::entry_for(const Region &region) {
  Entry *entry = entries_.find_exact(region, region_of);
  if (!entry) {
    Entry fresh;
    fresh.region = region;
    fresh.original = objects_.make_original(region);
    Stats::add(stats_.bytes_named, region.payload_bytes());
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
  const DataObject *value = entry.current.get(); // the task holds it, through its accesses
  task->set_args(&value, sizeof value);
  css_access from{}, to{};
  from.region = {reinterpret_cast<void *>(entry.region.base), entry.region.row_bytes, entry.region.rows,
                 entry.region.stride};
  from.direction = CSS_IN;
  to = from;
  to.direction = CSS_OUT;
  BoundAccess renamed{from, entry.region, entry.current, true, false, true, false};
  BoundAccess home{to, entry.region, entry.original, false, true, false, true};
  task->accesses = {renamed, home};
  task->user_accesses = {from, to};
  graph_.note_task(*task);

  depend_on(task, entry.last_writer); // the renamed value must exist
  for (TaskRef &user : entry.home_users)
    depend_on(task, user);
  entry.current = entry.original;
  entry.last_writer = task;
  entry.clear_readers();
  entry.home_users.clear();
  return task;
}

void DependencyTracker::add_task(const TaskRef &task, std::vector<TaskRef> &created) {
  bind(task, created);
  // Storage made for this task is not shared yet: it names this task.
  for (BoundAccess &access : task->accesses)
    if (access.object && !access.object->first_label) {
      access.object->first_label = task->label;
      access.object->first_file = task->file;
      access.object->first_line = task->line;
    }
}

void DependencyTracker::bind(const TaskRef &task, std::vector<TaskRef> &created) {
  std::vector<BoundAccess> &accesses = task->accesses;
  if (accesses_stand_alone(accesses)) {
    for (BoundAccess &access : accesses)
      if (!access.region.empty())
        access.object = track(task, access.region, access.reads, access.writes, true, created);
    return;
  }
  for (const AccessGroup &group : group_accesses(accesses)) {
    DataObjectRef object;
    if (!group.several_regions()) {
      const GroupPart &part = group.parts.front();
      object = track(task, part.region, part.reads, part.writes, true, created);
    } else {
      for (const GroupPart &part : group.parts)
        track(task, part.region, part.reads, part.writes, false, created);
      object = composite_for(group);
    }
    for (std::uint32_t member : group.members)
      accesses[member].object = object;
  }
}

DataObjectRef DependencyTracker::track(const TaskRef &task, const Region &region, bool reads, bool writes,
                                       bool may_rename, std::vector<TaskRef> &created) {
  // Values renamed in a region this access overlaps without being it go
  // home first, so every byte has one storage again; so does a renamed value
  // of this very region when the access may not use a renamed buffer.
  std::vector<Entry *> &overlapping = overlapping_scratch_;
  overlapping.clear();
  for_each_overlapping(region, [&](Entry &e) { overlapping.push_back(&e); });
  for (Entry *other : overlapping)
    if (other->renamed() && (!may_rename || !(other->region == region)))
      created.push_back(make_copy_back(*other));

  Entry &entry = entry_for(region);
  bool alone = true;
  for (Entry *other : overlapping)
    if (other != &entry) alone = false;

  // Renaming: an output-only access that would otherwise wait.
  if (may_rename && allow_renaming_ && writes && !reads && alone) {
    prune(entry.readers);
    bool would_wait =
        unfinished(entry.last_writer) || std::any_of(entry.readers.begin(), entry.readers.end(), unfinished);
    if (would_wait) {
      if (DataObjectRef renamed = objects_.make_renamed(region)) {
        if (!entry.renamed()) {
          // The tasks that use user memory now must finish before the value returns there.
          if (unfinished(entry.last_writer)) entry.home_users.push_back(entry.last_writer);
          for (TaskRef &reader : entry.readers)
            entry.home_users.push_back(reader);
          renamed_entries_.push_back(&entry);
          entry.listed_as_renamed = true;
        }
        entry.current = renamed;
        entry.last_writer = task;
        entry.clear_readers();
        Stats::add(stats_.renamed, 1);
        return renamed;
      }
    }
  }

  // Ordinary ordering against every overlapping region.
  for (Entry *other : overlapping) {
    depend_on(task, other->last_writer); // RAW, and WAW for writes
    if (writes) {
      for (TaskRef &reader : other->readers)
        depend_on(task, reader); // WAR
    }
  }
  if (writes) {
    for (Entry *other : overlapping)
      if (other != &entry && region.contains(other->region)) supersede(*other, task);
    entry.last_writer = task;
    entry.clear_readers();
  } else {
    add_reader(entry, task);
  }
  return entry.current;
}

void DependencyTracker::supersede(Entry &covered, const TaskRef &writer) {
  // `writer` writes every byte of `covered` and depends (the loop in track)
  // on its last writer and on each of its readers, or they have finished.
  // Every later access to any of these bytes overlaps the writer's own
  // entry as well, whose last writer is `writer` or a task ordered after it
  // (a later writer of that entry depends on it, and a copy-back depends on
  // the last writer; the writer's entry overlaps this one, so it is never
  // renamed), and so is ordered after all of them through it: they need no
  // edge of their own any more. Kept, they would give the next writer of
  // these bytes one edge each, a count that grows with every step of a halo
  // stencil (a block's writer after all the readers of its halo strips
  // since the start). `writer` becomes the entry's last writer: for callers
  // that look at this entry alone (wait_for_composite, settle_for_release,
  // bring_home), the task whose completion makes these bytes final and
  // implies that of the tasks forgotten here. A writer that covers only
  // part of the entry leaves it alone: its readers still read bytes that no
  // later writer is yet ordered after.
  if (!covered.last_writer && covered.readers.empty()) return; // holds no task since the last barrier
  covered.clear_readers();
  covered.last_writer = writer;
}

void DependencyTracker::wait_for_composite(const Composite &composite, std::vector<TaskRef> &tasks) {
  // Its tasks are the writers and readers of its regions' entries.
  for (const ObjectPart &part : composite.object->parts)
    if (Entry *entry = entries_.find_exact(part.region, region_of)) {
      if (unfinished(entry->last_writer)) tasks.push_back(entry->last_writer);
      for (const TaskRef &reader : entry->readers)
        if (unfinished(reader)) tasks.push_back(reader);
    }
}

DataObjectRef DependencyTracker::composite_for(const AccessGroup &group) {
  std::vector<ObjectPart> parts;
  std::uintptr_t first = group.parts.front().region.base, last = 0;
  for (const GroupPart &part : group.parts) {
    parts.push_back(ObjectPart{part.region, part.copy_in, part.writes});
    first = std::min(first, part.region.base);
    last = std::max(last, part.region.end());
  }
  Region span = Region::contiguous(first, last - first);
  Composite *found = nullptr;
  auto [from, to] = composites_.entries().equal_range(span.base);
  for (auto it = from; it != to && !found; ++it)
    if (it->second.object->shape == span && it->second.object->parts == parts) found = &it->second;
  if (!found)
    found = &composites_.insert(span, Composite{objects_.make_composite(span, std::move(parts))})->second;
  found->used_since_barrier = true;
  return found->object;
}

void DependencyTracker::bring_entry_home(Entry &entry, std::vector<TaskRef> &created,
                                         std::vector<TaskRef> *users, std::vector<DataObjectRef> *objects) {
  // A copy-back becomes the last writer, after every home user; the readers
  // it forgets read the renamed buffer, not this memory.
  if (entry.renamed()) created.push_back(make_copy_back(entry));
  if (users) {
    if (unfinished(entry.last_writer)) users->push_back(entry.last_writer);
    // The readers too: once the wait returns, the program may write the
    // memory (`taskwait on(*prev); prev->next = ...`). A reader still to
    // start would copy it to a device between the flush and that write,
    // and the copy would count as current: a later task there would read
    // it and write the old bytes back over the program's (a lost list link
    // in the ompss-list-tree-nodes program, 28 runs in 1,200 on two
    // simulated devices). OmpSs waits for them as well: its `taskwait on`
    // is a `depend(inout: ...)`.
    for (const TaskRef &reader : entry.readers)
      if (unfinished(reader)) users->push_back(reader);
  }
  if (objects) objects->push_back(entry.original);
}

void DependencyTracker::bring_home(const Region *region, std::vector<TaskRef> &created,
                                   std::vector<TaskRef> *users, std::vector<DataObjectRef> *objects) {
  auto visit = [&](Entry &entry) { bring_entry_home(entry, created, users, objects); };
  if (region) {
    std::vector<Entry *> overlapping;
    for_each_overlapping(*region, [&](Entry &e) { overlapping.push_back(&e); });
    for (Entry *entry : overlapping)
      visit(*entry);
    // A composite's device copies hold what its tasks wrote, and also the
    // bytes waited for when it only reads them: it is flushed and forgotten
    // with the rest, so its tasks must have finished, the ones that write
    // its other regions too.
    if (objects)
      for_each_composite_overlapping(*region, [&](Composite &composite) {
        objects->push_back(composite.object);
        if (users) wait_for_composite(composite, *users);
      });
  } else if (!users && !objects) {
    // A barrier without accelerators only needs the renamed values home.
    for (Entry *entry : renamed_entries_) {
      if (entry->renamed()) created.push_back(make_copy_back(*entry));
      entry->listed_as_renamed = false;
    }
    renamed_entries_.clear();
  } else {
    for (auto &[base, entry] : entries_.entries())
      visit(entry);
    if (objects)
      for (auto &[base, composite] : composites_.entries())
        objects->push_back(composite.object);
    for (Entry *entry : renamed_entries_)
      entry->listed_as_renamed = false;
    renamed_entries_.clear();
  }
}

void DependencyTracker::forget_tasks() {
  for (auto &[base, entry] : entries_.entries()) {
    entry.last_writer.reset();
    entry.clear_readers();
    entry.home_users.clear();
    entry.used_since_barrier = false;
  }
  for (auto &[base, composite] : composites_.entries())
    composite.used_since_barrier = false;
}

void DependencyTracker::forget_finished_tasks_now_and_then(bool host_memory_only) {
  // The DAG file shows edges to finished tasks too: they stay known.
  if (graph_.recording()) return;
  constexpr std::size_t min_submits_between_sweeps = 4096;
  // Every time the master has submitted half as many tasks as the last
  // sweep left entries: a sweep costs about one step per entry, so a
  // constant per submit, even while the entries keep growing.
  if (++submits_since_sweep_ < std::max(min_submits_between_sweeps, entries_after_sweep_ / 2)) return;
  submits_since_sweep_ = 0;
  // A finished task orders nothing: a later access needs no edge to it,
  // and waits (wait on, releases, copy-backs) look for unfinished tasks only.
  for (auto &[base, entry] : entries_.entries()) {
    if (entry.last_writer && !unfinished(entry.last_writer)) entry.last_writer.reset();
    prune(entry.readers);
    prune(entry.home_users);
  }
  if (host_memory_only)
    std::erase_if(entries_.entries(), [](const auto &keyed) {
      const Entry &entry = keyed.second;
      return !entry.last_writer && entry.readers.empty() && entry.home_users.empty() && !entry.renamed() &&
             !entry.listed_as_renamed;
    });
  entries_after_sweep_ = entries_.entries().size();
}

bool DependencyTracker::settle_for_release(const Region &region, std::vector<TaskRef> &created,
                                           std::vector<TaskRef> &users, std::vector<DataObjectRef> *objects) {
  std::vector<Entry *> used;
  for_each_overlapping(region, [&](Entry &entry) {
    if (entry.used_since_barrier) used.push_back(&entry);
  });
  for (Entry *entry : used)
    bring_entry_home(*entry, created, &users, objects);
  // A composite that shares bytes with the memory is flushed and forgotten
  // too: every task that uses it must have finished.
  bool used_composite = false;
  for_each_composite_overlapping(region, [&](Composite &composite) {
    if (!composite.used_since_barrier) return;
    used_composite = true;
    wait_for_composite(composite, users);
    if (objects) objects->push_back(composite.object);
  });
  return !used.empty() || used_composite;
}

std::vector<TaskRef> DependencyTracker::unread_pending_results(const Region &region) {
  std::vector<TaskRef> writers;
  for_each_overlapping(region, [&](Entry &entry) {
    // A task that reads them uses the results (a scratch buffer, written,
    // read, then freed): nothing is lost.
    if (!entry.used_since_barrier || !entry.last_writer || !entry.readers.empty() ||
        entry.last_writer->kind != TaskKind::User)
      return;
    if (entry.renamed() || unfinished(entry.last_writer)) writers.push_back(entry.last_writer);
  });
  return writers;
}

bool DependencyTracker::written_since_barrier(const Region &region, bool devices) {
  bool written = false;
  for_each_overlapping(region, [&](Entry &entry) {
    if (!entry.used_since_barrier) return;
    written |= entry.renamed() || (devices ? entry.last_writer != nullptr : unfinished(entry.last_writer));
  });
  for_each_composite_overlapping(region, [&](Composite &composite) { written |= composite.used_since_barrier; });
  return written;
}

void DependencyTracker::forget_released(const Region &region) {
  // Settled before the release (or untouched since the last barrier): no
  // task uses these entries, and no device holds a copy of them.
  std::erase_if(renamed_entries_, [&](const Entry *entry) { return region.contains(entry->region); });
  entries_.erase_overlapping_if(region, region_of, [&](Entry &entry) {
    entry.used_since_barrier = false;
    return region.contains(entry.region);
  });
  // A composite with a region in released memory stands for data that no
  // longer exists as it was; one made later for new memory starts afresh.
  composites_.erase_overlapping_if(region, composite_shape,
                                   [&](Composite &composite) { return composite.object->overlaps(region); });
}

void DependencyTracker::clear() {
  renamed_entries_.clear();
  entries_.clear();
  composites_.clear();
}

bool DependencyTracker::overlaps_another(const Region &region) {
  bool found = false;
  for_each_overlapping(region, [&](Entry &entry) { found |= !(entry.region == region); });
  // A composite that names exactly this region writes its bytes as another
  // object: the region's own object is not the only storage of its value.
  for_each_composite_overlapping(region, [&](Composite &) { found = true; });
  return found;
}

} // namespace gpuss
