// Config: every tunable of the runtime, read once from the environment.
//
// The runtime reads no environment variable anywhere else, so this file is
// the list of knobs (docs/environment.md describes each).
//
// Read on the master when a Runtime starts (and once when libgpuss loads,
// to report mistakes before main); immutable afterwards, read by any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace gpuss {

enum class CachePolicy { NoCache, WriteThrough, WriteBack };

const char *to_string(CachePolicy policy);

// How long user memory stays page-locked for GPU copies (CSS_PIN_HOST).
enum class HostPinning {
  Off,          // 0: copies run from pageable memory
  UntilFreed,   // 1: until the program frees it, css_unpin or finish; where libgpuss cannot see free(),
                //    as UntilBarrier (HostReleaseHooks.hpp)
  UntilBarrier, // barrier: until the next barrier or wait on, for programs that release memory in ways
                //    libgpuss cannot see (a raw munmap system call, mremap, madvise)
};

const char *to_string(HostPinning pinning);

// How a GPU copies host memory that is not page-locked yet (CSS_UNLOCKED_COPIES).
enum class UnlockedCopies {
  Auto,    // auto (the default): Pageable with two or more GPUs, Lock with one (Runtime.cpp, resolve)
  Lock,    // lock: the GPU worker locks it first (or a staging thread copies it: CSS_STAGING_THREADS)
  Pageable // pageable: copied as it is, never waiting for a lock, while the pinning service
           //   (CSS_PIN_THREADS, 2 unless set) locks it in the background for later copies
};

const char *to_string(UnlockedCopies copies);

// Which replica a full device cache gives up (CSS_EVICTION; Directory::make_room).
enum class Eviction {
  Lru,    // lru: the least recently used unpinned replica
  NextUse // next-use: the one whose next use, in the order a barrier's ranking expects tasks to run, is
          // furthest away (Belady's rule over the submitted graph); those with no known use first
};

const char *to_string(Eviction eviction);

// When a barrier ranks its graph in the program's order rather than by the
// critical path (CSS_PROGRAM_ORDER; master/ProgramOrder.hpp).
enum class ProgramOrder {
  Auto,   // auto (the default): when every rank is held by at least program_order_width tasks per executor,
          // or the program's order already runs the critical path first (critical_path_comes_first)
  Never,  // 0: always by the critical path
  Always, // 1: always in submission order (in core; out of core the working sets rank)
};

// Tasks per executor (devices and host workers) that every critical-path rank
// must hold for CSS_PROGRAM_ORDER=auto to rank a graph in program order.
inline constexpr std::size_t program_order_width = 4;

// CSS_PREFETCH_DEPTH where copy threads stage memory not locked yet
// (CSS_STAGING_THREADS) and the variable is not set. A staged copy takes
// longer from request to data than a copy of locked memory (the threads fill
// buffers, then the GPU copies them), so a device keeps more tasks staged to
// keep the threads and the link busy: on one H200 (2026-11-28, seventh
// session, performance.md), first runs of GEMM n = 32768 reached 48.1-48.5
// TFLOP/s with 12 against 44.8-46.8 with 6 (the copies in at 41 GB/s against
// 26 while they limited the run), Cholesky n = 49152 45.3-46.5 against
// 44.7-45.8, LU 20.6 against 20.0; 16 gained nothing more.
inline constexpr unsigned staged_prefetch_depth = 12;

// The names CSS_SCHEDULER accepts (SchedulingPolicies.cpp makes a policy of
// each; test_config checks that it does).
inline constexpr const char *scheduler_names[] = {"locality", "dmda", "locality-nowait", "eager", "round-robin",
                                                  "rr"};

// Bounds of CSS_GPU_PARTITIONS.
inline constexpr unsigned max_gpu_partitions = 16;

