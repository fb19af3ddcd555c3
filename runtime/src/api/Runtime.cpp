// Runtime: the C++ interface of libgpuss over the composition root.
#include "api/Runtime.hpp"
#include "devices/CpuWorkers.hpp"
#include "devices/DeviceModel.hpp"
#include "devices/ExternalTasks.hpp"
#include "devices/FaultReports.hpp"
#include "devices/GpuSharing.hpp"
#include "graph/DependencyTracker.hpp"
#include "graph/NestedTasks.hpp"
#include "master/Master.hpp"
#include "memory/Directory.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "memory/PageLocks.hpp"
#include "memory/PinService.hpp"
#include "memory/RegionCheck.hpp"
#include "memory/StagedCopies.hpp"
#include "scheduling/Helper.hpp"
#include "support/Fatal.hpp"
#include "support/StatsCounters.hpp"
#include "support/Trace.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <unordered_set>

namespace gpuss {

// The composition root: builds the components in dependency order, starts
// the threads, and at finish stops them and tears everything down in
// reverse. The master's operations are Master's; this only forwards them.
class RuntimeImpl final {
public:
  explicit RuntimeImpl(const Config &config);
  ~RuntimeImpl();

  Master &master() { return *master_; }
  std::size_t device_count() const { return devices_.size(); }
  void finish();
  void trace_event(const std::string &track, const std::string &name, double start, double end) {
    trace_.record(track, name, start, end);
  }

  double now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  StatsSnapshot stats() const { return stats_->snapshot(finished_ ? wall_seconds_ : now()); }

  Config config;

private:
  // Installed before any runtime thread starts, put back at finish: a copy
  // that faults, or a body that crashes, names its task (FaultReports.hpp).
  faults::Handler fault_handler_;
  static double clock_of(const void *self) { return static_cast<const RuntimeImpl *>(self)->now(); }

  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  // User memory page-locked for GPU copies (null without GPUs or with
  // CSS_PIN_HOST=0); before the devices, which copy through it.
  std::unique_ptr<PageLocks> page_locks_;
  // Locks user memory ahead of the copies (null without page locks or with
  // CSS_PIN_THREADS=0); after the page locks it uses, before the master.
  std::unique_ptr<PinService> pin_service_;
  std::unique_ptr<CopyThreads> copy_threads_; // GPU workers' staged copies; null: no staging
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
  std::unique_ptr<Master> master_;
  bool watching_releases_ = false; // the master is told when the program frees memory
  bool finished_ = false;
  double wall_seconds_ = 0;
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

// The GPUs this process will copy to: those it sees, dealt among the ranks
// of its node (GpuSharing.hpp), at most CSS_NUM_GPUS; none where simulated
// devices replace them or nothing is page-locked.
int gpus_in_use(const Config &config) {
  if (config.pin_host == HostPinning::Off || config.sim_devices > 0 || config.num_gpus == 0) return 0;
  const int present = cuda_device_count();
  if (present == 0) return 0;
  int gpus = static_cast<int>(share_gpus(present, node_ranks_from_environment()).ordinals.size());
  return config.num_gpus >= 0 ? std::min(gpus, config.num_gpus) : gpus;
}

// The configuration as this process runs it: CSS_UNLOCKED_COPIES=auto
// decided (StagedCopies.hpp, choose_unlocked_copies), and pageable copies
// given the pinning service's two threads unless CSS_PIN_THREADS says
// otherwise, so that what is copied pageable once is locked for later;
// CSS_STAGING_THREADS=auto decided (auto_staging_threads), and where threads
// stage for GPUs, the deeper staging ahead that their copies need unless
// CSS_PREFETCH_DEPTH says otherwise (staged_prefetch_depth).
Config resolve(const Config &asked) {
  Config config = asked;
  const int gpus = gpus_in_use(config); // 0: no GPU copies host memory, and no copy threads start
  config.unlocked_copies = choose_unlocked_copies(config.unlocked_copies, gpus);
  if (config.unlocked_copies == UnlockedCopies::Pageable && !config.pin_threads_set) config.pin_threads = 2;
  if (config.staging_auto) {
    int present = gpus > 0 ? cuda_device_count() : 0;
    if (config.num_gpus >= 0) present = std::min(present, config.num_gpus);
    config.staging_threads = auto_staging_threads(present, std::thread::hardware_concurrency());
    config.staging_auto = false;
  }
  if (config.staging_threads > 0 && gpus > 0 && !config.prefetch_depth_set)
    config.prefetch_depth = staged_prefetch_depth;
  return config;
}

// The copy threads of CSS_STAGING_THREADS (StagedCopies.hpp; auto decided
// by resolve), null for none.
std::unique_ptr<CopyThreads> make_copy_threads(const Config &config, PageLocks *page_locks) {
  if (!page_locks) return nullptr;
  return config.staging_threads > 0 ? std::make_unique<CopyThreads>(config.staging_threads) : nullptr;
}

std::vector<std::unique_ptr<Device>> make_devices(const Config &config, PageLocks *page_locks,
                                                  CopyThreads *copy_threads) {
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
    return make_model_devices(1, config.sim_devices, *model, config.gpu_lane_depth > 0,
                              config.gpu_wait_all_fetches);
  }
  if (config.sim_devices > 0) {
    std::vector<std::unique_ptr<Device>> devices;
    for (unsigned i = 0; i < config.sim_devices; ++i)
      devices.push_back(make_sim_device(static_cast<int>(i) + 1));
    return devices;
  }
  CudaDeviceOptions options;
  options.copy_unlocked_pageable = config.unlocked_copies == UnlockedCopies::Pageable;
  options.compute_streams = config.gpu_streams;
  options.priority_lane = config.gpu_priority_lane;
  options.lane_depth = config.gpu_lane_depth;
  options.wait_all_fetches = config.gpu_wait_all_fetches;
  options.alias_priority = config.gpu_alias_priority;
  return make_cuda_devices(1, config.num_gpus, config.gpu_partitions, page_locks, copy_threads, options,
                           node_ranks_from_environment());
}

} // namespace

