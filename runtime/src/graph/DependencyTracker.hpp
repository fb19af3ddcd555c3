// DependencyTracker: orders tasks over regions and decides renaming.
//
// Master thread only. For every distinct region accessed it keeps the last
// writer, the readers since, and the storage that holds the current value.
// A new access depends on every tracked region it overlaps, byte-exactly:
// read-after-write on the last writer, and for writes also
// write-after-read and write-after-write. Entries are never merged. A write
// that covers every byte of another entry (a block over the halo strips
// inside it) supersedes that entry's tasks: its readers are forgotten and
// the writer becomes its last writer, so that readers made redundant by the
// write add no edges to later writers (supersede). An entry the write covers
// only in part keeps its readers; its stale last writer only adds edges to
// tasks that are already predecessors, so ordering stays exact.
//
// Renaming: an output-only access to a region that overlaps no other tracked
// region, and whose last writer or readers are unfinished, gets a renamed
// buffer. Tasks that still use user memory for the region are remembered
// (home_users) so the copy-back that later returns the value to user memory
// waits for them. Any access that overlaps a renamed region without being
// exactly it first brings the value home.
//
// The accesses of a task that must share one storage (AccessGroups.hpp) are
// bound to one object. The regions of a group of several are ordered each
// on its own, never renamed (a renamed value among them comes home first),
// and stored together in a composite object: user memory, copied region by
// region (DataObject::parts). Composites are kept, like entries, until their
// memory is released or the runtime finishes, so that a device copy serves
// the next task with the same regions.
#pragma once

#include "graph/AccessGroups.hpp"
#include "graph/IntervalIndex.hpp"
#include "graph/Renaming.hpp"
#include "graph/Task.hpp"

#include <memory>
#include <vector>

namespace gpuss {

struct Stats;

class DependencyTracker {
public:
  DependencyTracker(TaskGraph &graph, ObjectStore &objects, Stats &stats, bool allow_renaming)
      : graph_(graph), objects_(objects), stats_(stats), allow_renaming_(allow_renaming) {}

  // Binds the accesses of `task` to storage and adds its edges. Copy-back
  // tasks it had to create first are appended to `created` in the order they
  // must be submitted (before `task`).
  void add_task(const TaskRef &task, std::vector<TaskRef> &created);

  // For wait on (region given) or barrier (null): copy-backs for renamed
  // regions (appended to `created`), and the unfinished tasks that use the
  // regions' user memory, writers and readers (after them the program may
  // write it), with the storage to flush to user memory.
  void bring_home(const Region *region, std::vector<TaskRef> &created, std::vector<TaskRef> *users,
                  std::vector<DataObjectRef> *objects);

  // Whether the program's memory may lack what a task submitted since the
  // last barrier wrote into any byte of `region`: its writer unfinished,
  // its value renamed, or (`devices`) a writer at all, whose value a
  // device may hold; or a composite that shares bytes with it was used.
  bool written_since_barrier(const Region &region, bool devices);

  // Whether `region` overlaps a tracked region other than itself, or a
  // region of a composite (whose tasks write it through another object).
  bool overlaps_another(const Region &region);

  // Memory the program releases (free, realloc, munmap) right after calling
  // tasks that use it is legal sequential code. If tasks submitted since the
  // last barrier used any byte of `region`, settle_for_release gives what
  // bring_home gives for a wait on, and returns true; false if none did.
  // Once the memory is released, forget_released drops the regions inside
  // it, so that memory allocated there later starts afresh (with other
  // shapes, no stale overlaps that would stop renaming and load-ahead).
  bool settle_for_release(const Region &region, std::vector<TaskRef> &created, std::vector<TaskRef> &users,
                          std::vector<DataObjectRef> *objects);
  void forget_released(const Region &region);
  // Before settle_for_release: the tasks whose results in `region` are not
  // in its memory yet (the writer unfinished, or its value in a renamed
  // buffer) and that no task reads. Freeing the memory then drops them,
  // and a copy the program made of it first (a std::vector growing) holds
  // the values from before them.
  std::vector<TaskRef> unread_pending_results(const Region &region);

