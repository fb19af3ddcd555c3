// SimDevice: an accelerator simulated in host memory (CSS_SIM_DEVICES).
//
// It has a memory space of its own, so the cache, the directory, the
// coherence policies and the dispatch run exactly as for a GPU, and it runs
// host task bodies on its data. Freed blocks are poisoned so that a task
// reading a stale or never-fetched copy computes garbage a test can see.
// With CSS_DEVICE_GUARD, every block has poisoned guard zones around its
// replica, checked after each task: a task that wrote outside its own data
// ends the run with an error naming it. A copy between user memory and the
// device that faults (a region past the end of its allocation) is reported
// against its task (FaultReports.hpp).
#include "devices/CpuWorkers.hpp"
#include "devices/Device.hpp"
#include "support/Fatal.hpp"
#include "devices/FaultReports.hpp"
#include "devices/InputCheck.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "graph/NestedTasks.hpp"
#include "support/StatsCounters.hpp"
#include "support/Trace.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

namespace gpuss {

namespace {

constexpr std::size_t simulated_memory = std::size_t{256} << 20;
constexpr unsigned char poison_byte = 0xDB;

class SimDevice final : public Device {
public:
  explicit SimDevice(int space) : Device(space), name_("sim" + std::to_string(index())) {}
  ~SimDevice() override { stop(); }

  DeviceKind kind() const override { return DeviceKind::Simulated; }
  std::string name() const override { return name_; }
  std::size_t total_memory() const override { return simulated_memory; }
  double bandwidth_from(int from_space) const override { return from_space == 0 ? 10e9 : 40e9; }
  bool can_copy_from_device(int) const override { return true; }

  void start(std::size_t pool_bytes, WorkerContext context) override {
    context_ = context;
    // calloc maps pages lazily, so a large simulated memory costs only what is used.
    pool_.reset(static_cast<std::byte *>(std::calloc(pool_bytes ? pool_bytes : 1, 1)));
    if (!pool_)
      fatal("cannot allocate " + std::to_string(pool_bytes) + " bytes for simulated device " + name());
    thread_ = std::jthread([this] { run(); });
  }

  void stop() override {
    if (!thread_.joinable()) return;
    inbox_.wake_all();
    thread_ = {};
  }

  std::byte *pool_base() const override { return pool_.get(); }
  void submit(DeviceCommand command) override { inbox_.push(std::move(command)); }
  // Helper thread. The whole reservation, guard zones included.
  void block_allocated(const DeviceBlock &block) override {
    std::lock_guard lock(blocks_mutex_);
    std::memset(reservation(block), poison_byte, block.bytes);
    if (has_guard(block)) blocks_.emplace(block.offset, block);
  }
  void block_released(const DeviceBlock &block) override {
    std::lock_guard lock(blocks_mutex_);
    std::memset(reservation(block), poison_byte, block.bytes);
    blocks_.erase(block.offset);
  }

private:
  struct FreeDeleter {
    void operator()(std::byte *p) const { std::free(p); }
  };

  std::byte *reservation(const DeviceBlock &block) const { return pool_.get() + block.offset; }
  static bool has_guard(const DeviceBlock &block) { return block.bytes > block.usable; }

  // Worker thread, after `task` ran with its data at `addresses`: the guard
  // zones of the blocks its data lies in still hold poison. Only those: a
  // body that writes outside its data reaches its own blocks' guards first,
  // and looking at every block after every task took time in proportion to
  // the replicas held (200,000 independent tasks on one simulated device:
  // 100-270 microseconds a task against 4 below 50,000).
  void check_guards(const Task &task, const std::vector<void *> &addresses) {
    std::lock_guard lock(blocks_mutex_);
    const auto base = reinterpret_cast<std::uintptr_t>(pool_.get());
    for (void *address : addresses) {
      const auto at = reinterpret_cast<std::uintptr_t>(address);
      if (at < base) continue; // none (an access with no data), or not in the pool
      const std::size_t offset = at - base;
      auto after = blocks_.upper_bound(offset);
      if (after == blocks_.begin()) continue;
      const DeviceBlock &block = std::prev(after)->second;
      if (offset < block.offset + block.bytes) check_guard(task, block);
    }
  }