RuntimeImpl::RuntimeImpl(const Config &c)
    : config(resolve(c)), page_locks_(make_page_locks(config)),
      pin_service_(page_locks_ && config.pin_threads > 0
                       ? std::make_unique<PinService>(*page_locks_, config.pin_threads)
                       : nullptr),
      copy_threads_(make_copy_threads(config, page_locks_.get())),
      devices_(make_devices(config, page_locks_.get(), copy_threads_.get())),
      stats_(std::make_unique<Stats>(c.num_cpus, devices_.size())), trace_(!c.trace_file.empty()),
      graph_(!c.dag_file.empty()), rename_budget_(c.rename_memory),
      objects_(static_cast<int>(devices_.size()) + 1, rename_budget_, queues_.retired, queues_.signal),
      tracker_(graph_, objects_, *stats_, c.rename_memory > 0) {
  if (config.check_regions) {
    // Before the devices start, so that their own blocks are known too.
    region_check::turn_on();
    if (!region_check::heap_blocks_known())
      std::fprintf(stderr, "gpuss: warning: CSS_CHECK_REGIONS=1: the program's malloc() or free() does not "
                           "reach libgpuss (a sanitizer's or a preloaded allocator comes first), so heap "
                           "blocks are not known: regions are checked against the memory map only\n");
  }
  policy_ = make_scheduling_policy(config.scheduler);
  if (!policy_)
    fatal("CSS_SCHEDULER='" + config.scheduler +
          "' is not one of locality, locality-nowait, eager, round-robin");

  nested_ = std::make_unique<NestedTasks>(config, *stats_);
  WorkerContext context{
      &queues_.completions, &queues_.signal, stats_.get(), &trace_, &stop_, &RuntimeImpl::clock_of, this,
      config.spin_rounds,   nested_.get(), config.check_regions};
  std::vector<std::unique_ptr<SoftwareCache>> caches;
  std::vector<Device *> device_pointers;
  std::size_t device_cache_bytes = 0;
  for (auto &device : devices_) {
    std::size_t pool_bytes = 0;
    if (!parse_memory_size(config.device_memory, device->total_memory(), pool_bytes))
      fatal("CSS_GPU_MEMORY='" + config.device_memory + "' is not a size or a percentage");
    device->start(pool_bytes, context);
    device_cache_bytes += pool_bytes;
    caches.push_back(std::make_unique<SoftwareCache>(
        device->space(), device->pool_base(), pool_bytes,
        CacheOptions{config.device_guard, config.device_extents, device.get()}));
    device_pointers.push_back(device.get());
  }
  master_ =
      std::make_unique<Master>(MasterParts{config, page_locks_.get(), pin_service_.get(), devices_, *stats_,
                                           graph_, queues_, tracker_, live_tasks_, device_cache_bytes, &context});
  // One runtime at a time is told of releases (tests may build several).
  watching_releases_ = release_hooks::active() && release_hooks::attach(*master_);
  master_->set_releases_watched(watching_releases_);
  stats_->staging_threads = copy_threads_ ? copy_threads_->threads() : 0;
  stats_->prefetch_depth = config.prefetch_depth;
  stats_->pin_threads = pin_service_ ? config.pin_threads : 0;
  stats_->unlocked_copies = page_locks_ ? to_string(config.unlocked_copies) : "lock";
  stats_->pin_host = to_string(!page_locks_                    ? HostPinning::Off
                               : master_->unlocks_at_barrier() ? HostPinning::UntilBarrier
                                                               : HostPinning::UntilFreed);
  std::vector<MemoryNode *> memory_nodes(device_pointers.begin(), device_pointers.end());
  directory_ = std::make_unique<Directory>(config.cache_policy, std::move(memory_nodes), std::move(caches),
                                           objects_, *stats_, page_locks_.get(), config.clean_while_idle,
                                           config.eviction, config.device_aliases, config.check_regions);
  DirectRelease direct; // without accelerators, host workers release successors themselves
  if (devices_.empty()) direct = DirectRelease{&graph_, &queues_.ready, &live_tasks_, &urgent_waiting_};
  cpus_ = std::make_unique<CpuWorkers>(config.num_cpus, context, direct, nested_.get());
  nested_->attach(cpus_.get());
  helper_ =
      std::make_unique<Helper>(HelperParts{config, queues_, *directory_, graph_, device_pointers, cpus_.get(),
                                           *policy_, *stats_, live_tasks_, stop_, urgent_waiting_, context});
  helper_->start();
}