  // After a barrier: every tracked task has finished; drop the references.
  void forget_tasks();
  // Between barriers: drop the references to tasks that have finished, from
  // time to time (every so many submits, at least half as many as the
  // entries the last time, so that it costs a constant per task). A region the master
  // does not touch again would otherwise hold its last tasks until the next
  // barrier: 2 million tasks on distinct regions held 2.3 GB. Without
  // accelerators (`host_memory_only`), an entry whose tasks have all
  // finished and whose value is in user memory goes too: it tells nothing
  // that a later task needs (with accelerators, its storage may hold the
  // only current copy of the value, which the master cannot see).
  void forget_finished_tasks_now_and_then(bool host_memory_only);
  // At finish: drop everything.
  void clear();

  std::uint64_t next_task_id() { return next_task_id_++; }

private:
  static constexpr std::size_t min_readers_before_prune = 32;

  struct Entry {
    Region region;
    DataObjectRef original; // user memory
    DataObjectRef current;  // where the current value lives (original or renamed)
    TaskRef last_writer;
    std::vector<TaskRef> readers;    // since last_writer
    std::vector<TaskRef> home_users; // while renamed: tasks still using user memory
    // Finished readers are dropped when `readers` grows past this (add_reader).
    std::size_t prune_readers_above = min_readers_before_prune;
    bool used_since_barrier = false;
    bool listed_as_renamed = false; // in renamed_entries_
    bool renamed() const { return current != original; }
    void clear_readers() {
      readers.clear();
      prune_readers_above = min_readers_before_prune;
    }
  };

  // The storage of several regions one task uses together, and whether a
  // task submitted since the last barrier used it.
  struct Composite {
    DataObjectRef object;
    bool used_since_barrier = false;
  };

  // Binds each access of `task` to its storage (add_task).
  void bind(const TaskRef &task, std::vector<TaskRef> &created);
  // Orders `task` after the tasks before it that use `region`, and returns
  // the storage its access binds to. `may_rename`: an output-only access may
  // get a fresh buffer.
  DataObjectRef track(const TaskRef &task, const Region &region, bool reads, bool writes, bool may_rename,
                      std::vector<TaskRef> &created);
  DataObjectRef composite_for(const AccessGroup &group);
  // Adds the unfinished tasks that use `composite` to `tasks`.
  void wait_for_composite(const Composite &composite, std::vector<TaskRef> &tasks);
  // Composites that share bytes with `region`.
  template <typename Fn> void for_each_composite_overlapping(const Region &region, Fn fn) {
    composites_.for_each_overlapping(region, composite_shape, [&](Composite &composite) {
      if (composite.object->overlaps(region)) fn(composite);
    });
  }
  static const Region &composite_shape(const Composite &composite) { return composite.object->shape; }

  Entry &entry_for(const Region &region);
  static const Region &region_of(const Entry &entry) { return entry.region; }
  template <typename Fn> void for_each_overlapping(const Region &region, Fn fn) {
    entries_.for_each_overlapping(region, region_of, fn);
  }
  // `writer` writes every byte of `covered`'s region: the tasks there are
  // ordered before it, and later ones find it through its own entry.
  void supersede(Entry &covered, const TaskRef &writer);
  TaskRef make_copy_back(Entry &entry);
  // Adds the entry's copy-back (if renamed) to `created`, its unfinished
  // users of user memory (last writer and readers) to `users`, its storage
  // to `objects`.
  void bring_entry_home(Entry &entry, std::vector<TaskRef> &created, std::vector<TaskRef> *users,
                        std::vector<DataObjectRef> *objects);
  void depend_on(const TaskRef &task, TaskRef &predecessor);
  static bool unfinished(const TaskRef &task);
  void prune(std::vector<TaskRef> &tasks) const;
  void add_reader(Entry &entry, const TaskRef &reader);

  TaskGraph &graph_;
  ObjectStore &objects_;
  Stats &stats_;
  const bool allow_renaming_;
  IntervalIndex<Entry> entries_;         // map nodes: entries never move
  IntervalIndex<Composite> composites_;  // keyed by the span of their regions
  std::vector<Entry *> renamed_entries_; // entries renamed since the last barrier (some may be home again)
  // track's list of the entries an access overlaps, kept between calls so
  // that an access costs no allocation for it (track does not call itself).
  std::vector<Entry *> overlapping_scratch_;
  std::uint64_t next_task_id_ = 1;
  std::size_t submits_since_sweep_ = 0; // forget_finished_tasks_now_and_then
  std::size_t entries_after_sweep_ = 0;
};

} // namespace gpuss
