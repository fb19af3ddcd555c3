// Device: an accelerator as the runtime sees it: a memory space with a pool
// (a MemoryNode to the directory), a worker thread that runs staged tasks,
// and a copy engine.
//
// The directory decides what moves where (Directory, SoftwareCache), and the
// helper alone sends a device its commands; a device's own worker performs
// every operation that touches that device, so only that thread makes its
// CUDA calls. Three implementations: SimDevice (memory in
// the host, synchronous copies, host task bodies), ModelDevice (no data:
// time from a model, CSS_SIM_MODEL) and CudaDevice.
#pragma once

#include "memory/DataObject.hpp"
#include "memory/MemoryNode.hpp"
#include "support/Queues.hpp"
#include "graph/Task.hpp"
#include "memory/Transfer.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpuss {

struct Stats;
class Trace;
class NestedTasks;

// What the helper sends a device worker.
// The order in which a device launches the staged tasks whose copies have
// landed (CSS_GPU_LANE_DEPTH): the helper's own, a task that goes first
// (goes_first) before the others, then the higher rank; the caller keeps
// the older among equals.
inline bool launches_before(const Task &a, const Task &b) {
  if (a.goes_first != b.goes_first) return a.goes_first;
  return a.rank.load(std::memory_order_relaxed) > b.rank.load(std::memory_order_relaxed);
}

struct DeviceCommand {
  TaskRef task;                  // null for a transfer-only command
  std::vector<void *> addresses; // per access: where the body finds its data
  std::vector<Transfer> before;  // fetches into this device, before the task
  std::vector<Transfer> after;   // write-backs, after the task (wt, nocache)
  // A task that neither copies in (`before` empty) nor uses a copy still
  // filling (TaskPlan::reads_fills) does not wait for the fetches issued
  // before it on its device (CSS_GPU_WAIT_ALL_FETCHES=0).
  bool after_fetches = true;

  // A transfer-only command either loads values into this device ahead of
  // its tasks, or writes values back to the host. Loads go on the fetch
  // engine: it is in order, so a task staged after a load finds the value
  // there without waiting for the load's completion to be reported.
  bool is_load() const { return !task && !before.empty() && before.front().to_space != 0; }
};

// Where a worker reports, and the runtime services it may use.
struct WorkerContext {
  BatchQueue<Completion> *completions = nullptr;
  WakeSignal *helper_signal = nullptr;
  Stats *stats = nullptr;
  Trace *trace = nullptr;
  std::atomic<bool> *stop = nullptr;
  double (*clock)(const void *) = nullptr; // seconds since runtime start
  const void *clock_arg = nullptr;
  unsigned spin_rounds = 0;
  NestedTasks *nested = nullptr; // tasks a body calls run inline on devices (NestedTasks.hpp)
  bool check_inputs = false;     // CSS_CHECK_REGIONS: bodies must not write their inputs (InputCheck.hpp)
  double now() const { return clock(clock_arg); }
  void report(Completion completion) const {
    completions->push(std::move(completion));
    helper_signal->notify();
  }
  // A device ran `task` between its start_time and end_time: count it in
  // the stats and draw it on `track` of the trace.
  void count_device_task(int device_index, const std::string &track, const Task &task) const;
  // Reports `command` done in `space`, with all its transfers.
  void report_done(DeviceCommand &command, int space) const;
};

enum class DeviceKind { Simulated, Cuda };

class Device : public MemoryNode {
public:
  int space() const { return space_; }
  int index() const { return space_ - 1; }
  virtual DeviceKind kind() const = 0;
  // Bytes of device memory, for percentages in CSS_GPU_MEMORY.
  virtual std::size_t total_memory() const = 0;
  // Estimated bandwidth, bytes per second, of a copy from `from_space`.
  virtual double bandwidth_from(int from_space) const = 0;

  // Starts the worker thread, which allocates `pool_bytes` of device memory.
  // Returns once the pool exists; pool_base() is then valid.
  virtual void start(std::size_t pool_bytes, WorkerContext context) = 0;
  // Asks the worker to finish what it has and exit; joins it.
  virtual void stop() = 0;
  virtual std::byte *pool_base() const = 0;

  // Helper thread: hand a command to the worker.
  virtual void submit(DeviceCommand command) = 0;


protected:
  explicit Device(int space) : space_(space) {}

private:
  int space_;
};

std::unique_ptr<Device> make_sim_device(int space);

struct DeviceModel;
// `count` simulated devices that model time instead of computing (CSS_SIM_MODEL).
// `launch_by_rank`: their compute engine takes the staged task that goes
// first among those whose copies have landed, as a GPU worker launches with
// a lane depth (CSS_GPU_LANE_DEPTH); else the tasks in the order staged.
// `wait_all_fetches`: every task waits for all the fetches laid out before
// it, as a GPU worker did before CSS_GPU_WAIT_ALL_FETCHES=0; else one that
// neither copies in nor reads a copy still filling does not.
std::vector<std::unique_ptr<Device>> make_model_devices(int first_space, unsigned count,
                                                        const DeviceModel &model, bool launch_by_rank,
                                                        bool wait_all_fetches);

class PageLocks;
class PageLocker;
class CopyThreads;
struct NodeRanks;

// How each GPU device copies and computes.
struct CudaDeviceOptions {
  // Contiguous memory not locked yet is copied as it is (strided regions are
  // locked first): CSS_UNLOCKED_COPIES.
  bool copy_unlocked_pageable = false;
  // Compute streams ("lanes") that tasks take in turn: CSS_GPU_STREAMS.
  unsigned compute_streams = 3;
  // One more lane, of the device's highest stream priority, for the tasks the
  // helper runs ahead of others (Task::goes_first): CSS_GPU_PRIORITY_LANE.
  bool priority_lane = false;
  // Tasks launched at once per lane, the highest-ranked whose copies have
  // landed first; 0: each staged task as soon as its copies are issued, in
  // the order staged (CSS_GPU_LANE_DEPTH).
  unsigned lane_depth = 0;
  // Every task waits for all the fetches issued before it on its device,
  // its own or not (CSS_GPU_WAIT_ALL_FETCHES, DeviceCommand::after_fetches).
  bool wait_all_fetches = false;
  // Copies within device memory (alias copies) on a stream of the device's
  // highest priority, in one order with the copies in (CSS_GPU_ALIAS_PRIORITY).
  bool alias_priority = true;
};

// The CUDA devices present (empty without CUDA support or GPUs): of the
// GPUs this process's place in its node gives it (`node`, GpuSharing.hpp),
// the first `max_gpus` (negative: all), each appearing as `partitions`
// devices (CSS_GPU_PARTITIONS) with consecutive spaces from `first_space`.
// Their copies of host memory go through `page_locks` (null: pageable
// copies), which must outlive them; what is not locked yet they copy through
// staging buffers filled by `copy_threads` (null: they lock it first;
// StagedCopies.hpp), or as it is (`options`).
std::vector<std::unique_ptr<Device>> make_cuda_devices(int first_space, int max_gpus, unsigned partitions,
                                                       PageLocks *page_locks, CopyThreads *copy_threads,
                                                       const CudaDeviceOptions &options, NodeRanks node);
int cuda_device_count();
// Locks pages with cudaHostRegister (null without CUDA support).
std::unique_ptr<PageLocker> make_cuda_page_locker();

} // namespace gpuss