RuntimeImpl::~RuntimeImpl() {
  finish();
}

void RuntimeImpl::finish() {
  if (finished_) return;
  master_->barrier();
  wall_seconds_ = now();
  finished_ = true;
  master_->set_finished();
  tracker_.clear();
  stop_.store(true, std::memory_order_release);
  queues_.signal.notify();
  helper_->join();
  cpus_->stop();
  for (auto &device : devices_)
    device->stop();
  fault_handler_.release(); // no runtime thread is left
  // No copy is in flight now, and none will be: every lock goes, since
  // frees are no longer watched.
  if (watching_releases_) release_hooks::detach(*master_);
  // No lock starts after this: every one goes, since frees are no longer watched.
  pin_service_.reset();
  if (copy_threads_) {
    CopyThreads::Totals staged = copy_threads_->totals();
    stats_->staged_bytes = staged.bytes;
    stats_->stage_seconds = staged.busy_seconds;
  }
  if (page_locks_) {
    PageLocks::Totals locked = page_locks_->totals();
    stats_->pinned_bytes = locked.bytes;
    stats_->pin_seconds = locked.seconds;
    page_locks_->forget_all();
  }
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
  impl_->master().submit(desc);
}
void Runtime::barrier() {
  if (RunningTask *running = running_task()) return running->nested->wait_for_children(*running);
  ApiCall call;
  impl_->master().barrier();
}
void Runtime::wait_on(std::span<const css_region> regions, const char *file, int line) {
  if (RunningTask *running = running_task()) return running->nested->wait_for_children(*running);
  ApiCall call;
  impl_->master().wait_on(regions, file, line);
}

void Runtime::wait_written(std::span<const css_region> regions) {
  if (RunningTask *running = running_task()) return running->nested->wait_written(*running, regions);
  ApiCall call;
  impl_->master().wait_written(regions);
}
void Runtime::release(std::span<const css_region> regions) {
  if (RunningTask *running = running_task()) return running->nested->wait_for_children(*running);
  ApiCall call;
  impl_->master().release(regions);
}
void Runtime::submit_external(const css_task_desc &desc, ExternalExecutor &executor) {
  if (running_task()) fatal_for_task(&desc, "an external task submitted inside a task body");
  ApiCall call;
  impl_->master().submit_external(desc, executor);
}
double Runtime::now() const {
  return impl_->now();
}
void Runtime::trace_event(const std::string &track, const std::string &name, double start, double end) {
  impl_->trace_event(track, name, start, end);
}
void Runtime::unpin(const void *address, std::size_t bytes) {
  ApiCall call;
  impl_->master().unpin(address, bytes);
}
void Runtime::pin(const void *address, std::size_t bytes) {
  ApiCall call;
  impl_->master().pin(address, bytes);
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

unsigned Runtime::body_threads() const {
  return 1 + impl_->config.num_cpus + static_cast<unsigned>(impl_->device_count());
}

} // namespace gpuss
