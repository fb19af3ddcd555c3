// Runtime: builds the components in dependency order, implements the
// master-side operations (submit, barrier, wait on, finish), and tears
// everything down in reverse.
#include "Runtime.hpp"
#include "CpuWorkers.hpp"
#include "DependencyTracker.hpp"
#include "DeviceModel.hpp"
#include "Directory.hpp"
#include "ExternalTasks.hpp"
#include "Fatal.hpp"
#include "Helper.hpp"
#include "HostReleaseHooks.hpp"
#include "NestedTasks.hpp"
#include "PageLocks.hpp"
#include "StatsCounters.hpp"
#include "Trace.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <unordered_set>

namespace gpuss {

class RuntimeImpl final : release_hooks::Listener {
public:
  explicit RuntimeImpl(const Config &config);
  ~RuntimeImpl();

  void submit(const css_task_desc &desc);
  void submit_external(const css_task_desc &desc, ExternalExecutor &executor);
  void trace_event(const std::string &track, const std::string &name, double start, double end) {
    trace_.record(track, name, start, end);
  }
  void barrier();
  void wait_on(std::span<const css_region> regions);
  void release(std::span<const css_region> regions);
  void unpin(const void *address, std::size_t bytes);
  void finish();

  // The program is about to free, realloc or unmap this memory.
  void before_release(void *address, std::size_t bytes) override;

  double now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  StatsSnapshot stats() const { return stats_->snapshot(finished_ ? wall_seconds_ : now()); }