  // blocks_mutex_ held.
  void check_guard(const Task &task, const DeviceBlock &block) {
    const std::byte *start = reservation(block), *end = start + block.bytes;
    const std::byte *inside = block.address, *after = block.address + block.usable;
    auto written = [](std::byte b) { return b != std::byte{poison_byte}; };
    std::string reach;
    if (const std::byte *first = std::find_if(start, inside, written); first != inside)
      reach = "up to " + std::to_string(inside - first) + " bytes before the start";
    else if (auto last =
                 std::find_if(std::make_reverse_iterator(end), std::make_reverse_iterator(after), written);
             last != std::make_reverse_iterator(after))
      reach = "up to " + std::to_string(&*last - after + 1) + " bytes past the end";
    if (!reach.empty())
      fatal_for_task(task.label, task.file, task.line,
                     "wrote outside its data on " + name() + ": " + reach + " of a replica of " +
                         std::to_string(block.usable) +
                         " bytes (CSS_DEVICE_GUARD); check its regions against what its body touches");
  }

  // `task`: the task whose command this is (null for write-backs and loads
  // ahead, which the task that made the object stands for).
  void copy(const Transfer &transfer, const Task *task) {
    double start = context_.now();
    const bool from_host = transfer.from_space == 0, to_host = transfer.to_space == 0;
    const DataObject &object = *transfer.object;
    faults::Activity copying =
        faults::Activity::copy(task ? task->label : object.first_label, task ? task->file : object.first_file,
                               task ? task->line : object.first_line, from_host ? "the host" : name_.c_str(),
                               to_host ? "the host" : name_.c_str());
    transfer.for_each_piece([&](std::size_t offset, const Region &shape) {
      // Only host memory can fault: device memory is the runtime's pool.
      if (!from_host && !to_host) {
        copy_region_bytes(transfer.destination + offset, transfer.source + offset, shape);
        return;
      }
      copying.region = shape;
      copying.host =
          reinterpret_cast<std::uintptr_t>((from_host ? transfer.source : transfer.destination) + offset);
      faults::Scope scope(copying);
      copy_region_bytes(transfer.destination + offset, transfer.source + offset, shape);
    });
    if (context_.trace->enabled())
      context_.trace->record(name() + (transfer.to_space == space() ? " copy-in" : " copy-out"), "copy",
                             start, context_.now(), transfer.payload_bytes(),
                             task ? task->traced() : TraceTask{});
  }

  void run() {
    release_hooks::Exemption exempt; // a runtime thread: frees only what the runtime owns
    faults::AlternateStack signal_stack;
    DeviceCommand command;
    while (inbox_.pop(command, *context_.stop, context_.spin_rounds)) {
      for (Transfer &transfer : command.before)
        copy(transfer, command.task.get());
      if (command.task) {
        Task &task = *command.task;
        task.start_time = context_.now();
        {
          faults::Activity body = faults::Activity::body(task.label, task.file, task.line, name_.c_str());
          faults::Scope in_body(body);
          RunningScope running({&task, &command.addresses, context_.nested, false, 0});
          std::optional<InputCheck> inputs;
          if (context_.check_inputs) inputs.emplace(task, command.addresses);
          run_task_body(task, command.addresses, CSS_DEVICE_SMP, index(), nullptr, nullptr);
          if (inputs) inputs->verify();
        }
        task.end_time = context_.now();
        check_guards(task, command.addresses);
        context_.count_device_task(index(), name(), task);
      }
      for (Transfer &transfer : command.after)
        copy(transfer, command.task.get());
      context_.report_done(command, space());
      command = DeviceCommand{};
    }
  }

  const std::string name_; // for fault reports, which must not allocate
  WorkerContext context_;
  std::mutex blocks_mutex_;
  std::map<std::size_t, DeviceBlock> blocks_; // blocks with guard zones, by offset; guarded by blocks_mutex_
  std::unique_ptr<std::byte, FreeDeleter> pool_;
  Inbox<DeviceCommand> inbox_;
  std::jthread thread_;
};

} // namespace

std::unique_ptr<Device> make_sim_device(int space) {
  return std::make_unique<SimDevice>(space);
}

} // namespace gpuss
