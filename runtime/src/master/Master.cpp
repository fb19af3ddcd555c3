#include "master/Master.hpp"
#include "master/LoadAheadPlan.hpp"
#include "master/OutOfCoreOrder.hpp"
#include "master/ProgramOrder.hpp"
#include "memory/PageLocks.hpp"
#include "memory/PinService.hpp"
#include "memory/RegionCheck.hpp"
#include "support/Fatal.hpp"
#include "support/StatsCounters.hpp"

#include <algorithm>
#include <cstdio>

namespace gpuss {

Master::Master(MasterParts parts)
    : config(parts.config), page_locks_(parts.page_locks), pin_service_(parts.pin_service),
      devices_(parts.devices), stats_(&parts.stats), graph_(parts.graph), queues_(parts.queues),
      tracker_(parts.tracker), live_tasks_(parts.live_tasks),
      ranking_(parts.config.critical_path && !parts.devices.empty()),
      device_cache_bytes_(parts.device_cache_bytes), context_(parts.context ? *parts.context : WorkerContext{}) {}

void Master::trace_span(const char *name, double start) const {
  context_.trace->record("master", name, start, context_.now());
}

void Master::set_releases_watched(bool watched) {
  // Page locks stay from one barrier to the next when libgpuss sees the
  // program free memory, and are undone before it goes; where it cannot,
  // they go at every barrier and wait on instead.
  unlock_at_barrier_ = page_locks_ && (config.pin_host == HostPinning::UntilBarrier || !watched);
}

void Master::validate(const css_task_desc &desc) const {
  check_task_desc(desc);
  if (desc.device_kind == CSS_DEVICE_CUDA) {
    bool any_gpu = false;
    for (const auto &device : devices_)
      any_gpu |= device->kind() == DeviceKind::Cuda;
    if (!any_gpu)
      fatal_for_task(&desc, "targets device(cuda) but no GPU is in use (none found, CSS_NUM_GPUS=0, or "
                            "CSS_SIM_DEVICES set, or libgpuss was built without CUDA)");
  } else if (!can_run_smp()) {
    fatal_for_task(&desc, "runs on the host but CSS_NUM_CPUS=0 and there are no simulated devices");
  }
}

void Master::enqueue(const TaskRef &task) {
  page_lock_user_memory(*task);
  live_tasks_.add();
  if (ranking_) critical_path_.remember(task);
  // Before the task can become ready (release_guard below publishes it), so
  // the helper's subtraction at completion always follows this addition.
  if (!devices_.empty())
    for (const BoundAccess &access : task->accesses)
      if (access.object) access.object->unfinished_users.fetch_add(1, std::memory_order_relaxed);
  graph_.note_task(*task);
  if (TaskGraph::release_guard(*task)) {
    queues_.ready.push(task);
    queues_.signal.notify();
  }
}

void Master::submit_internal(std::vector<TaskRef> &tasks) {
  for (const TaskRef &task : tasks)
    enqueue(task);
  tasks.clear();
}

void Master::submit(const css_task_desc &desc) {
  if (finished_) fatal_for_task(&desc, "submitted after the runtime finished (css_finish)");
  validate(desc);
  if (config.check_regions) region_check::check_task(desc);
  throttle_submission();
  submit_task(make_user_task(desc, tracker_.next_task_id()));
}

void Master::submit_external(const css_task_desc &desc, ExternalExecutor &executor) {
  if (finished_) fatal_for_task(&desc, "submitted after the runtime finished (css_finish)");
  // Not validate(): no worker runs it, so it needs none.
  check_task_desc(desc);
  throttle_submission();
  TaskRef task = make_user_task(desc, tracker_.next_task_id());
  task->kind = TaskKind::External;
  task->executor = &executor;
  submit_task(task);
}

void Master::submit_task(const TaskRef &task) {
  if (submitting_since_ < 0 && tracing()) submitting_since_ = context_.now();
  // The first submission since the helper took the last ranks in.
  if (ranking_ && !queues_.unranked.load(std::memory_order_relaxed))
    queues_.unranked.store(true, std::memory_order_release);
  for (const BoundAccess &access : task->accesses)
    release_hooks::watch(access.region.base, access.region.end());
  std::vector<TaskRef> created;
  tracker_.add_task(task, created);
  submit_internal(created);
  enqueue(task);
  tracker_.forget_finished_tasks_now_and_then(devices_.empty());
}

void Master::throttle_submission() {
  // A master that runs far ahead holds every pending task (about 1.2 KB
  // each, with its tracker entries): past CSS_MAX_TASKS it waits until an
  // eighth of them have completed, so that it does not wake per task.
  if (config.max_tasks == 0 || live_tasks_.count() < config.max_tasks) return;
  // Counted as the wait starts: a reader of the stats (a test holding the
  // tasks until the master waits) sees it while it lasts.
  Stats::add(stats_->submit_waits, 1);
  live_tasks_.wait_until_at_most(config.max_tasks - std::max<std::uint64_t>(1, config.max_tasks / 8));
}

void Master::page_lock_user_memory(const Task &task) {
  // User memory is page-locked here, ahead of the copies. A renamed buffer
  // is left to the GPU worker that copies it home, if one does: page-locking
  // memory never touched takes 12 ms for 32 MB and holds up every CUDA call
  // meanwhile, and the master doing it at a barrier's copy-backs stalled all
  // GPUs at once (performance.md). Host tasks lock nothing: only copies to
  // and from GPUs are faster from locked pages, and a GPU task that uses the
  // same memory later locks it at its own submit.
  // An external task's data (an MPI transfer's) comes home from a GPU, or
  // goes to one next: locked, those copies and the network's run at pinned speed.
  bool may_run_on_a_gpu = task.device_kind == CSS_DEVICE_CUDA || task.kind == TaskKind::CopyBack ||
                          task.kind == TaskKind::External;
  if (!page_locks_ || !may_run_on_a_gpu) return;
  // The pinning service locks it in the background, in the order tasks
  // will need it (PinService.hpp): submitting never waits for a lock.
  // Without it (CSS_PIN_THREADS=0), the GPU worker that copies it locks it.
  if (!pin_service_) return;
  for (const BoundAccess &access : task.accesses)
    if (access.object && !access.object->renamed)
      pin_service_->want(access.object->host, access.object->shape.span(), static_cast<std::int64_t>(task.id));
}

std::shared_ptr<FlushRequest> Master::request_flush(std::vector<DataObjectRef> objects,
                                                         bool while_tasks_run) {
  if (objects.empty()) return nullptr;
  auto request = std::make_shared<FlushRequest>();
  request->objects = std::move(objects);
  request->while_tasks_run = while_tasks_run;
  queues_.flushes.push(request);
  queues_.signal.notify();
  return request;
}

void Master::wait_for(const std::shared_ptr<FlushRequest> &request) {
  if (!request) return;
  while (!request->done.load(std::memory_order_acquire))
    request->done.wait(false, std::memory_order_acquire);
}

void Master::wait_for_all() {
  live_tasks_.wait_until_at_most(0);
}

void Master::barrier() {
  if (finished_) return;
  std::vector<TaskRef> created;
  std::vector<DataObjectRef> objects;
  // Without accelerators every value is already in host memory: nothing to flush.
  tracker_.bring_home(nullptr, created, nullptr, devices_.empty() ? nullptr : &objects);
  submit_internal(created);
  if (submitting_since_ >= 0) trace_span("submit", submitting_since_);
  submitting_since_ = -1;
  const double ranking_since = tracing() ? context_.now() : 0;
  rank_unfinished_tasks();
  if (tracing()) trace_span("rank", ranking_since);
  // Sent now rather than after the last task: the values that are final
  // early (in blocked codes, most of them) go home while the rest computes,
  // so the barrier does not end with every result copied at once.
  std::shared_ptr<FlushRequest> request;
  if (config.early_write_back) request = request_flush(std::move(objects), true);
  wait_for_all();
  if (!config.early_write_back) request = request_flush(std::move(objects), false);
  wait_for(request);
  tracker_.forget_tasks();
  if (unlock_at_barrier_) {
    if (pin_service_) pin_service_->clear();
    page_locks_->forget_all();
  }
}

void Master::rank_unfinished_tasks() {
  // The master waits in the barrier from here on, so the graph is complete
  // (CriticalPath.hpp).
  if (!ranking_) return;
  // Until the helper takes the ranks in (Helper::waits_for_ranks).
  queues_.ranking.store(true, std::memory_order_release);
  std::vector<TaskRef> ranked = critical_path_.rank_all();
  if (ranked.empty()) {
    queues_.ranking.store(false, std::memory_order_release);
    queues_.unranked.store(false, std::memory_order_release);
    return;
  }
  // Out of core, the devices work through the data a working set at a time
  // (OutOfCoreOrder.hpp).
  std::size_t working_sets = 0;
  if (config.ooc_order && config.cache_policy != CachePolicy::NoCache && device_cache_bytes_ > 0) {
    working_sets = rank_out_of_core(ranked, device_cache_bytes_);
    Stats::raise_to(stats_->working_sets, working_sets);
  }
  // In core, a graph that no task holds up, or one whose program already
  // runs the critical path first, goes in the program's order
  // (ProgramOrder.hpp).
  bool program_ordered = false, wide = false;
  if (working_sets == 0 && config.program_order != ProgramOrder::Never) {
    const std::size_t executors = devices_.size() + config.num_cpus;
    wide = every_rank_is_wide(ranked, program_order_width * executors);
    if (config.program_order == ProgramOrder::Always || wide || critical_path_comes_first(ranked))
      program_ordered = rank_in_program_order(ranked);
    if (program_ordered) Stats::add(stats_->program_ordered, 1);
  }
  // Ranks of the critical path, counted in tasks: the helper weighs them
  // again as it learns how long each kind of task takes (TimedRanks.hpp).
  // Any other order it is to keep (an empty list says so).
  if (config.rank_by_time) {
    const bool critical_path_ranks = working_sets == 0 && !program_ordered;
    queues_.timed_rankings.push(critical_path_ranks ? ranked : std::vector<TaskRef>{});
  }
  // The order the ranked tasks are expected to run in tells the devices'
  // caches which data is needed soonest (CSS_EVICTION=next-use), and the
  // helper which working set each task is in.
  if ((config.eviction == Eviction::NextUse || working_sets > 0) &&
      config.cache_policy != CachePolicy::NoCache)
    queues_.expected_orders.push(ranked);
  // nocache keeps no data on the devices between tasks: nothing to load ahead.
  const bool loading_ahead = config.load_ahead && config.cache_policy != CachePolicy::NoCache;
  if (loading_ahead || pin_service_) {
    bool cuda = false, simulated = false;
    for (const auto &device : devices_)
      (device->kind() == DeviceKind::Cuda ? cuda : simulated) = true;
    std::vector<LoadAhead> loads = plan_loads_ahead(ranked, tracker_, cuda, simulated);
    // The same order is the order the ranked tasks will read host memory
    // in: the pinning service locks it so.
    if (pin_service_) {
      std::vector<PinService::Range> ranges;
      ranges.reserve(loads.size());
      for (const LoadAhead &load : loads)
        ranges.push_back({load.object->host, load.object->shape.span()});
      pin_service_->reorder(ranges);
    }
    if (loading_ahead)
      queues_.load_orders.push(LoadOrder{.loads = std::move(loads), .link_serves_ranks = !wide});
  }
  queues_.ranked.store(true, std::memory_order_release);
  queues_.signal.notify();
}

void Master::wait_on(std::span<const css_region> regions, const char *file, int line) {
  if (finished_) return;
  for (const css_region &user_region : regions) {
    Region region = Region::from(user_region);
    if (auto problem = region.misuse()) {
      if (file) fatal_at(file, line, "wait on: " + *problem);
      fatal("wait on: " + *problem);
    }
    std::vector<TaskRef> created, users;
    std::vector<DataObjectRef> objects;
    tracker_.bring_home(&region, created, &users, devices_.empty() ? nullptr : &objects);
    complete_and_flush(created, users, std::move(objects));
    // The program may free the region now.
    if (unlock_at_barrier_) {
      if (pin_service_) pin_service_->cancel(reinterpret_cast<void *>(region.base), region.span());
      page_locks_->forget(reinterpret_cast<void *>(region.base), region.span());
    }
  }
}

void Master::wait_written(std::span<const css_region> regions) {
  if (finished_) return;
  for (const css_region &user_region : regions) {
    Region region = Region::from(user_region);
    if (auto problem = region.misuse()) fatal("wait for the writers: " + *problem);
    // Read only by tasks since the last barrier: the program's memory holds
    // the value, and waiting for the readers would serialise every task
    // that takes the same parameters by const reference.
    if (tracker_.written_since_barrier(region, !devices_.empty())) wait_on({&user_region, 1});
  }
}

void Master::release(std::span<const css_region> regions) {
  if (finished_) return;
  for (const css_region &user_region : regions) {
    Region region = Region::from(user_region);
    if (auto problem = region.misuse()) fatal("css_release: " + *problem);
    // As a free of the bytes from the region's first to its last: the
    // memory stays the program's, so its page locks stay too.
    Region span = Region::contiguous(region.base, region.span());
    settle_before_release(span);
    tracker_.forget_released(span);
  }
}

void Master::before_release(void *address, std::size_t bytes, release_hooks::ReleaseKind kind) {
  // The tracker is the master's alone: on another thread, a release only
  // undoes page locks, and tasks that still use the memory are the
  // program's error (language.md).
  if (std::this_thread::get_id() == master_ && !finished_) {
    Region region = Region::contiguous(reinterpret_cast<std::uintptr_t>(address), bytes);
    // realloc copies the bytes after the settle below: the results move.
    // (Not for css_release, which the translator adds where a local's
    // scope ends: a program that leaves a block early, `continue` after a
    // task wrote a local, discards those results as the sequential one does.)
    if (kind == release_hooks::ReleaseKind::Freed) warn_unread_results(region);
    settle_before_release(region);
    tracker_.forget_released(region);
  }
  // Nothing may lock the memory once it is gone (PinService::cancel).
  if (pin_service_) pin_service_->cancel(address, bytes);
  if (page_locks_ && page_locks_->named(address, bytes)) page_locks_->forget(address, bytes);
}

void Master::warn_unread_results(const Region &region) {
  // Results that no task reads and that are not in the memory yet, dropped
  // as it goes. Either the program discards them, or it read the memory
  // without waiting for them: a std::vector that grows copies its elements
  // into new memory and then frees the old, and the copy holds the values
  // from before the tasks (language.md). The runtime cannot see the copy;
  // it can see that nothing waited for the values the copy should have had.
  for (const TaskRef &writer : tracker_.unread_pending_results(region)) {
    if (!warned_unread_sites_.emplace(writer->file, writer->line).second) continue;
    std::fprintf(stderr,
                 "gpuss: warning: memory that task '%s' (%s:%d) writes is freed before the task's results "
                 "reached it, and no task reads them. If the program copied the memory just before (a "
                 "std::vector growing, a copy by hand), the copy holds the values from before the task: wait "
                 "for the task first (taskwait on, css wait on, a barrier). If the results are not wanted "
                 "(a buffer dropped as an exception unwinds), nothing is lost\n",
                 writer->label, writer->file, writer->line);
  }
}

void Master::settle_before_release(const Region &region) {
  // As in the sequential program, the tasks called before the release have
  // used the memory and left their results in it (realloc copies them).
  // Without this, a renamed value's copy-back or a device's write-back
  // would land in memory the allocator has handed to someone else, and a
  // device copy of the old value would be read for new memory at the same
  // addresses.
  std::vector<TaskRef> created, users;
  std::vector<DataObjectRef> objects;
  if (!tracker_.settle_for_release(region, created, users, devices_.empty() ? nullptr : &objects)) return;
  complete_and_flush(created, users, std::move(objects));
  Stats::add(stats_->early_releases, 1);
}

void Master::complete_and_flush(std::vector<TaskRef> &copy_backs, const std::vector<TaskRef> &tasks,
                                     std::vector<DataObjectRef> objects) {
  // For wait on and early releases: the copy-backs bring renamed values
  // home, `tasks` finish, then the devices' values of `objects` go home and
  // their device copies are forgotten.
  submit_internal(copy_backs);
  for (const TaskRef &task : tasks) {
    task->awaited.store(true, std::memory_order_seq_cst); // mark_completed rings only for awaited tasks
    while (!task->completed.load(std::memory_order_seq_cst))
      task->completed.wait(false, std::memory_order_acquire);
  }
  wait_for(request_flush(std::move(objects), false));
}

void Master::pin(const void *address, std::size_t bytes) {
  if (finished_ || !page_locks_ || bytes == 0) return;
  page_locks_->ensure(address, bytes);
}

void Master::unpin(const void *address, std::size_t bytes) {
  if (finished_) return;
  // After the barrier no task uses the range (a copy still in flight through
  // one of its locks is waited for); a later task that uses it page-locks it
  // again when submitted.
  barrier();
  if (pin_service_) pin_service_->cancel(address, bytes);
  if (page_locks_) page_locks_->forget(address, bytes);
}

} // namespace gpuss
