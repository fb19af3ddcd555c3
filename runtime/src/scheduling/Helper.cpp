#include "scheduling/Helper.hpp"
#include "devices/ExternalTasks.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "support/Fatal.hpp"
#include "support/StatsCounters.hpp"

#include <algorithm>

namespace gpuss {

Helper::Helper(HelperParts parts)
    : config_(parts.config), queues_(parts.queues), directory_(parts.directory), graph_(parts.graph),
      devices_(std::move(parts.devices)), cpus_(parts.cpus), policy_(parts.policy), stats_(parts.stats),
      live_tasks_(parts.live_tasks), stop_(parts.stop), external_context_(parts.external_context),
      urgent_waiting_(parts.urgent_waiting) {
  // Tasks queued behind the running ones let a worker start its next task
  // without waiting for the helper, and let the helper hand over several
  // per wake-up. Priorities still hold: a high-priority task goes ahead of
  // the normal ones queued there, taking back the place of one of them.
  host_slots_ = cpus_ ? host_places_per_worker * cpus_->count() : 0;
  staged_.assign(devices_.size() + 1, 0);
  staged_unlocked_.assign(devices_.size() + 1, 0);
  staged_copying_in_.assign(devices_.size() + 1, 0);
  staged_fetch_bytes_.assign(devices_.size() + 1, 0);
  queued_seconds_.assign(devices_.size() + 1, 0.0);
  loads_in_flight_.assign(devices_.size() + 1, 0);
  full_for_loads_.assign(devices_.size() + 1, false);
}

Helper::~Helper() {
  join();
}

void Helper::start() {
  thread_ = std::jthread([this] { run(); });
}

void Helper::join() {
  if (!thread_.joinable()) return;
  queues_.signal.notify();
  thread_ = {};
  // An executor's thread may still be returning from the report of the last
  // external task (ExternalTask::complete) when every task is done.
  while (external_completing_.load(std::memory_order_acquire) != 0)
    std::this_thread::yield();
}

void Helper::run() {
  release_hooks::Exemption exempt; // a runtime thread: frees only what the runtime owns
  for (;;) {
    std::uint32_t ticket = queues_.signal.prepare();
    bool progress = drain_queues();
    if (!progress) progress = open_gate_if_idle();
    // Room, readiness and data only change through what drain_queues just
    // did, so without progress there is nothing new to place.
    if (progress) dispatch();
    if (stop_.load(std::memory_order_acquire) && live_tasks_.count() == 0 &&
        !directory_.transfers_in_flight() && flushes_.empty() && queues_.completions.empty())
      return;
    if (!progress) queues_.signal.wait(ticket, config_.spin_rounds);
  }
}

bool Helper::drain_queues() {
  bool progress = false;
  // First: the master pushes a ranking's expected order and loads ahead
  // before it raises `ranked`, so this same pass drains them too, and
  // the ranking is whole once `rankings` counts it.
  if (queues_.ranked.exchange(false, std::memory_order_acq_rel)) {
    queues_.ranking.store(false, std::memory_order_release);
    queues_.unranked.store(false, std::memory_order_release);
    for (std::vector<TaskRef> &ranked : queues_.timed_rankings.drain()) {
      timed_ranks_.adopt(std::move(ranked));
      kind_newly_timed_ = true; // kinds timed before this barrier weigh its ranks at once
    }
    // Tasks already waiting were queued before they had ranks.
    sort_by_ranks();
    Stats::add(stats_.rankings, 1);
    progress = true;
  }
  for (Completion &completion : queues_.completions.drain()) {
    on_completion(completion);
    progress = true;
  }
  // Retiring an object, like finishing a flush (which drops device copies),
  // frees device memory that a blocked task may be waiting for.
  for (DataObject *object : queues_.retired.drain()) {
    directory_.retire(object);
    progress = true;
  }
  for (std::vector<TaskRef> &ranked : queues_.expected_orders.drain()) {
    directory_.expect_order(ranked);
    count_sets(ranked);
    progress = true;
  }
  for (TaskRef &task : queues_.ready.drain()) {
    make_ready(std::move(task));
    progress = true;
  }
  for (LoadOrder &order : queues_.load_orders.drain()) {
    // A barrier's ranking: it replaces what is left of an earlier one.
    load_order_.assign(std::make_move_iterator(order.loads.begin()),
                       std::make_move_iterator(order.loads.end()));
    link_serves_ranks_ = order.link_serves_ranks;
    std::fill(full_for_loads_.begin(), full_for_loads_.end(), false);
    progress = true;
  }
  if (kind_newly_timed_ && !timed_ranks_.empty()) {
    rank_by_time();
    progress = true;
  }
  for (auto &request : queues_.flushes.drain())
    accept_flush(std::move(request));
  if (std::erase_if(flushes_, [&](const std::shared_ptr<FlushRequest> &request) {
        return try_finish_flush(*request);
      }) > 0)
    progress = true;
  return progress;
}

void Helper::accept_flush(std::shared_ptr<FlushRequest> request) {
  if (request->while_tasks_run)
    for (const DataObjectRef &object : request->objects) {
      object->write_back_when_final = true;
      // relaxed: the master added its users before it sent the request,
      // and only this thread subtracts.
      if (object->unfinished_users.load(std::memory_order_relaxed) == 0) directory_.write_back_final(*object);
    }
  send_copy_orders();
  flushes_.push_back(std::move(request));
}

bool Helper::try_finish_flush(FlushRequest &request) {
  if (request.while_tasks_run && live_tasks_.count() != 0) return false;
  const bool home = directory_.flush_to_host(request.objects);
  send_copy_orders();
  if (!home) return false;
  directory_.forget_device_copies(request.objects);
  for (const DataObjectRef &object : request.objects)
    object->write_back_when_final = false;
  load_order_.clear(); // every task has finished: whatever is left is not needed
  request.done.store(true, std::memory_order_release);
  request.done.notify_all();
  return true;
}

void Helper::release_uses(const Task &task) {
  // Counted only with accelerators (RuntimeImpl::enqueue), as is this.
  if (devices_.empty()) return;
  for (const BoundAccess &access : task.accesses) {
    if (!access.object) continue;
    DataObject &object = *access.object;
    if (object.unfinished_users.fetch_sub(1, std::memory_order_relaxed) == 1)
      directory_.last_use_ended(object);
  }
  send_copy_orders();
}

bool Helper::goes_first(Task &task) const {
  if (task.high_priority) return true;
  // A task that several others wait for is, in blocked factorisations, the
  // panel: potrf, trsm. Running it ahead of the updates already queued lets
  // the next step start while this one finishes (lookahead) instead of
  // leaving devices idle at every step's critical path. Updates have one
  // successor, the next update of the same block.
  return config_.fan_out_first && !devices_.empty() && TaskGraph::successor_count(task) >= 2;
}

void Helper::make_ready(TaskRef task) {
  if (task->ready_time < 0) task->ready_time = external_context_.now();
  if (task->executor) {
    external_ready_.push_back(std::move(task));
    return;
  }
  if (!set_allowed(*task)) {
    hold(std::move(task));
    return;
  }
  bool accelerators =
      task->device_kind == CSS_DEVICE_CUDA || (task->kind == TaskKind::CopyBack && !devices_.empty());
  if (!devices_.empty()) directory_.note_ready(*task);
  bool first = goes_first(*task);
  task->goes_first = first;
  std::deque<TaskRef> &queue = ready_[first ? 0 : 1][accelerators ? 1 : 0];
  // In rank order (CSS_CRITICAL_PATH), FIFO among equals: after the last
  // task of at least its rank. The list stays sorted (a barrier's ranking
  // sorts it again), so a binary search finds the place; a bounded walk from
  // the back left a task behind lower ranks once more than the bound waited
  // (out of core, step 0's updates of a whole matrix).
  const std::uint32_t rank = task->rank.load(std::memory_order_relaxed);
  auto at = std::upper_bound(queue.begin(), queue.end(), rank, [](std::uint32_t r, const TaskRef &queued) {
    return r > queued->rank.load(std::memory_order_relaxed);
  });
  queue.insert(at, std::move(task));
  ++ready_count_;
  Stats::raise_to(stats_.max_ready, ready_count_);
}

void Helper::on_completion(Completion &completion) {
  if (completion.released) {
    // DirectRelease: the worker completed it; only its inbox place is ours.
    ++host_slots_;
    return;
  }
  directory_.complete(completion);
  send_copy_orders();
  if (!completion.task)
    for (const Transfer &transfer : completion.transfers)
      if (transfer.to_space != 0) --loads_in_flight_[transfer.to_space];
  if (!completion.task) return;

  Task &task = *completion.task;
  int space = completion.space;
  if (space == 0) {
    if (!task.executor) ++host_slots_; // an external task took no place in the host inbox
  } else {
    --staged_[space];
    if (task.staged_unlocked) --staged_unlocked_[space];
    if (task.staged_copying_in) --staged_copying_in_[space];
    staged_fetch_bytes_[space] -= task.staged_fetch_bytes;
    // What was added at staging comes off, not today's estimate. Durations
    // are learned as tasks finish, and on a GPU a kernel's time depends on
    // what shares the device with it; subtracting the newer estimate let
    // each device's queue drift by its own amount (on four H100s, out of
    // core: 66 to 154 ms left in queues of empty devices), and placement,
    // which compares the queues, sent most tasks to the device that had
    // drifted least (36,044 tasks to one GPU, 16,885 to another;
    // performance.md, 2026-11-28). An empty device has an empty queue.
    set_queued_seconds(space, staged_[space] == 0 ? 0.0 : queued_seconds_[space] - task.queued_estimate);
  }
  learn_duration(task, space);
  if (task.counted_in_set) {
    --unfinished_in_set_[static_cast<std::size_t>(task.working_set)];
    advance_lowest_set();
  }
  release_uses(task);
  for (TaskRef &successor : graph_.complete(task))
    make_ready(std::move(successor));
  mark_completed(task, stats_, live_tasks_);
}

namespace {
bool ranks_higher(const Task &a, const Task &b) {
  return a.rank.load(std::memory_order_relaxed) > b.rank.load(std::memory_order_relaxed);
}
} // namespace

bool Helper::eligible(const Task &task, int space) const {
  bool host_workers = cpus_ && cpus_->count() > 0;
  // A copy-back is a copy: every worker can make it where the renamed value
  // is, and on an accelerator that avoids bringing the value to a host
  // buffer only to copy it again into user memory.
  if (task.kind == TaskKind::CopyBack) return space != 0 || host_workers;
  if (space == 0) return task.device_kind != CSS_DEVICE_CUDA && host_workers;
  DeviceKind kind = devices_[space - 1]->kind();
  return task.device_kind == CSS_DEVICE_CUDA ? kind == DeviceKind::Cuda : kind == DeviceKind::Simulated;
}

bool Helper::has_room(int space) const {
  if (space == 0) return host_slots_ > 0;
  // A first run: a task staged while its inputs were not page-locked has its
  // worker lock them (at 5-20 GB/s) before copying, and commands staged
  // behind it wait. Such tasks take extra places, up to the depth again, so
  // that the GPU keeps about prefetch_depth tasks whose copies are quick
  // (measured on one H100, 2026-11-25: 38.6-40.8 TFLOP/s staging 6 ahead,
  // 45.0 staging 12; performance.md). Locked data gives the plain depth.
  unsigned extra = std::min(config_.prefetch_depth, staged_unlocked_[space]);
  return staged_[space] < 1 + config_.prefetch_depth + extra;
}

void Helper::set_queued_seconds(int space, double seconds) {
  queued_seconds_[space] = std::max(0.0, seconds);
  stats_.device_queued_ns[static_cast<std::size_t>(space - 1)].store(
      static_cast<std::uint64_t>(queued_seconds_[space] * 1e9), std::memory_order_relaxed);
}

double Helper::estimate_seconds(const Task &task, int space) const {
  int kind = space == 0 ? 0 : 1;
  auto it = durations_.find({task.label, kind});
  return it == durations_.end() ? 0.0 : it->second;
}

void Helper::learn_duration(const Task &task, int space) {
  double seconds = task.end_time - task.start_time;
  if (seconds <= 0) return;
  int kind = space == 0 ? 0 : 1;
  auto [it, inserted] = durations_.try_emplace({task.label, kind}, seconds);
  if (!inserted) it->second = 0.8 * it->second + 0.2 * seconds;
  kind_newly_timed_ |= inserted;
}

void Helper::sort_by_ranks() {
  for (auto &by_kind : ready_)
    for (std::deque<TaskRef> &queue : by_kind)
      std::stable_sort(queue.begin(), queue.end(),
                       [](const TaskRef &a, const TaskRef &b) { return ranks_higher(*a, *b); });
}

void Helper::rank_by_time() {
  kind_newly_timed_ = false;
  // A task that may run on a device weighs what its kind took there; one
  // timed only on the host, what it took there.
  auto seconds = [&](const Task &task) -> std::optional<double> {
    for (int kind : {1, 0})
      if (auto it = durations_.find({task.label, kind}); it != durations_.end()) return it->second;
    return std::nullopt;
  };
  if (!timed_ranks_.rerank(seconds)) return; // nothing timed yet, or nothing left: the ranks stand
  sort_by_ranks();
  // The master planned the loads in the counted ranks' order (LoadAheadPlan.cpp).
  std::stable_sort(load_order_.begin(), load_order_.end(),
                   [](const LoadAhead &a, const LoadAhead &b) { return ranks_higher(*a.reader, *b.reader); });
  Stats::add(stats_.timed_rankings, 1);
}

bool Helper::starving(int space) const {
  // About to run out of staged work: one task left, or none when staging is
  // off. Until then a device keeps waiting for tasks whose data it holds.
  unsigned low_water = std::max(1u, (config_.prefetch_depth + 2) / 2);
  return staged_[space] < low_water;
}

Helper::Placement Helper::start_external(const TaskRef &task) {
  // Its data must be current in host memory: a value left dirty on a device
  // goes home first (plan issues the write-back and says Blocked until it
  // lands), and a writer drops the devices' copies of what it overwrites.
  if (!devices_.empty()) {
    TaskPlan plan;
    const PlanOutcome outcome = directory_.plan(*task, 0, plan);
    send_copy_orders();
    if (outcome == PlanOutcome::Blocked) return Placement::Blocked;
  }
  task->space = 0;
  task->dispatch_time = task->start_time = external_context_.now();
  std::vector<void *> addresses;
  host_addresses(*task, addresses);
  task->executor->start(ExternalTask(task, std::move(addresses), &external_context_, &external_completing_));
  return Placement::Dispatched;
}

Helper::Placement Helper::place(const TaskRef &task, int only_space) {
  if (task->executor) return start_external(task);
  if (task->high_priority && eligible(*task, 0) && !has_room(0)) {
    // A normal task waiting behind a running one yields its place; it goes
    // back to the front of its ready list (re-planning it is harmless).
    TaskRef waiting;
    if (cpus_->take_back_normal(waiting)) {
      ++host_slots_;
      if (!devices_.empty()) directory_.note_ready(*waiting);
      ready_[1][0].push_front(std::move(waiting));
      ++ready_count_;
    }
  }
  if (devices_.empty()) {
    // Host memory is the only memory: nothing to plan or choose.
    if (!has_room(0)) return Placement::NoRoom;
    task->space = 0;
    --host_slots_;
    cpus_->submit(task);
    return Placement::Dispatched;
  }
  std::vector<Candidate> candidates;
  bool any_room = false;
  for (int space = 0; space <= static_cast<int>(devices_.size()); ++space) {
    if (!eligible(*task, space) || (only_space >= 0 && space != only_space)) continue;
    Candidate candidate;
    candidate.has_room = has_room(space);
    if (!candidate.has_room && !policy_.waits_for_affinity()) continue;
    any_room |= candidate.has_room;
    candidate.space = space;
    Directory::FetchEstimate fetch = directory_.estimate_fetch(*task, space);
    candidate.fetch_bytes = fetch.bytes;
    candidate.written_bytes = fetch.written_bytes;
    candidate.unlocked_bytes = fetch.unlocked_bytes;
    double bandwidth = space == 0 ? 10e9 : devices_[space - 1]->bandwidth_from(0);
    candidate.fetch_seconds = candidate.fetch_bytes / bandwidth;
    candidate.staged = space == 0 ? (host_places_per_worker * cpus_->count() - host_slots_) : staged_[space];
    candidate.queued_seconds = space == 0 ? 0.0 : queued_seconds_[space];
    candidates.push_back(candidate);
  }
  if (!any_room) return Placement::NoRoom;
  const Candidate &chosen = candidates[policy_.choose(*task, candidates)];
  if (!chosen.has_room) return Placement::Deferred;
  int space = chosen.space;
  // A first run: while the pinning service is still locking the data, a
  // task whose inputs are not locked yet gives its turn to later ones whose
  // are, unless the device is about to run dry. Its worker would lock them
  // itself, holding up every command staged behind it (PinService.hpp).
  // Where unlocked memory is copied pageable, nothing waits for the locks.
  const bool unlocked_inputs = space != 0 && chosen.unlocked_bytes > 0;
  if (unlocked_inputs && config_.pin_threads > 0 && config_.unlocked_copies != UnlockedCopies::Pageable &&
      !starving(space))
    return Placement::Deferred;

  const bool copies_in = space != 0 && chosen.fetch_bytes > 0;
  if (copies_in && (yields_link_to_loads(*task, space) || waits_for_ranks(space) ||
                    queues_long_fetch(chosen.fetch_bytes, space))) {
    Stats::add(stats_.link_yields, 1);
    return Placement::Deferred;
  }

  TaskPlan plan;
  const PlanOutcome outcome = directory_.plan(*task, space, plan);
  // Before the task: write-backs that make room or settle aliases go first
  // on their device's streams.
  send_copy_orders();
  if (outcome == PlanOutcome::Blocked) return Placement::Blocked;
  directory_.note_placed(*task); // before a worker may run it and drop its accesses
  task->space = space;
  task->dispatch_time = external_context_.now();
  if (space == 0) {
    --host_slots_;
    cpus_->submit(task);
  } else {
    ++staged_[space];
    task->staged_unlocked = unlocked_inputs;
    if (task->staged_unlocked) ++staged_unlocked_[space];
    task->staged_copying_in = copies_in;
    if (copies_in) ++staged_copying_in_[space];
    task->staged_fetch_bytes = copies_in ? chosen.fetch_bytes : 0;
    staged_fetch_bytes_[space] += task->staged_fetch_bytes;
    task->queued_estimate = estimate_seconds(*task, space);
    set_queued_seconds(space, queued_seconds_[space] + task->queued_estimate);
    const bool after_fetches = !plan.before.empty() || plan.reads_fills;
    devices_[space - 1]->submit(DeviceCommand{task, std::move(plan.addresses), std::move(plan.before),
                                              std::move(plan.after), after_fetches});
  }
  return Placement::Dispatched;
}

void Helper::count_sets(const std::vector<TaskRef> &ranked) {
  // A barrier waits for every task, so each ranking starts afresh.
  unfinished_in_set_.clear();
  for (const TaskRef &task : ranked) {
    if (task->working_set < 0 || task->completed.load(std::memory_order_relaxed)) continue;
    const auto set = static_cast<std::size_t>(task->working_set);
    if (unfinished_in_set_.size() <= set) unfinished_in_set_.resize(set + 1, 0);
    ++unfinished_in_set_[set];
    task->counted_in_set = true;
  }
  held_by_set_.assign(unfinished_in_set_.size(), {});
  held_tasks_ = 0;
  gate_widened_ = 0;
  lowest_set_ = 0;
  advance_lowest_set();
  // Tasks made ready before the ranking reached here: those of sets too far
  // ahead leave the ready lists until their set comes.
  for (auto &by_kind : ready_)
    for (std::deque<TaskRef> &queue : by_kind) {
      std::deque<TaskRef> kept;
      for (TaskRef &task : queue) {
        if (set_allowed(*task)) {
          kept.push_back(std::move(task));
          continue;
        }
        if (!devices_.empty()) directory_.note_held(*task);
        hold(std::move(task));
        --ready_count_;
      }
      queue = std::move(kept);
    }
}

bool Helper::open_gate_if_idle() {
  // Nothing runs, nothing moves, and tasks are held: the sets within reach
  // wait for something outside them (a nested task's parent, a value on its
  // way), so the gate lets one more set through rather than wait forever.
  if (held_tasks_ == 0 || directory_.transfers_in_flight() ||
      host_slots_ != host_places_per_worker * cpus_->count())
    return false;
  for (int space = 1; space <= static_cast<int>(devices_.size()); ++space)
    if (staged_[space] > 0) return false;
  ++gate_widened_;
  advance_lowest_set();
  return true;
}

void Helper::advance_lowest_set() {
  while (lowest_set_ < unfinished_in_set_.size() && unfinished_in_set_[lowest_set_] == 0)
    ++lowest_set_;
  // The sets now within reach release their held tasks, in the order they
  // became ready.
  for (std::size_t set = lowest_set_;
       set <= lowest_set_ + sets_ahead + gate_widened_ && set < held_by_set_.size(); ++set)
    for (TaskRef &task : std::exchange(held_by_set_[set], {})) {
      --held_tasks_;
      make_ready(std::move(task));
    }
}

void Helper::hold(TaskRef task) {
  held_by_set_[static_cast<std::size_t>(task->working_set)].push_back(std::move(task));
  ++held_tasks_;
}

bool Helper::set_allowed(const Task &task) const {
  return !task.counted_in_set ||
         static_cast<std::size_t>(task.working_set) <= lowest_set_ + sets_ahead + gate_widened_;
}

void Helper::dispatch_from(std::deque<TaskRef> &queue) {
  unsigned deferred = 0;
  for (auto it = queue.begin(); it != queue.end();) {
    Placement placement = place(*it);
    if (placement == Placement::NoRoom) return; // the same for every later task of this kind
    if (placement == Placement::Deferred) {
      if (++deferred == affinity_window) return;
      ++it;
      continue;
    }
    if (placement == Placement::Blocked) blocked_.push_back(*it);
    it = queue.erase(it);
    --ready_count_;
  }
}

void Helper::feed_starving_devices() {
  // A device about to run dry takes the deferred task that is cheapest to
  // move there (the oldest among equals), so waiting for affinity never
  // leaves a device idle while tasks it may run are ready.
  for (int space = 1; space <= static_cast<int>(devices_.size()); ++space) {
    while (starving(space)) {
      std::deque<TaskRef> *from = nullptr;
      std::deque<TaskRef>::iterator cheapest;
      std::size_t cheapest_bytes = SIZE_MAX;
      for (auto &by_kind : ready_) {
        for (std::deque<TaskRef> &queue : by_kind) {
          unsigned looked = 0;
          for (auto it = queue.begin(); it != queue.end() && looked < affinity_window; ++it, ++looked) {
            if (!eligible(**it, space)) break; // a queue holds one kind of task
            // Data still to be page-locked counts as if it were eight times
            // as large: pageable or locked on the spot, it moves that much slower.
            Directory::FetchEstimate fetch = directory_.estimate_fetch(**it, space);
            std::size_t bytes = fetch.bytes + 7 * fetch.unlocked_bytes;
            if (bytes < cheapest_bytes) cheapest_bytes = bytes, cheapest = it, from = &queue;
          }
        }
        if (from) break; // tasks that go first are taken first
      }
      if (!from) break;
      TaskRef task = *cheapest;
      Placement placement = place(task, space);
      if (placement == Placement::Deferred || placement == Placement::NoRoom) break;
      if (placement == Placement::Blocked) blocked_.push_back(task);
      from->erase(cheapest);
      --ready_count_;
      if (placement == Placement::Blocked) break; // its data is on the way; retried first
    }
  }
}

void Helper::load_ahead() {
  const int spaces = static_cast<int>(devices_.size());
  for (;;) {
    drop_loads_of_placed_readers();
    if (load_order_.empty()) return;
    // The next device, in turn, with room on its fetch engine: dealing the
    // objects out spreads each block column over the devices, and locality
    // then runs each block's updates where it was loaded.
    int space = 0;
    for (int step = 0; step < spaces && space == 0; ++step) {
      int candidate = 1 + (next_load_space_ - 1 + step) % spaces;
      if (!full_for_loads_[candidate] && loads_in_flight_[candidate] < loads_per_device) space = candidate;
    }
    if (space == 0) return;
    LoadAhead load = std::move(load_order_.front());
    load_order_.pop_front();
    std::size_t keep_free = directory_.cache_capacity(space) / 4;
    const Directory::LoadOutcome outcome = directory_.load_ahead(load.object, space, keep_free);
    send_copy_orders(); // ahead of any task that will find the value there
    switch (outcome) {
    case Directory::LoadOutcome::Issued:
      ++loads_in_flight_[space];
      next_load_space_ = 1 + space % spaces;
      break;
    case Directory::LoadOutcome::NotNeeded:
      break;
    case Directory::LoadOutcome::NoRoom:
      full_for_loads_[space] = true;
      load_order_.push_front(std::move(load));
      break;
    }
  }
}

bool Helper::yields_link_to_loads(const Task &task, int space) {
  // The link into a device serves the ranks. Left to the staging depth, a
  // device stages a dozen ready tasks at once, and where each chain of the
  // graph has one ready task at a time (an LU's row swaps down each block
  // column) they come from a dozen chains: their copies queue in order on
  // the one copy engine, every chain advances at a twelfth of the link's
  // rate, and none completes until most of the data is in. One staged task
  // copying in at a time keeps the device busy while the loads ahead,
  // highest rank first, bring in one chain's data after another (one H200,
  // LU n = 49152 in left-looking order, first runs: 2.87-2.92 s against
  // 3.13; performance.md, twelfth session).
  if (!config_.ranked_fetches || !link_serves_ranks_ || staged_copying_in_[space] == 0 ||
      full_for_loads_[space])
    return false;
  drop_loads_of_placed_readers();
  return !load_order_.empty() && ranks_higher(*load_order_.front().reader, task);
}

bool Helper::waits_for_ranks(int space) const {
  // The few milliseconds while the master ranks a barrier's graph: the
  // tasks that become ready meanwhile have no ranks yet and no loads ahead
  // are planned, so the rule above cannot order them, and a device would
  // stage them all. In an LU's first run, when the first panel ended during
  // the ranking, every block column's first row-swap task (each goes first:
  // several tasks wait for it) was staged at once, their copies took the
  // link in turn, and no column was whole until 0.2 s later (one H200,
  // 2026-11-29: the first gemm at 239 ms instead of 77-106, in about a
  // third of the runs). One staged task copying in per device until the
  // ranks come.
  return config_.ranked_fetches && staged_copying_in_[space] > 0 &&
         queues_.ranking.load(std::memory_order_acquire);
}

bool Helper::queues_long_fetch(std::size_t fetch_bytes, int space) const {
  // A device's copies in go through its one copy engine in the order they
  // were issued, so a task staged behind a queue of them waits for all of
  // it, however urgent. Once a barrier has ranked the graph, loads ahead
  // and yields_link_to_loads give the link to the ranks; before, nothing
  // orders it. Where every chain of the graph has one ready task at a time
  // that copies in (an LU's row swaps down each block column), staging all
  // of them at once queued one copy per block column ahead of each chain's
  // next task: in an LU's first run, when the first panel ended while the
  // master was still submitting, 22 swap tasks' 6.6 GB went first and the
  // first block column's next swap waited 160 ms for its copy (one H200,
  // 2026-11-29, fifteenth session; 7 runs of 13 on that node). So until the
  // ranks come, a device takes a task that copies in only while what its
  // staged tasks copy in stays under CSS_FETCH_QUEUE (1 GiB, some 25 ms of
  // the link), or when it has nothing else to copy; the rest wait in the
  // ready lists, where the ranks, once they come, and later, more urgent
  // tasks can still go ahead of them. (Counted from staging until the task
  // finishes: the helper hears of nothing sooner.) Capping the queue all
  // the time cost an LU's first run 2-3% (same call) and held back 44,000
  // placements a run.
  const std::size_t queued = staged_fetch_bytes_[space];
  return config_.fetch_queue > 0 && queued > 0 && queued + fetch_bytes > config_.fetch_queue &&
         queues_.unranked.load(std::memory_order_acquire);
}

void Helper::drop_loads_of_placed_readers() {
  // Until its reader is dispatched, the value in host memory is the one the
  // reader will read: the reader may write it itself once placed (on a host
  // worker, in place), and later writers wait for the reader.
  while (!load_order_.empty() && load_order_.front().reader->space != -1)
    load_order_.pop_front();
}

void Helper::send_copy_orders() {
  for (CopyOrder &order : directory_.take_copy_orders()) {
    DeviceCommand command;
    command.before.push_back(std::move(order.transfer));
    devices_[order.executing_space - 1]->submit(std::move(command));
  }
}

void Helper::dispatch() {
  // Tasks whose data was out of reach go first: they are the oldest, and
  // letting newer tasks take the room that was made for them would livelock.
  for (std::size_t n = blocked_.size(); n > 0; --n) {
    TaskRef task = std::move(blocked_.front());
    blocked_.pop_front();
    if (place(task) != Placement::Dispatched) blocked_.push_back(std::move(task));
  }
  for (; !external_ready_.empty(); external_ready_.pop_front())
    if (start_external(external_ready_.front()) == Placement::Blocked)
      blocked_.push_back(external_ready_.front());
  for (auto &by_kind : ready_)
    for (std::deque<TaskRef> &queue : by_kind)
      dispatch_from(queue);
  feed_starving_devices();
  load_ahead();
  // relaxed: a hint for DirectRelease workers; a stale value costs at most
  // one normal task run before a high-priority one.
  urgent_waiting_.store(static_cast<unsigned>(ready_[0][0].size() + ready_[0][1].size() + blocked_.size()),
                        std::memory_order_relaxed);
}

} // namespace gpuss