struct Config {
  unsigned num_cpus = 1;    // CSS_NUM_CPUS: host worker threads
  int num_gpus = -1;        // CSS_NUM_GPUS: GPUs to use, -1 = all present
  unsigned sim_devices = 0; // CSS_SIM_DEVICES: simulated accelerators
  std::string sim_model; // CSS_SIM_MODEL: simulated devices model time instead of computing (DeviceModel.hpp)
  CachePolicy cache_policy = CachePolicy::WriteBack; // CSS_CACHE_POLICY: nocache | wt | wb
  std::string scheduler = "locality";                // CSS_SCHEDULER: locality | eager | round-robin
  Eviction eviction = Eviction::NextUse;             // CSS_EVICTION: lru | next-use
  std::string device_memory = "90%"; // CSS_GPU_MEMORY: cache capacity per device, bytes or percent
  std::size_t rename_memory = std::size_t{1} << 30; // CSS_RENAME_MEMORY: cap on renamed buffers, bytes
  bool clean_while_idle = false; // CSS_WB_CLEAN=1: wb writes idle dirty copies back in the background
  unsigned prefetch_depth = 6; // CSS_PREFETCH_DEPTH: tasks staged ahead on each device (staged_prefetch_depth
                               // where copy threads stage, unless set: Runtime.cpp, resolve)
  bool prefetch_depth_set = false; // CSS_PREFETCH_DEPTH was given
  bool early_write_back = true;  // CSS_EARLY_WRITE_BACK=0 to disable: a barrier copies each value home as
                                 // soon as its last task finishes, not after the last task of all
  bool critical_path = true;     // CSS_CRITICAL_PATH=0 to disable: with accelerators, a barrier ranks the
                                 // unfinished tasks by the longest chain after each, and ready tasks go in
                                 // rank order
  bool rank_by_time = false;     // CSS_RANK_BY_TIME=1 to enable: those ranks weighed again by the tasks'
                                 // durations as the helper learns them (scheduling/TimedRanks.hpp)
  bool fan_out_first = true;     // CSS_FAN_OUT_FIRST=0 to disable: with accelerators, ready tasks that
                                 // several others wait for go ahead of the rest
  bool load_ahead = true;        // CSS_LOAD_AHEAD=0 to disable: with ranks (CSS_CRITICAL_PATH), devices
                                 // whose fetch engines have room load the inputs of the highest-ranked
                                 // unfinished tasks before those tasks are ready
  std::size_t fetch_queue = std::size_t{1} << 30; // CSS_FETCH_QUEUE: bytes of copies in that a device's
                                                  // staged tasks may have ahead of the next one (0: any)
  bool ranked_fetches = true;    // CSS_RANKED_FETCHES=0 to disable: while a load ahead for a higher-ranked
                                 // task waits, a device with a staged task copying in stages no other
                                 // that must copy in (Helper::yields_link_to_loads)
  bool ooc_order = true;         // CSS_OOC_ORDER=0 to disable: a barrier's graph whose data exceeds the
                                 // devices' caches is ranked by working sets (OutOfCoreOrder.hpp)
  ProgramOrder program_order = ProgramOrder::Auto; // CSS_PROGRAM_ORDER: auto | 0 | 1 (ProgramOrder.hpp)
  unsigned gpu_streams = 3;      // CSS_GPU_STREAMS: compute streams per GPU, taken by tasks in turn
  unsigned gpu_lane_depth = 2;   // CSS_GPU_LANE_DEPTH: tasks launched at once per compute stream, the
                                 // highest-ranked whose copies have landed first; 0: every staged task is
                                 // launched as soon as its copies are issued, in the order staged
  bool gpu_wait_all_fetches = false; // CSS_GPU_WAIT_ALL_FETCHES=1: every task waits for the fetches before
                                     // it; 0: one with nothing to copy in and no copy filling does not
  bool gpu_alias_priority = true; // CSS_GPU_ALIAS_PRIORITY=0 to disable: copies within a GPU on a stream of
                                  // the highest priority (CudaDevice::fetch_stream)
  bool gpu_priority_lane = false; // CSS_GPU_PRIORITY_LANE=1: one more compute stream per GPU, of the highest
                                  // priority, for the tasks that go first (fan-out, highpriority)
  unsigned gpu_partitions = 1;   // CSS_GPU_PARTITIONS: devices each GPU appears as (to test multi-GPU
                                 // code on fewer GPUs; max_gpu_partitions at most)
  HostPinning pin_host = HostPinning::UntilFreed; // CSS_PIN_HOST: 1 | barrier | 0
  unsigned pin_threads = 0; // CSS_PIN_THREADS: threads that page-lock ahead of need (0: workers lock as they copy)
  bool pin_threads_set = false; // CSS_PIN_THREADS was given (else UnlockedCopies::Pageable starts 2)
  // CSS_UNLOCKED_COPIES: auto | lock | pageable. Lock by default until the
  // pageable path, as fixed after its first multi-GPU run, has run on GPUs
  // again (performance.md, 2026-11-28); auto is what the default will be.
  UnlockedCopies unlocked_copies = UnlockedCopies::Auto;
  unsigned staging_threads = 0; // CSS_STAGING_THREADS=N: threads that copy memory not locked yet through
                                // page-locked staging buffers (0: GPU workers lock it before copying)
  bool staging_auto = true;     // CSS_STAGING_THREADS=auto (default): the runtime decides at start-up
                                // from the GPUs and hardware threads (auto_staging_threads)
  bool nested_inline = false; // CSS_NESTED=inline: a task called inside a task body runs at once, inline,
                              // instead of becoming a child task (CSS_NESTED=tasks, NestedTasks.hpp)
  bool device_aliases = true;   // CSS_DEVICE_ALIASES=0: overlapping objects kept coherent through the host
                                // only, never by copies within a device (Directory.hpp)
  bool device_extents = true;   // CSS_DEVICE_EXTENTS=0: every replica of a strided region in a pool block of
                                // its own, spanning its rows (SoftwareCache.hpp); off with CSS_DEVICE_GUARD
  std::size_t device_guard = 0; // CSS_DEVICE_GUARD: bytes kept unused before and after every device
                                // replica, so that a task reaching outside its data is caught
                                // (simulated devices check them after each task; on GPUs,
                                // compute-sanitizer --nvtx=yes reports accesses to them)
  bool check_regions = false;   // CSS_CHECK_REGIONS=1: every region of every task is checked at submit
                                // against the heap blocks and mappings of the program (RegionCheck.hpp)
  unsigned spin_rounds = 4000;  // CSS_SPIN: polls before an idle thread sleeps (0: sleep at once)
  std::uint64_t max_tasks = 100000; // CSS_MAX_TASKS: tasks in flight beyond which the master waits (0: no limit)
  bool stats = false;           // CSS_STATS=1: one css-stats: line at finish
  std::string dag_file;         // CSS_DAG=file.dot
  std::string trace_file;       // CSS_TRACE=file.json
  std::string mpi_net; // CSS_MPI_NET: the MPI layer models the network (runtime/mpi/NetworkModel.hpp)

  // The defaults above, overridden by whatever CSS_* variables are set.
  // Malformed values are a fatal error naming the variable.
  static Config from_environment();

  // The CSS_* variables set in the environment that GPUSs does not read
  // (a typo such as CSS_NUMCPUS), each with the name it most likely meant
  // ("" when none is close).
  struct UnknownVariable {
    std::string name;
    std::string meant;
  };
  static std::vector<UnknownVariable> unknown_variables();

  // Host workers that behave on any machine: every core but the ones the
  // master and the helper keep busy, and never fewer than one.
  static unsigned default_num_cpus();
};

// Parse "123", "4K", "2G", "75%": a byte count, or a share of `total`.
// Returns false on malformed text.
bool parse_memory_size(const std::string &text, std::size_t total, std::size_t &bytes);

// A unit suffix and what it multiplies by.
struct Unit {
  const char *suffix;
  double multiplier;
};
// Parse a non-negative number followed by one of `units` ("" for none, if
// listed). Returns false on malformed text or an unknown unit.
bool parse_quantity(const std::string &text, std::initializer_list<Unit> units, double &value);

} // namespace gpuss
