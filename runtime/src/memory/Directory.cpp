#include "memory/Directory.hpp"
#include "support/Fatal.hpp"
#include "memory/PageLocks.hpp"
#include "support/StatsCounters.hpp"

#include <algorithm>
#include <iterator>

namespace gpuss {

const char *to_string(ReplicaState state) {
  switch (state) {
  case ReplicaState::Absent:
    return "absent";
  case ReplicaState::Valid:
    return "valid";
  case ReplicaState::Filling:
    return "filling";
  case ReplicaState::Outdated:
    return "outdated";
  case ReplicaState::Stale:
    return "stale";
  }
  return "?";
}

void coherence_violation(const char *transition, ReplicaState state) {
  fatal(std::string("coherence: transition '") + transition + "' from state '" + to_string(state) +
        "' (a runtime bug; please report it)");
}

namespace {

const Region &shape_of(DataObject *const &object) {
  return object->shape;
}

// The bytes a fetch of `object` into a device moves: an object of several
// regions moves only those its tasks read.
std::size_t fetch_bytes(const DataObject &object) {
  if (!object.has_parts()) return object.storage_bytes();
  std::size_t bytes = 0;
  for (const ObjectPart &part : object.parts)
    if (part.fetched) bytes += part.region.span();
  return bytes;
}

// Objects by their first byte, the one spanning further first among equals
// (and the larger, where two span the same bytes), so that whatever contains
// a part comes before it.
void sort_by_first_byte(std::vector<DataObject *> &parts) {
  std::sort(parts.begin(), parts.end(), [](const DataObject *a, const DataObject *b) {
    if (a->shape.base != b->shape.base) return a->shape.base < b->shape.base;
    if (a->shape.end() != b->shape.end()) return a->shape.end() > b->shape.end();
    return a->shape.payload_bytes() > b->shape.payload_bytes();
  });
}

// Walks `sorted` (sort_by_first_byte) and calls visit(part, open) with the
// earlier parts accepted so far whose spans reach past part's first byte,
// the only ones that can share a byte with it; a part for which visit
// returns true is accepted. Linear in the parts where few spans overlap
// (pieces of a vector: a suffix read by LU's left swaps, or the 40,000
// pieces of a reduction), not quadratic.
template <typename Visit>
std::vector<DataObject *> sweep(const std::vector<DataObject *> &sorted, Visit visit) {
  std::vector<DataObject *> accepted, open;
  for (DataObject *part : sorted) {
    std::erase_if(open, [&](const DataObject *o) { return o->shape.end() <= part->shape.base; });
    if (!visit(*part, open)) continue;
    accepted.push_back(part);
    open.push_back(part);
  }
  return accepted;
}

// The parts worth copying from: every lender's copy is current for all its
// bytes, so one that lies inside another lender adds nothing (LU's pivots:
// a suffix of the vector read earlier lends the same bytes as its pieces).
// What is left may still overlap without containing.
std::vector<DataObject *> outermost(std::vector<DataObject *> parts) {
  sort_by_first_byte(parts);
  return sweep(parts, [](const DataObject &part, const std::vector<DataObject *> &open) {
    return std::none_of(open.begin(), open.end(),
                        [&](const DataObject *o) { return o->shape.contains(part.shape); });
  });
}

// Whether `parts` (objects inside `object`) hold every byte of it between
// them: pairwise disjoint, and as many bytes as it has.
bool covered_by(const DataObject &object, std::vector<DataObject *> parts) {
  if (parts.empty()) return false;
  sort_by_first_byte(parts);
  bool disjoint = true;
  std::size_t bytes = 0;
  sweep(parts, [&](const DataObject &part, const std::vector<DataObject *> &open) {
    disjoint &= std::none_of(open.begin(), open.end(),
                             [&](const DataObject *o) { return o->shape.overlaps(part.shape); });
    bytes += part.shape.payload_bytes();
    return true;
  });
  return disjoint && bytes == object.shape.payload_bytes();
}

std::vector<ObjectUse> uses_of(const Task &task, int space) {
  std::vector<ObjectUse> uses;
  for (const BoundAccess &access : task.accesses) {
    if (!access.object) continue;
    auto it =
        std::find_if(uses.begin(), uses.end(), [&](const ObjectUse &u) { return u.object == access.object; });
    if (it == uses.end()) it = uses.insert(uses.end(), ObjectUse{access.object});
    it->reads |= access.reads && (space == 0 || access.copy_in);
    it->writes |= access.writes;
    it->copy_out |= access.writes && access.copy_out;
  }
  return uses;
}

} // namespace

Directory::Directory(CachePolicy policy, std::vector<MemoryNode *> nodes,
                     std::vector<std::unique_ptr<SoftwareCache>> caches, ObjectStore &objects, Stats &stats,
                     PageLocks *page_locks, bool clean_while_idle, Eviction eviction, bool device_aliases,
                     bool check_host_writes)
    : policy_(policy), clean_while_idle_(clean_while_idle), eviction_(eviction),
      device_aliases_(device_aliases),
      host_writes_(check_host_writes ? std::make_unique<HostWriteCheck>() : nullptr),
      nodes_(std::move(nodes)), page_locks_(page_locks), caches_(std::move(caches)), objects_(objects),
      stats_(stats), write_backs_in_flight_(nodes_.size() + 1, 0), evicting_(nodes_.size() + 1),
      evicting_bytes_(nodes_.size() + 1, 0) {}

void Directory::expect_order(const std::vector<TaskRef> &ranked) {
  if (eviction_ != Eviction::NextUse) return;
  // Tasks completed before this call have dropped their accesses; the
  // others cannot complete meanwhile (completions are this thread's), and
  // only this thread drops accesses, so they are read without the lock.
  std::vector<Task *> order;
  order.reserve(ranked.size());
  for (const TaskRef &task : ranked)
    if (!task->completed.load(std::memory_order_relaxed) && !task->accesses.empty())
      order.push_back(task.get());
  std::stable_sort(order.begin(), order.end(), [](const Task *a, const Task *b) {
    return a->rank.load(std::memory_order_relaxed) > b->rank.load(std::memory_order_relaxed);
  });
  for (Task *task : order) {
    const std::uint64_t position = next_position_++;
    task->expected_position = position;
    for (const BoundAccess &access : task->accesses) {
      if (!access.object) continue;
      std::vector<std::uint64_t> &uses = access.object->upcoming_uses;
      if (uses.empty() || uses.back() != position) uses.push_back(position); // once per task
    }
  }
}

void Directory::forget_expected_uses(const Task &task, const std::vector<ObjectUse> &uses) {
  const std::uint64_t position = task.expected_position;
  if (position == 0) return;
  frontier_ = std::max(frontier_, position);
  for (const ObjectUse &use : uses) {
    std::vector<std::uint64_t> &upcoming = use.object->upcoming_uses;
    // Tasks mostly complete in about the expected order: near the front.
    auto it = std::find(upcoming.begin(), upcoming.end(), position);
    if (it != upcoming.end()) upcoming.erase(it);
  }
}

void Directory::count_ready_uses(const Task &task, int change) {
  if (eviction_ != Eviction::NextUse) return;
  for (const BoundAccess &access : task.accesses)
    if (access.object) access.object->ready_uses += change;
}

std::uint64_t Directory::eviction_score(const DataObject &object, int space) const {
  // Belady's rule: the furthest next use goes first. With no known use
  // (none of the unfinished ranked tasks uses it, or no barrier has ranked
  // the graph yet) a replica costs nothing to give up: those go before any
  // other, clean ones first (a dirty one's write-back would be needed at
  // the barrier anyway). A dirty replica costs a write-back and then a
  // reload where a clean one costs the reload: its next use counts as a
  // quarter nearer, so a clean victim is preferred among close ones.
  const bool dirty = object.dirty_space == space;
  const std::uint64_t next = next_use(object);
  constexpr std::uint64_t furthest = std::uint64_t{1} << 58;
  // A replica that a ready task uses goes after any that none does,
  // whatever their expected positions: the ready ones run next.
  const bool ready_use = object.ready_uses > 0;
  if (next == no_known_use && !ready_use) return dirty ? no_known_use - 1 : no_known_use;
  const std::uint64_t distance =
      next == no_known_use ? furthest : std::min(next > frontier_ ? next - frontier_ : 0, furthest);
  const std::uint64_t score = dirty ? 3 * distance : 4 * distance;
  return ready_use ? score : score + (std::uint64_t{1} << 61);
}

DataObject *Directory::next_victim(int space) const {
  if (eviction_ == Eviction::Lru) return cache(space).lru_victim();
  return cache(space).best_victim([&](const DataObject &object) { return eviction_score(object, space); });
}

Directory::FetchEstimate Directory::estimate_fetch(const Task &task, int space) const {
  FetchEstimate estimate;
  for (const ObjectUse &use : uses_of(task, space)) {
    if (!use.reads || use.object->replicas[space].holds_value()) continue;
    estimate.bytes += fetch_bytes(*use.object);
    if (use.writes) estimate.written_bytes += fetch_bytes(*use.object);
    const DataObject &object = *use.object;
    if (space != 0 && object.dirty_space == 0 && page_locks_ && !object.renamed &&
        !page_locks_->locked(object.host, object.shape.span()))
      estimate.unlocked_bytes += fetch_bytes(object);
  }
  return estimate;
}

Transfer Directory::start_copy(const DataObjectRef &object, int from, int to) {
  Replica &source = object->replicas[from], &destination = object->replicas[to];
  source.add_reader();
  destination.begin_fill();
  ++transfers_in_flight_;
  auto address = [&](int space, const Replica &replica) {
    return space == 0 ? object->host : replica.storage().address;
  };
  Transfer transfer{.object = object,
                    .from_space = from,
                    .to_space = to,
                    .source = address(from, source),
                    .destination = address(to, destination),
                    .version = object->version,
                    .source_object = nullptr, // a copy of the object's own value
                    .into_part = false};
  stats_.count_transfer(from, to, transfer.payload_bytes());
  if (host_writes_ && from == 0 && to != 0) host_writes_->copied_from_host(*object);
  return transfer;
}

void Directory::install_replica(DataObject &object, int space, DeviceBlock block) {
  Replica &replica = object.replicas[space];
  replica.attach(block);
  cache(space).insert(object);
  const MemoryPool &pool = cache(space).pool();
  Stats::raise_to(stats_.device_peak_bytes, pool.capacity() - pool.free_bytes());
  if (!object.renamed && !object.in_alias_index) {
    aliases_.insert(object.shape, &object);
    object.in_alias_index = true;
  }
}

void Directory::issue(Transfer transfer, int executing_space) {
  outbox_.push_back(CopyOrder{std::move(transfer), executing_space});
}

Directory::LoadOutcome Directory::load_ahead(const DataObjectRef &object, int space, std::size_t keep_free) {
  // Only a value that is in host memory and nowhere else: one a device
  // already holds is placed (locality follows it), and one a task computes
  // is not there yet. An object overlapping another with device copies is
  // left to plan(), which keeps aliases coherent.
  Replica &host = object->replicas[0];
  if (object->renamed || object->has_parts() || object->dirty_space != 0 || host.state() != ReplicaState::Valid)
    return LoadOutcome::NotNeeded;
  for (std::size_t other = 1; other < object->replicas.size(); ++other)
    if (object->replicas[other].state() != ReplicaState::Absent) return LoadOutcome::NotNeeded;
  bool aliased = false;
  aliases_.for_each_overlapping(object->shape, shape_of, [&](DataObject *&other) {
    aliased |= other != object.get() && other->overlaps(*object);
  });
  if (aliased) return LoadOutcome::NotNeeded;

  MemoryPool &pool = cache(space).pool();
  const std::size_t bytes = cache(space).reservation_bytes(*object);
  if (pool.free_bytes() < (bytes ? pool.footprint(bytes) : 0) + keep_free) return LoadOutcome::NoRoom;
  std::optional<DeviceBlock> block = cache(space).reserve(*object);
  if (!block) return LoadOutcome::NoRoom;

  // As plan() fills a replica for a task: valid from now on, so that tasks
  // placed here use it (the device's fetch engine runs this copy before
  // theirs), and pinned by `filling` until the copy ends.
  install_replica(*object, space, *block);
  Stats::add(stats_.loads_ahead, 1);
  issue(start_copy(object, 0, space), space);
  return LoadOutcome::Issued;
}

void Directory::write_back(DataObject &object) {
  int from = object.dirty_space;
  if (from == 0) return; // the host is up to date, or a write-back is already on its way
  if (!object.replicas[from].storage())
    fatal("directory: object " + std::to_string(object.id) + " is dirty in space " + std::to_string(from) +
          " without a block there");
  DataObjectRef alive = object.weak_from_this().lock(); // until the copy ends
  if (!alive) {
    // Its last reference went a moment ago (the master replaced a renamed
    // version) and it waits in the retire queue: the value is dead, and
    // retiring frees the replica.
    object.dirty_space = 0;
    return;
  }
  Transfer transfer = start_copy(alive, from, 0); // the host is Filling: it holds the value from now on
  object.dirty_space = 0;
  ++write_backs_in_flight_[from];
  issue(std::move(transfer), from);
}

void Directory::write_back_final(DataObject &object) {
  if (object.dirty_space == 0 || inner_objects_in_use(object)) return;
  write_back(object);
  Stats::add(stats_.final_write_backs, 1);
}

bool Directory::inner_objects_in_use(const DataObject &object) {
  // A container whose own tasks have all ended is not final while tasks
  // still use objects inside it: one may write there (LU's left
  // interchanges at each step, in a panel the gemms read), which splits the
  // container's value into the copies of those objects (split) and makes
  // the container's write-back, sent now, a wasted copy. It goes when the
  // last of them ends (last_use_ended), if it is still newer than the host.
  bool in_use = false;
  aliases_.for_each_overlapping(object.shape, shape_of, [&](DataObject *const &inner) {
    in_use |= inner != &object && inner->unfinished_users.load(std::memory_order_relaxed) > 0 &&
              may_alias_on_device(object, *inner, object.dirty_space);
  });
  return in_use;
}

void Directory::last_use_ended(DataObject &object) {
  if (object.write_back_when_final) write_back_final(object);
  if (aliases_.empty()) return;
  std::vector<DataObject *> waiting; // containers whose final write-back waited for this one
  aliases_.for_each_overlapping(object.shape, shape_of, [&](DataObject *const &outer) {
    if (outer != &object && outer->dirty_space != 0 && outer->write_back_when_final &&
        outer->unfinished_users.load(std::memory_order_relaxed) == 0 &&
        may_alias_on_device(*outer, object, outer->dirty_space))
      waiting.push_back(outer);
  });
  for (DataObject *outer : waiting)
    write_back_final(*outer);
}

void Directory::clean_while_idle(int space) {
  // Write-back keeps results on the device until someone needs them, so a
  // barrier would otherwise find every result there and copy them all while
  // the GPUs wait. The device-to-host engine is idle meanwhile: use it for
  // the least recently used dirty copies, which in blocked codes are the
  // finished ones. They stay valid on the device, now clean.
  if (policy_ != CachePolicy::WriteBack || space == 0) return;
  constexpr unsigned in_flight_target = 2, looked_at = 64;
  if (write_backs_in_flight_[space] >= in_flight_target) return;
  cache(space).for_each_least_recent(looked_at, [&](DataObject &object) {
    if (object.dirty_space == space && !object.replicas[space].pinned()) write_back(object);
    return write_backs_in_flight_[space] < in_flight_target;
  });
}

void Directory::drop_replica(DataObject &object, int space) {
  Replica &replica = object.replicas[space];
  if (object.dirty_space == space)
    fatal("directory: dropping the only current copy of object " + std::to_string(object.id) + " in space " +
          std::to_string(space));
  cache(space).remove(object);
  if (auto evicting = evicting_[space].find(&object); evicting != evicting_[space].end()) {
    evicting_bytes_[space] -= evicting->second;
    evicting_[space].erase(evicting);
  }
  if (const DeviceBlock block = replica.storage()) cache(space).release(object, block);
  replica.release_storage();
}

bool Directory::may_alias_on_device(const DataObject &outer, const DataObject &inner, int space) const {
  return device_aliases_ && space != 0 && !outer.has_parts() && !inner.has_parts() &&
         outer.shape.contains(inner.shape);
}

void Directory::resolve_aliases(DataObject &object, bool writes, int space, bool &blocked,
                                AliasSources *sources) {
  if (object.renamed || aliases_.empty()) return;
  // A read on a device whose copy of the object holds its value: by the
  // rule above that copy is current for every byte, whatever overlaps it,
  // so nothing lacks and nothing moves. (Without this, a tile read twice
  // from a panel newer than host memory sent the whole panel home at the
  // second read: LU wrote its lower triangle back twice.)
  if (!writes && space != 0 && object.replicas[space].holds_value()) return;
  aliases_.for_each_overlapping(object.shape, shape_of, [&](DataObject *&other) {
    if (other == &object || !other->overlaps(object)) return;
    // `other` matters when the host lacks bytes of it this task uses, or
    // when this task overwrites bytes of its device copies, whose own value
    // must reach the host first. Either way the two objects' tasks share
    // bytes one of them writes, so they are ordered: `other`'s tasks have
    // finished. Where both only read the shared bytes, neither waits (their
    // tasks may run at once, and `other`'s writer may not have finished: its
    // value is not one to copy home yet).
    const bool lacking = other->writes_into(object);
    const bool overwritten = writes && object.writes_into(*other);
    if (!lacking && !overwritten) return;
    if (sources && !object.replicas[space].holds_value() && object.dirty_space == 0 &&
        other->replicas[space].state() == ReplicaState::Valid) {
      // The newer bytes are on this device, in a copy that is current for
      // all of them: take them there.
      if (!writes && !sources->container && may_alias_on_device(*other, object, space)) {
        sources->container = other;
        return;
      }
      // A part lends its bytes to a reader as it is (it keeps its copy; a
      // write-back of it under way changes nothing here: plan chooses among
      // them), and to a writer, which takes it over, when no task is using
      // it and it is not on its way home.
      if (may_alias_on_device(object, *other, space) &&
          (!writes || (!other->replicas[0].filling() && other->replicas[space].task_pins() == 0))) {
        // A writer takes the part's bytes over here: its copies on the
        // other devices hold the value from before the write, and must go
        // as they do below (a read copy of a tile left on another device
        // was read by the tile's next task there, silently losing the
        // container's write: a helper's sweep, 2026-11-29).
        // A copy here that is valid holds the newest value, as the one
        // newer than host memory elsewhere does: this one becomes it.
        if (overwritten) {
          if (other->dirty_space != 0) other->dirty_space = space;
          drop_other_copies(*other, space, blocked);
        }
        sources->parts.push_back(other);
        return;
      }
    }
    // A writer inside a container that is newer on this device than in
    // host memory: where the container's bytes all lie in the copies of
    // objects inside it there, they hold its value from now on.
    if (overwritten && space != 0 && other->dirty_space == space &&
        may_alias_on_device(*other, object, space))
      if (split(*other, space) == Split::Later) {
        blocked = true; // copies still read the container, or fill the objects inside it
        return;
      }
    if (other->dirty_space != 0) {
      write_back(*other);
      blocked = true;
    }
    if (other->replicas[0].filling()) blocked = true;
    if (!overwritten) return;
    drop_other_copies(*other, 0, blocked);
  });
}

void Directory::drop_other_copies(DataObject &object, int keep, bool &blocked) {
  for (std::size_t space = 1; space < object.replicas.size(); ++space) {
    Replica &replica = object.replicas[space];
    if (static_cast<int>(space) == keep || replica.state() == ReplicaState::Absent) continue;
    if (replica.pinned())
      blocked = true; // a copy still reads it: once it has landed
    else
      drop_replica(object, static_cast<int>(space));
  }
}

Transfer Directory::start_alias_copy(const DataObjectRef &destination, DataObject &source, int space,
                                     bool into_part) {
  Replica &from = source.replicas[space], &to = destination->replicas[space];
  from.add_reader();
  if (!into_part) to.begin_fill();
  ++transfers_in_flight_;
  // Both addresses are of the smaller object's first byte, in each copy.
  const DataObject &smaller = into_part ? source : *destination;
  Transfer transfer{.object = destination,
                    .from_space = space,
                    .to_space = space,
                    .source = from.storage().address + (smaller.shape.base - source.shape.base),
                    .destination = to.storage().address + (smaller.shape.base - destination->shape.base),
                    .version = destination->version,
                    .source_object = source.shared_from_this(),
                    .into_part = into_part,
                    .lands = !into_part};
  stats_.count_transfer(space, space, transfer.payload_bytes());
  return transfer;
}

Directory::Split Directory::split(DataObject &container, int space) {
  // The container's copy here is current for all its bytes, and so is every
  // valid copy of an object inside it (the rule above): where such copies
  // cover it, they are as good as its own. They become the dirty ones, and
  // the container's value lies in them, as a part absorbed into a writer's
  // copy lies in that writer's (absorb, the other way round): whoever reads
  // it from the host first brings their bytes home (resolve_aliases).
  Replica &copy = container.replicas[space];
  if (!device_aliases_ || container.has_parts() || copy.state() != ReplicaState::Valid ||
      container.replicas[0].state() != ReplicaState::Absent)
    return Split::No;
  std::vector<DataObject *> inside;
  aliases_.for_each_overlapping(container.shape, shape_of, [&](DataObject *&other) {
    if (other != &container && may_alias_on_device(container, *other, space) &&
        other->replicas[space].holds_value() && other->dirty_space == 0 && !other->replicas[0].filling())
      inside.push_back(other);
  });
  const std::vector<DataObject *> parts = outermost(std::move(inside));
  if (!covered_by(container, parts)) return Split::No;
  // Alias copies still reading the container (the reads of the objects
  // inside it), or filling those objects: once they have landed.
  if (copy.pinned() || std::any_of(parts.begin(), parts.end(), [&](const DataObject *part) {
        return part->replicas[space].state() != ReplicaState::Valid;
      }))
    return Split::Later;
  for (DataObject *part : parts) {
    part->dirty_space = space;
    part->replicas[0].supersede();
    if (part->write_back_when_final && part->unfinished_users.load(std::memory_order_relaxed) == 0)
      write_back_final(*part);
  }
  container.dirty_space = 0;
  container.replicas[0].absorbed_into_overlap();
  Stats::add(stats_.splits, 1);
  return Split::Done;
}

void Directory::absorb(DataObject &part, int space) {
  if (part.dirty_space == space) {
    part.dirty_space = 0;
    part.replicas[0].absorbed_into_overlap();
  }
  invalidate_replica(part, space); // read by the alias copy: freed when that ends
}

bool Directory::make_room(int space, std::size_t bytes, bool &waiting) {
  MemoryPool &pool = cache(space).pool();
  for (;;) {
    if (pool.can_allocate(bytes)) return true;
    // Blocks of dirty victims free when their write-backs end: while those
    // and what is free would make the room, the task waits for them rather
    // than have more given up (data needed sooner than what it loads). If
    // the pool is then too fragmented, the next try evicts more.
    if (evicting_bytes_[space] > 0 && pool.free_bytes() + evicting_bytes_[space] >= pool.footprint(bytes)) {
      waiting = true;
      return false;
    }
    DataObject *victim = next_victim(space);
    if (!victim) return false;
    if (victim->dirty_space == space) {
      // Dirty: written back first (asynchronously, on the device's
      // device-to-host stream); its block frees when the copy ends.
      // What its write-back's end gives back: nothing while other replicas
      // still use the extent it views.
      const std::size_t block_bytes = cache(space).freed_by_release(victim->replicas[space].storage());
      write_back(*victim);
      invalidate_replica(*victim, space);
      if (victim->replicas[space].doomed() && evicting_[space].emplace(victim, block_bytes).second)
        evicting_bytes_[space] += block_bytes;
      waiting = true;
      stats_.count_eviction(space, true);
    } else {
      drop_replica(*victim, space);
      stats_.count_eviction(space, false);
    }
  }
}

void Directory::check_lenders(const std::vector<ObjectUse> &uses, std::vector<AliasSources> &aliases, int space,
                              bool &blocked) {
  // An object this task also uses lends it no bytes (its own copy is pinned
  // for the task; giving it up or reading it as a source would mix the
  // two): such a use is kept coherent through the host.
  auto used = [&](const DataObject *other) {
    return std::any_of(uses.begin(), uses.end(), [&](const ObjectUse &u) { return u.object.get() == other; });
  };
  for (std::size_t i = 0; i < uses.size(); ++i)
    if ((aliases[i].container && used(aliases[i].container)) ||
        std::any_of(aliases[i].parts.begin(), aliases[i].parts.end(), used)) {
      aliases[i] = {};
      resolve_aliases(*uses[i].object, uses[i].writes, space, blocked, nullptr);
    }
  // Another use's coherence may have given up a lender's copy meanwhile (a
  // write that overwrites it): plan again, without it.
  for (DataObject *lender : lenders_of(aliases))
    if (lender->replicas[space].state() != ReplicaState::Valid) blocked = true;
}

std::vector<DataObject *> Directory::lenders_of(const std::vector<AliasSources> &aliases) {
  std::vector<DataObject *> lenders;
  for (const AliasSources &alias : aliases) {
    if (alias.container) lenders.push_back(alias.container);
    lenders.insert(lenders.end(), alias.parts.begin(), alias.parts.end());
  }
  return lenders;
}

void Directory::go_through_host(const std::vector<ObjectUse> &uses, std::vector<AliasSources> &aliases, int space,
                                bool &blocked) {
  for (std::size_t i = 0; i < uses.size(); ++i)
    if (aliases[i].container || !aliases[i].parts.empty()) {
      aliases[i] = {};
      resolve_aliases(*uses[i].object, uses[i].writes, space, blocked, nullptr);
    }
}

PlanOutcome Directory::plan(Task &task, int space, TaskPlan &plan, Lending lending) {
  std::vector<ObjectUse> uses = uses_of(task, space);
  bool blocked = false;
  std::vector<AliasSources> aliases(uses.size());
  for (std::size_t i = 0; i < uses.size(); ++i) {
    ObjectUse &use = uses[i];
    resolve_aliases(*use.object, use.writes, space, blocked,
                    space != 0 && use.reads && lending == Lending::Allowed ? &aliases[i] : nullptr);
    // A writer waits until no copy of the object is in motion: a copy still
    // being filled elsewhere would land after the new value and be taken for
    // current, and a copy reading the replica it overwrites would race with it.
    if (use.writes)
      for (std::size_t other = 0; other < use.object->replicas.size(); ++other) {
        const Replica &replica = use.object->replicas[other];
        if (static_cast<int>(other) == space) {
          if (replica.readers_in_flight() > 0 || (space == 0 && replica.filling())) blocked = true;
        } else if (other == 0 ? replica.filling() || replica.readers_in_flight() > 0 : replica.pinned()) {
          blocked = true;
        }
      }
  }
  check_lenders(uses, aliases, space, blocked);
  if (blocked) return PlanOutcome::Blocked;

  if (space == 0) {
    for (ObjectUse &use : uses) {
      Replica &host = use.object->replicas[0];
      if (host.filling())
        blocked = true;
      else if (use.reads && !host.holds_value() && use.object->dirty_space != 0) {
        write_back(*use.object);
        blocked = true;
      }
    }
    if (blocked) return PlanOutcome::Blocked;
    claim_writes(uses, space);
    return PlanOutcome::Ready; // host workers find host addresses themselves (host_addresses)
  }

  // An accelerator. First, can every missing value be fetched now?
  std::size_t total = 0;
  for (ObjectUse &use : uses) {
    DataObject &object = *use.object;
    total += cache(space).pool().footprint(object.storage_bytes());
    // Being evicted from here: its replica (and block) is busy until the
    // write-back ends; then it is fetched again like any other.
    if (object.replicas[space].doomed()) blocked = true;
    if (object.replicas[space].holds_value() || !use.reads) continue;
    int source = object.dirty_space;
    if (source != 0 && !device(space).can_copy_from_device(source)) {
      write_back(object); // through the host, then
      blocked = true;
    } else if (object.replicas[source].filling()) {
      blocked = true;
    }
  }
  if (blocked) return PlanOutcome::Blocked;
  if (total > cache(space).capacity())
    fatal_for_task(task.label, task.file, task.line,
                   "needs " + std::to_string(total) + " bytes on " + device(space).name() +
                       ", more than its cache holds (" + std::to_string(cache(space).capacity()) +
                       " bytes; raise CSS_GPU_MEMORY or use smaller blocks)");

  // Pin what is already there so that making room cannot evict it, the
  // copies that lend bytes to this task's included (until their alias
  // copies, which read them, are ordered).
  for (ObjectUse &use : uses)
    if (use.object->replicas[space].holds_value()) use.object->replicas[space].pin_for_task();
  const std::vector<DataObject *> lenders = lenders_of(aliases);
  for (DataObject *lender : lenders)
    lender->replicas[space].pin_for_task();

  std::vector<std::pair<DataObject *, DeviceBlock>> allocated;
  bool waiting = false;
  for (ObjectUse &use : uses) {
    DataObject &object = *use.object;
    if (object.replicas[space].holds_value()) continue;
    std::optional<DeviceBlock> block = cache(space).reserve(object);
    if (!block) {
      // Room for what it needs now (an extent, or its span); where not even
      // eviction makes room for a new extent, for a block of its own.
      const std::size_t bytes = cache(space).reservation_bytes(object);
      if (make_room(space, bytes, waiting))
        block = cache(space).reserve(object);
      else if (!waiting && bytes > object.storage_bytes() && make_room(space, object.storage_bytes(), waiting))
        block = cache(space).reserve(object, SoftwareCache::Placement::OwnBlock);
    }
    if (!block) {
      for (auto &[owner, got] : allocated)
        cache(space).release(*owner, got);
      for (ObjectUse &undo : uses)
        if (undo.object->replicas[space].holds_value()) undo.object->replicas[space].unpin_for_task();
      for (DataObject *lender : lenders)
        lender->replicas[space].unpin_for_task();
      // Nothing left to give up and nothing on its way out: the copies
      // that lend bytes, pinned beside the task's own, hold the room (a
      // whole-buffer task after tasks on each of its tiles, the tiles newer
      // on the device, in a cache too small or too cut up for both: it
      // waited forever, found by a helper's sweep, 2026-11-29). The task's
      // values go through the host instead, as without device aliases: the
      // lenders go home if they must (their write-backs' ends retry the
      // task), then give up their copies, and the next plan fetches the
      // task's objects whole.
      if (!waiting && !lenders.empty()) {
        bool lenders_busy = false;
        go_through_host(uses, aliases, space, lenders_busy);
        // Nothing would wake it: planned again at once, without lenders.
        if (!lenders_busy) return this->plan(task, space, plan, Lending::Refused);
      }
      // Nothing left to give up but the task's own copies, which hold the
      // free room apart (a 64 KiB cache with one of the task's two 32 KiB
      // objects in the middle of it: a copy-back of a renamed value waited
      // forever, about 1 run in 20 of a helper's nested-task program under
      // wb). They go too, home first where they are the newest value, and
      // the task is placed afresh. Not while other tasks or copies pin
      // replicas here: their ends make room and retry the task.
      if (!waiting && lending == Lending::Allowed && !cache(space).any_pinned()) {
        bool own_copies_going = false, dropped = false;
        for (ObjectUse &use : uses) {
          DataObject &object = *use.object;
          if (!object.replicas[space].holds_value() || object.replicas[space].pinned()) continue;
          if (object.dirty_space == space) {
            write_back(object);
            own_copies_going = true;
          }
          invalidate_replica(object, space);
          dropped = true;
        }
        if (dropped && !own_copies_going) return this->plan(task, space, plan, Lending::Refused);
      }
      return PlanOutcome::Blocked;
    }
    allocated.emplace_back(&object, *block);
  }

  // Commit.
  plan.reads_fills = false;
  for (std::size_t i = 0; i < uses.size(); ++i) {
    ObjectUse &use = uses[i];
    DataObject &object = *use.object;
    Replica &replica = object.replicas[space];
    auto fresh =
        std::find_if(allocated.begin(), allocated.end(), [&](auto &p) { return p.first == &object; });
    if (fresh == allocated.end()) {
      Stats::add(stats_.cache_hits, 1);
      plan.reads_fills |= replica.filling();
      cache(space).touch(object);
      if (host_writes_ && use.reads && object.replicas[0].holds_value())
        host_writes_->check_reuse(task, object, device(space).name());
      continue;
    }
    install_replica(object, space, fresh->second);
    replica.pin_for_task();
    const AliasSources &alias = aliases[i];
    if (alias.container) {
      Stats::add(stats_.cache_misses, 1);
      plan.before.push_back(start_alias_copy(use.object, *alias.container, space, false));
      continue;
    }
    int source = object.dirty_space;
    if (source == 0) source = clean_peer_source(object, space);
    std::vector<DataObject *> lending = outermost(alias.parts);
    const bool covered = covered_by(object, lending);
    // A reader that copies from the host anyway takes from the device only
    // the parts whose bytes host memory does not hold yet: newer here, or
    // on their way home (a write-back under way makes a part look clean
    // before its bytes have landed). Many small clean pieces would be as
    // many small copies. Chosen again among those: a clean part left out
    // may have hidden a newer one inside it.
    if (!covered && !use.writes) {
      std::vector<DataObject *> newer;
      std::copy_if(alias.parts.begin(), alias.parts.end(), std::back_inserter(newer),
                   [&](const DataObject *part) {
                     return part->dirty_space == space || part->replicas[0].state() != ReplicaState::Valid;
                   });
      lending = outermost(std::move(newer));
    }
    const bool whole_value = use.reads && !covered && object.replicas[source].holds_value();
    if (whole_value) {
      Stats::add(stats_.cache_misses, 1);
      plan.before.push_back(start_copy(use.object, source, space));
    }
    // After the copy of the whole value (on the same in-order stream), the
    // newer bytes the device holds of it. A reader's copy is not the task's
    // alone: it stays Filling until the last of them has landed, so that
    // no other device takes it for a settled source before (clean_peer_source).
    const bool shared_fill = !use.writes && !lending.empty();
    if (shared_fill) {
      if (whole_value)
        plan.before.back().lands = false; // the copy of the whole value began the fill
      else
        replica.begin_fill();
    }
    for (DataObject *part : lending)
      plan.before.push_back(start_alias_copy(use.object, *part, space, true));
    if (shared_fill) plan.before.back().lands = true;
  }
  // The lenders are read by their alias copies from now on; the parts a
  // writer takes over are given up (freed when those copies end), those a
  // reader was filled from stay as they are.
  for (DataObject *lender : lenders)
    lender->replicas[space].unpin_for_task();
  for (std::size_t i = 0; i < uses.size(); ++i)
    if (uses[i].writes)
      for (DataObject *part : aliases[i].parts)
        absorb(*part, space);
  if (policy_ != CachePolicy::WriteBack) {
    for (ObjectUse &use : uses) {
      if (!use.copy_out) continue;
      Replica &replica = use.object->replicas[space];
      replica.add_reader();
      ++transfers_in_flight_;
      // It copies the value this task writes: the object's next version.
      // The host does not begin filling: the value does not exist yet, and
      // the host copy goes Absent when the task is dispatched (claim_writes).
      Transfer transfer{.object = use.object,
                        .from_space = space,
                        .to_space = 0,
                        .source = replica.storage().address,
                        .destination = use.object->host,
                        .version = use.object->version + 1,
                        .source_object = nullptr,
                        .into_part = false};
      stats_.count_transfer(space, 0, transfer.payload_bytes());
      plan.after.push_back(std::move(transfer));
    }
  }
  claim_writes(uses, space);
#ifdef GPUSS_CHECK_INVARIANTS
  for (const ObjectUse &use : uses)
    check(*use.object);
#endif
  plan.addresses.clear();
  for (const BoundAccess &access : task.accesses) {
    const DataObject *object = access.object.get();
    plan.addresses.push_back(object ? object->replicas[space].storage().address +
                                          (access.region.base - object->shape.base)
                                    : empty_access_address(task, access, [space](const DataObject &other) {
                                        return other.replicas[space].storage().address;
                                      }));
  }
  return PlanOutcome::Ready;
}

int Directory::clean_peer_source(const DataObject &object, int space) const {
  // A value that is in host memory and also, settled, on a device this one
  // reads directly (a block loaded ahead there, a panel another GPU holds):
  // copying it over the peer link leaves the host's links, which all GPUs
  // share, to data that is only in host memory.
  for (std::size_t other = 1; other < object.replicas.size(); ++other) {
    const Replica &replica = object.replicas[other];
    if (static_cast<int>(other) != space && replica.state() == ReplicaState::Valid &&
        device(space).can_copy_from_device(static_cast<int>(other)))
      return static_cast<int>(other);
  }
  return 0;
}

void Directory::claim_writes(const std::vector<ObjectUse> &uses, int space) {
  // From dispatch on, the value a writer will produce is the current one:
  // other copies are obsolete (every reader of the old value has finished,
  // or it would be a predecessor), so nothing may write them back over it.
  for (const ObjectUse &use : uses) {
    if (!use.writes) continue;
    DataObject &object = *use.object;
    object.dirty_space = space;
    for (std::size_t other = 0; other < object.replicas.size(); ++other) {
      if (static_cast<int>(other) == space) continue;
      if (other == 0)
        object.replicas[0].supersede();
      else
        invalidate_replica(object, static_cast<int>(other));
    }
  }
}

void Directory::invalidate_replica(DataObject &object, int space) {
  Replica &replica = object.replicas[space];
  if (replica.state() == ReplicaState::Absent) return;
  if (replica.pinned()) {
    // In use (the source of a copy, say): unusable now, freed when released.
    replica.supersede();
    cache(space).remove(object);
  } else {
    drop_replica(object, space);
  }
}

bool Directory::drop_if_released(DataObject &object, int space) {
  Replica &replica = object.replicas[space];
  if (space == 0 || !replica.doomed() || replica.pinned()) return false;
  drop_replica(object, space);
  return true;
}

void Directory::forget_device_copies(const std::vector<DataObjectRef> &objects) {
  for (const DataObjectRef &object : objects)
    for (std::size_t space = 1; space < object->replicas.size(); ++space)
      invalidate_replica(*object, static_cast<int>(space));
}

void Directory::on_transfer_complete(const Transfer &transfer) {
  DataObject &object = *transfer.object;
  --transfers_in_flight_;
  if (transfer.to_space == 0 && transfer.from_space != 0 && write_backs_in_flight_[transfer.from_space] > 0)
    --write_backs_in_flight_[transfer.from_space];
  Replica &destination = object.replicas[transfer.to_space];
  // A replica invalidated while it filled (a load, when a barrier then
  // forgot device copies) holds an obsolete value: it is freed, not used;
  // so is a copy home of a value a task has since replaced. A device's
  // fetch is always of the value it is to hold: the task that uses it may
  // have written a newer one already (its completion comes first).
  const bool current = transfer.version == object.version;
  // An alias copy into a part of the destination is one of several that
  // fill it: a writer's copy was made valid when it was attached, and a
  // reader's lands with the last of them.
  if (transfer.lands) destination.land(transfer.to_space != 0 || current);
  if (transfer.to_space == 0 && object.dirty_space == transfer.from_space && current) object.dirty_space = 0;
  if (host_writes_ && transfer.to_space == 0)
    host_writes_->host_written(object.shape, current ? &object : nullptr);
  DataObject &read = transfer.reads_from();
  read.replicas[transfer.from_space].remove_reader();
  drop_if_released(read, transfer.from_space);
  drop_if_released(object, transfer.to_space);
}

void Directory::on_task_complete(Task &task, int space) {
  std::vector<ObjectUse> uses = uses_of(task, space);
  forget_expected_uses(task, uses);
  for (ObjectUse &use : uses) {
    DataObject &object = *use.object;
    if (space != 0 && object.replicas[space].task_pins() > 0) object.replicas[space].unpin_for_task();
    if (use.writes && host_writes_)
      host_writes_->host_written(object.shape); // host memory, or its copy there
    if (drop_if_released(object, space)) continue;
    if (!use.writes) continue;
    // Write-invalidate: the other copies were invalidated when the task was
    // dispatched (claim_writes); the executing space holds the value now.
    // A copy home that started before (none should) carries an older value:
    // its end must not make the host current again (on_transfer_complete).
    object.replicas[space].record_write();
    if (space != 0) object.replicas[0].supersede();
    object.dirty_space = space;
    ++object.version;
  }
}

void Directory::complete(const Completion &completion) {
  if (completion.task) on_task_complete(*completion.task, completion.space);
  for (const Transfer &transfer : completion.transfers)
    on_transfer_complete(transfer);
  if (completion.task) {
    release_after_task(*completion.task, completion.space);
    if (clean_while_idle_) clean_while_idle(completion.space);
  }
#ifdef GPUSS_CHECK_INVARIANTS
  if (completion.task)
    for (const BoundAccess &access : completion.task->accesses)
      if (access.object) check(*access.object);
  for (const Transfer &transfer : completion.transfers)
    check(*transfer.object);
#endif
}

void Directory::check(const DataObject &object) const {
  // The rules between operations. A violation is a directory bug that would
  // show later as a stale value read or a copy lost: stop at once, naming it.
  auto fail = [&](const std::string &rule) {
    std::string states;
    for (std::size_t space = 0; space < object.replicas.size(); ++space)
      states += " space " + std::to_string(space) + ": " + to_string(object.replicas[space].state());
    fatal("directory invariant broken for object " + std::to_string(object.id) + ": " + rule + " (dirty_space " +
          std::to_string(object.dirty_space) + ";" + states + ")");
  };
  const int dirty = object.dirty_space;
  if (dirty != 0) {
    // The value exists only in the dirty space (or arrives there first).
    if (!object.replicas[dirty].holds_value()) fail("the dirty space does not hold the value");
    if (object.replicas[0].holds_value()) fail("the host holds a value that a device has made obsolete");
  }
  for (std::size_t space = 1; space < object.replicas.size(); ++space) {
    const Replica &replica = object.replicas[space];
    const bool stored = static_cast<bool>(replica.storage());
    if ((replica.state() == ReplicaState::Absent) == stored) fail("device storage and state disagree");
    if (replica.state() == ReplicaState::Stale && !replica.pinned()) fail("a stale replica nobody uses is kept");
    const bool listed = cache(static_cast<int>(space)).contains(object);
    if (listed != replica.holds_value()) fail("the cache lists a replica without the value, or misses one");
    if (evicting_[space].contains(&object) && !replica.doomed())
      fail("a replica evicted dirty is kept for something else than its write-back");
  }
}

void Directory::release_after_task(Task &task, int space) {
  if (space == 0 || policy_ != CachePolicy::NoCache) return;
  for (ObjectUse &use : uses_of(task, space)) {
    Replica &replica = use.object->replicas[space];
    if (!replica.pinned() && use.object->dirty_space != space) drop_replica(*use.object, space);
  }
}

bool Directory::flush_to_host(const std::vector<DataObjectRef> &objects) {
  bool done = true;
  for (const DataObjectRef &object : objects) {
    if (object->dirty_space != 0) write_back(*object);
    if (object->dirty_space != 0 || object->replicas[0].filling()) done = false;
  }
  return done;
}

void Directory::retire(DataObject *object) {
  // Nothing can read a retired object again: a renamed value is dead, and
  // user memory was brought up to date (barrier, finish) before originals go.
  if (!object->renamed && object->dirty_space != 0)
    fatal("directory: user memory of object " + std::to_string(object->id) + " retired while stale");
  object->dirty_space = 0;
  for (std::size_t space = 1; space < object->replicas.size(); ++space)
    if (object->replicas[space].state() != ReplicaState::Absent || cache(static_cast<int>(space)).contains(*object))
      drop_replica(*object, static_cast<int>(space));
  if (object->in_alias_index) {
    auto [first, last] = aliases_.entries().equal_range(object->shape.base);
    for (auto it = first; it != last; ++it)
      if (it->second == object) {
        aliases_.erase(it);
        break;
      }
  }
  // CUDA keeps the registration of freed memory: a later allocation at the
  // same addresses would be copied from the old pages (PageLocks.hpp).
  if (object->renamed && page_locks_) page_locks_->forget(object->host, object->renamed_bytes);
  if (host_writes_) host_writes_->forget(*object);
  objects_.destroy(object);
}

} // namespace gpuss