  Config config;

private:
  static double clock_of(const void *self) { return static_cast<const RuntimeImpl *>(self)->now(); }
  void enqueue(const TaskRef &task);
  void submit_internal(std::vector<TaskRef> &tasks);
  void submit_task(const TaskRef &task);
  void page_lock_user_memory(const Task &task);
  std::shared_ptr<FlushRequest> request_flush(std::vector<DataObjectRef> objects, bool while_tasks_run);
  static void wait_for(const std::shared_ptr<FlushRequest> &request);
  void wait_for_all();
  void rank_unfinished_tasks();
  std::vector<LoadAhead> load_order();
  void remember_for_ranking(const TaskRef &task);
  void settle_before_release(const Region &region);
  // Waits while CSS_MAX_TASKS tasks are in flight.
  void throttle_submission();
  void complete_and_flush(std::vector<TaskRef> &copy_backs, const std::vector<TaskRef> &tasks,
                          std::vector<DataObjectRef> objects);
  void validate(const css_task_desc &desc) const;
  bool can_run_smp() const { return config.num_cpus > 0 || config.sim_devices > 0; }

  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  // User memory page-locked for GPU copies (null without GPUs or with
  // CSS_PIN_HOST=0); before the devices, which copy through it.
  std::unique_ptr<PageLocks> page_locks_;
  bool watching_releases_ = false; // before_release is told when the program frees memory
  bool unlock_at_barrier_ = false; // page locks are undone at every barrier and wait on
  const std::thread::id master_ = std::this_thread::get_id();
  std::vector<std::unique_ptr<Device>> devices_;
  std::unique_ptr<Stats> stats_;
  Trace trace_;
  TaskGraph graph_;
  RenameBudget rename_budget_;
  HelperQueues queues_;
  ObjectStore objects_;
  DependencyTracker tracker_;
  std::unique_ptr<SchedulingPolicy> policy_;
  std::unique_ptr<Directory> directory_;
  std::atomic<bool> stop_{false};
  LiveTasks live_tasks_;
  std::atomic<unsigned> urgent_waiting_{0};
  std::unique_ptr<NestedTasks> nested_; // before the workers, which run child tasks
  std::unique_ptr<CpuWorkers> cpus_;
  std::unique_ptr<Helper> helper_;
  bool finished_ = false;
  double wall_seconds_ = 0;
  bool ranking_ = false;               // CSS_CRITICAL_PATH with accelerators
  std::vector<TaskRef> since_barrier_; // submitted since the last barrier, in order (ranking only)
  std::size_t prune_ranking_at_ = 4096;
};

namespace {

std::unique_ptr<PageLocks> make_page_locks(const Config &config) {
  // Only GPUs copy faster from page-locked memory; simulated devices copy
  // within the host.
  if (config.pin_host == HostPinning::Off || config.sim_devices > 0 || config.num_gpus == 0 ||
      cuda_device_count() == 0)
    return nullptr;
  std::unique_ptr<PageLocker> locker = make_cuda_page_locker();
  return locker ? std::make_unique<PageLocks>(std::move(locker)) : nullptr;
}

std::vector<std::unique_ptr<Device>> make_devices(const Config &config, PageLocks *page_locks) {
  // Config::from_environment checks these too; a Config built in code
  // (tests) reaches the runtime without it.
  if (config.gpu_partitions < 1 || config.gpu_partitions > max_gpu_partitions)
    fatal("CSS_GPU_PARTITIONS=" + std::to_string(config.gpu_partitions) + " is not from 1 to " +
          std::to_string(max_gpu_partitions));
  if (config.gpu_partitions > 1 && config.sim_devices > 0)
    fatal("CSS_GPU_PARTITIONS=" + std::to_string(config.gpu_partitions) +
          " splits GPUs, but CSS_SIM_DEVICES replaces them; ask for more simulated devices instead");
  if (config.sim_devices > 0 && !config.sim_model.empty()) {
    std::string error;
    std::optional<DeviceModel> model = DeviceModel::parse(config.sim_model, error);
    if (!model) fatal("CSS_SIM_MODEL: " + error);
    return make_model_devices(1, config.sim_devices, *model);
  }
  if (config.sim_devices > 0) {
    std::vector<std::unique_ptr<Device>> devices;
    for (unsigned i = 0; i < config.sim_devices; ++i)
      devices.push_back(make_sim_device(static_cast<int>(i) + 1));
    return devices;
  }
  return make_cuda_devices(1, config.num_gpus, config.gpu_partitions, page_locks, config.gpu_streams);
}

} // namespace

RuntimeImpl::RuntimeImpl(const Config &c)
    : config(c), page_locks_(make_page_locks(c)), devices_(make_devices(c, page_locks_.get())),
      stats_(std::make_unique<Stats>(c.num_cpus, devices_.size())), trace_(!c.trace_file.empty()),
      graph_(!c.dag_file.empty()), rename_budget_(c.rename_memory),
      objects_(static_cast<int>(devices_.size()) + 1, rename_budget_, queues_.retired, queues_.signal),
      tracker_(graph_, objects_, *stats_, c.rename_memory > 0) {
  policy_ = make_scheduling_policy(config.scheduler);
  if (!policy_)
    fatal("CSS_SCHEDULER='" + config.scheduler +
          "' is not one of locality, locality-nowait, eager, round-robin");

  nested_ = std::make_unique<NestedTasks>(config, *stats_);
  WorkerContext context{&queues_.completions,
                        &queues_.signal,
                        stats_.get(),
                        &trace_,
                        &stop_,
                        &RuntimeImpl::clock_of,
                        this,
                        config.spin_rounds,
                        nested_.get()};
  std::vector<std::unique_ptr<SoftwareCache>> caches;
  std::vector<Device *> device_pointers;
  for (auto &device : devices_) {
    std::size_t pool_bytes = 0;
    if (!parse_memory_size(config.device_memory, device->total_memory(), pool_bytes))
      fatal("CSS_GPU_MEMORY='" + config.device_memory + "' is not a size or a percentage");
    device->start(pool_bytes, context);
    caches.push_back(std::make_unique<SoftwareCache>(device->space(), device->pool_base(), pool_bytes,
                                                     config.device_guard));
    device_pointers.push_back(device.get());
  }
  // One runtime at a time is told of releases (tests may build several).
  watching_releases_ = release_hooks::active() && release_hooks::attach(*this);
  // Page locks stay from one barrier to the next when libgpuss sees the
  // program free memory, and are undone before it goes; where it cannot,
  // they go at every barrier and wait on instead.
  unlock_at_barrier_ = page_locks_ && (config.pin_host == HostPinning::UntilBarrier || !watching_releases_);
  stats_->pin_host = to_string(!page_locks_         ? HostPinning::Off
                               : unlock_at_barrier_ ? HostPinning::UntilBarrier
                                                    : HostPinning::UntilFreed);
  ranking_ = config.critical_path && !devices_.empty();
  directory_ = std::make_unique<Directory>(config.cache_policy, device_pointers, std::move(caches), objects_,
                                           *stats_, page_locks_.get());
  DirectRelease direct; // without accelerators, host workers release successors themselves
  if (devices_.empty()) direct = DirectRelease{&graph_, &queues_.ready, &live_tasks_, &urgent_waiting_};
  cpus_ = std::make_unique<CpuWorkers>(config.num_cpus, context, direct, nested_.get());
  nested_->attach(cpus_.get());
  helper_ = std::make_unique<Helper>(config, queues_, *directory_, graph_, device_pointers, cpus_.get(),
                                     *policy_, *stats_, live_tasks_, stop_, urgent_waiting_, context);
  helper_->start();
}

RuntimeImpl::~RuntimeImpl() {
  finish();
}

void RuntimeImpl::validate(const css_task_desc &desc) const {
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

void RuntimeImpl::enqueue(const TaskRef &task) {
  page_lock_user_memory(*task);
  live_tasks_.add();
  if (ranking_) remember_for_ranking(task);
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

void RuntimeImpl::submit_internal(std::vector<TaskRef> &tasks) {
  for (const TaskRef &task : tasks)
    enqueue(task);
  tasks.clear();
}

void RuntimeImpl::submit(const css_task_desc &desc) {
  if (finished_) fatal_for_task(&desc, "submitted after the runtime finished (css_finish)");
  validate(desc);
  throttle_submission();
  submit_task(make_user_task(desc, tracker_.next_task_id()));
}

void RuntimeImpl::submit_external(const css_task_desc &desc, ExternalExecutor &executor) {
  if (finished_) fatal_for_task(&desc, "submitted after the runtime finished (css_finish)");
  // Not validate(): no worker runs it, so it needs none.
  check_task_desc(desc);
  throttle_submission();
  TaskRef task = make_user_task(desc, tracker_.next_task_id());
  task->kind = TaskKind::External;
  task->executor = &executor;
  submit_task(task);
}

void RuntimeImpl::submit_task(const TaskRef &task) {
  for (const BoundAccess &access : task->accesses)
    release_hooks::watch(access.region.base, access.region.end());
  std::vector<TaskRef> created;
  tracker_.add_task(task, created);
  submit_internal(created);
  enqueue(task);
}

void RuntimeImpl::throttle_submission() {
  // A master that runs far ahead holds every pending task (about 1.2 KB
  // each, with its tracker entries): past CSS_MAX_TASKS it waits until an
  // eighth of them have completed, so that it does not wake per task.
  if (config.max_tasks == 0 || live_tasks_.count() < config.max_tasks) return;
  live_tasks_.wait_until_at_most(config.max_tasks - std::max<std::uint64_t>(1, config.max_tasks / 8));
  Stats::add(stats_->submit_waits, 1);
}

void RuntimeImpl::page_lock_user_memory(const Task &task) {
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
  for (const BoundAccess &access : task.accesses)
    if (access.object && !access.object->renamed)
      page_locks_->ensure(access.object->host, access.object->shape.span());
}

std::shared_ptr<FlushRequest> RuntimeImpl::request_flush(std::vector<DataObjectRef> objects,
                                                         bool while_tasks_run) {
  if (objects.empty()) return nullptr;
  auto request = std::make_shared<FlushRequest>();
  request->objects = std::move(objects);
  request->while_tasks_run = while_tasks_run;
  queues_.flushes.push(request);
  queues_.signal.notify();
  return request;
}

void RuntimeImpl::wait_for(const std::shared_ptr<FlushRequest> &request) {
  if (!request) return;
  while (!request->done.load(std::memory_order_acquire))
    request->done.wait(false, std::memory_order_acquire);
}

void RuntimeImpl::wait_for_all() {
  live_tasks_.wait_until_at_most(0);
}

void RuntimeImpl::barrier() {
  if (finished_) return;
  std::vector<TaskRef> created;
  std::vector<DataObjectRef> objects;
  // Without accelerators every value is already in host memory: nothing to flush.
  tracker_.bring_home(nullptr, created, nullptr, devices_.empty() ? nullptr : &objects);
  submit_internal(created);
  rank_unfinished_tasks();
  // Sent now rather than after the last task: the values that are final
  // early (in blocked codes, most of them) go home while the rest computes,
  // so the barrier does not end with every result copied at once.
  std::shared_ptr<FlushRequest> request;
  if (config.early_write_back) request = request_flush(std::move(objects), true);
  wait_for_all();
  if (!config.early_write_back) request = request_flush(std::move(objects), false);
  wait_for(request);
  tracker_.forget_tasks();
  if (unlock_at_barrier_) page_locks_->forget_all();
}

void RuntimeImpl::remember_for_ranking(const TaskRef &task) {
  // Finished tasks need no rank: dropping them whenever the list has doubled
  // keeps a program that rarely reaches a barrier from holding every task.
  if (since_barrier_.size() >= prune_ranking_at_) {
    std::erase_if(since_barrier_,
                  [](const TaskRef &t) { return t->completed.load(std::memory_order_acquire); });
    prune_ranking_at_ = std::max<std::size_t>(4096, 2 * since_barrier_.size());
  }
  since_barrier_.push_back(task);
}

void RuntimeImpl::rank_unfinished_tasks() {
  // The master waits in the barrier from here on, so the graph is complete:
  // rank each task by the longest chain of tasks that follows it (HEFT's
  // upward rank, counted in tasks), and let the helper hand out ready tasks
  // in that order. In a right-looking factorisation this runs the leading
  // block columns ahead, so that later steps work on blocks already on the
  // devices while the rest of the matrix is still arriving. Submission order
  // is a topological order (edges only go to later tasks), so walking it
  // backwards sees every successor before its predecessors. A finished
  // task has given its successors up and ranks 1, which no longer matters.
  if (since_barrier_.empty()) return;
  for (auto it = since_barrier_.rbegin(); it != since_barrier_.rend(); ++it) {
    Task &task = **it;
    std::uint32_t longest = 0;
    {
      std::lock_guard lock(task.edges_mutex);
      for (const TaskRef &successor : task.successors)
        longest = std::max(longest, successor->rank.load(std::memory_order_relaxed));
    }
    task.rank.store(longest + 1, std::memory_order_relaxed);
  }
  // nocache keeps no data on the devices between tasks: nothing to load ahead.
  if (config.load_ahead && config.cache_policy != CachePolicy::NoCache)
    queues_.load_orders.push(load_order());
  since_barrier_.clear();
  queues_.ranked.store(true, std::memory_order_release);
  queues_.signal.notify();
}

std::vector<LoadAhead> RuntimeImpl::load_order() {
  // The objects that unfinished accelerator tasks read, in the order the
  // highest-ranked of their readers will want them: in a right-looking
  // factorisation, block column by block column, the order in which a
  // left-looking code would touch them. The helper loads them into the
  // devices while their fetch engines would otherwise wait for tasks to
  // become ready, so the start of the run is not bound by loading the data
  // the first steps touch (every block, in step 0).
  //
  // Only a value that is already final for its reader may go ahead of it:
  // an object that an unfinished task writes before that reader, or that
  // overlaps another region the program uses, is left to the reader's own
  // fetch. The helper drops a load once its reader is dispatched, since the
  // reader, and after it later writers, may then write the value.
  bool cuda = false, simulated = false;
  for (const auto &device : devices_)
    (device->kind() == DeviceKind::Cuda ? cuda : simulated) = true;
  std::vector<LoadAhead> order;
  std::unordered_set<const DataObject *> written, listed;
  std::vector<BoundAccess> accesses;
  for (const TaskRef &task : since_barrier_) { // submission order
    {
      // The helper drops a completed task's accesses under this lock.
      std::lock_guard lock(task->edges_mutex);
      accesses = task->accesses;
    }
    bool on_accelerators =
        task->device_kind == CSS_DEVICE_CUDA ? cuda : simulated && task->kind == TaskKind::User;
    for (const BoundAccess &access : accesses) {
      const DataObjectRef &object = access.object;
      if (on_accelerators && object && access.reads && access.copy_in && !object->renamed &&
          !object->has_parts() && !written.contains(object.get()) && !listed.contains(object.get()) &&
          !tracker_.overlaps_another(object->shape)) {
        listed.insert(object.get());
        order.push_back(LoadAhead{object, task});
      }
    }
    for (const BoundAccess &access : accesses)
      if (access.object && access.writes) written.insert(access.object.get());
  }
  std::stable_sort(order.begin(), order.end(), [](const LoadAhead &a, const LoadAhead &b) {
    return a.reader->rank.load(std::memory_order_relaxed) > b.reader->rank.load(std::memory_order_relaxed);
  });
  return order;
}

void RuntimeImpl::wait_on(std::span<const css_region> regions) {
  if (finished_) return;
  for (const css_region &user_region : regions) {
    Region region = Region::from(user_region);
    if (auto problem = region.misuse()) fatal("wait on: " + *problem);
    std::vector<TaskRef> created, last_writers;
    std::vector<DataObjectRef> objects;
    tracker_.bring_home(&region, created, &last_writers, devices_.empty() ? nullptr : &objects);
    complete_and_flush(created, last_writers, std::move(objects));
    // The program may free the region now.
    if (unlock_at_barrier_) page_locks_->forget(reinterpret_cast<void *>(region.base), region.span());
  }
}

void RuntimeImpl::release(std::span<const css_region> regions) {
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

void RuntimeImpl::before_release(void *address, std::size_t bytes) {
  // The tracker is the master's alone: on another thread, a release only
  // undoes page locks, and tasks that still use the memory are the
  // program's error (language.md).
  if (std::this_thread::get_id() == master_ && !finished_) {
    Region region = Region::contiguous(reinterpret_cast<std::uintptr_t>(address), bytes);
    settle_before_release(region);
    tracker_.forget_released(region);
  }
  if (page_locks_ && page_locks_->named(address, bytes)) page_locks_->forget(address, bytes);
}

void RuntimeImpl::settle_before_release(const Region &region) {
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

void RuntimeImpl::complete_and_flush(std::vector<TaskRef> &copy_backs, const std::vector<TaskRef> &tasks,
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

void RuntimeImpl::unpin(const void *address, std::size_t bytes) {
  if (finished_) return;
  // After the barrier no task uses the range (a copy still in flight through
  // one of its locks is waited for); a later task that uses it page-locks it
  // again when submitted.
  barrier();
  if (page_locks_) page_locks_->forget(address, bytes);
}

void RuntimeImpl::finish() {
  if (finished_) return;
  barrier();
  wall_seconds_ = now();
  finished_ = true;
  tracker_.clear();
  stop_.store(true, std::memory_order_release);
  queues_.signal.notify();
  helper_->join();
  cpus_->stop();
  for (auto &device : devices_)
    device->stop();
  // No copy is in flight now, and none will be: every lock goes, since
  // frees are no longer watched.
  if (watching_releases_) release_hooks::detach(*this);
  if (page_locks_) page_locks_->forget_all();
  // Every thread is gone: what is left to retire is the master's to free.
  for (DataObject *object : queues_.retired.drain())
    directory_->retire(object);

  if (config.stats) std::fprintf(stderr, "%s\n", stats_->snapshot(wall_seconds_).format_line().c_str());
  if (!config.dag_file.empty() && !graph_.write_dot(config.dag_file))
    std::fprintf(stderr, "gpuss: warning: cannot write the task graph to %s\n", config.dag_file.c_str());
  if (!config.trace_file.empty() && !trace_.write(config.trace_file))
    std::fprintf(stderr, "gpuss: warning: cannot write the trace to %s\n", config.trace_file.c_str());
}

// The public methods exempt the master from the free() hook while they run:
// what the runtime frees itself is never memory tasks named
// (HostReleaseHooks.hpp).
using ApiCall = release_hooks::Exemption;

Runtime::Runtime(const Config &config) {
  ApiCall call;
  impl_ = std::make_unique<RuntimeImpl>(config);
}
Runtime::~Runtime() {
  ApiCall call;
  impl_.reset();
}
// Inside a task body these are the running task's: its children
// (NestedTasks.hpp), not the master's graph.
void Runtime::submit(const css_task_desc &desc) {
  if (RunningTask *running = running_task()) return running->nested->submit(*running, desc);
  ApiCall call;
  impl_->submit(desc);
}
void Runtime::barrier() {
  if (RunningTask *running = running_task()) return running->nested->wait_for_children(*running);
  ApiCall call;
  impl_->barrier();
}
void Runtime::wait_on(std::span<const css_region> regions) {
  if (RunningTask *running = running_task()) return running->nested->wait_for_children(*running);
  ApiCall call;
  impl_->wait_on(regions);
}
void Runtime::release(std::span<const css_region> regions) {
  if (RunningTask *running = running_task()) return running->nested->wait_for_children(*running);
  ApiCall call;
  impl_->release(regions);
}
void Runtime::submit_external(const css_task_desc &desc, ExternalExecutor &executor) {
  if (running_task()) fatal_for_task(&desc, "an external task submitted inside a task body");
  ApiCall call;
  impl_->submit_external(desc, executor);
}
double Runtime::now() const {
  return impl_->now();
}
void Runtime::trace_event(const std::string &track, const std::string &name, double start, double end) {
  impl_->trace_event(track, name, start, end);
}
void Runtime::unpin(const void *address, std::size_t bytes) {
  ApiCall call;
  impl_->unpin(address, bytes);
}
void Runtime::finish() {
  ApiCall call;
  impl_->finish();
}
StatsSnapshot Runtime::stats() const {
  return impl_->stats();
}
const Config &Runtime::config() const {
  return impl_->config;
}

} // namespace gpuss
