// ModelDevice: a simulated accelerator that models time instead of
// computing (CSS_SIM_MODEL; see DeviceModel.hpp).
//
// Like a GPU worker it has four in-order engines: fetches from the host on
// `in`, from peers on `peer`, task bodies on `compute`, write-backs on `out`.
// Each command is laid out on them when it arrives, from the model's costs,
// and its completion is reported when the runtime clock reaches the end of
// its last phase. Copies over the host's links also share the host's total
// bandwidth with the other modelled devices (SharedLink).
#include "devices/Device.hpp"
#include "devices/DeviceModel.hpp"
#include "support/Fatal.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "support/StatsCounters.hpp"
#include "support/Trace.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <mutex>
#include <thread>

namespace gpuss {

// One direction of the host's links, shared by every modelled device: a
// fluid model in time buckets. A copy proceeds at its own link's rate while
// the aggregate has capacity left in a bucket, and at what is left
// otherwise, so concurrent copies of several devices share the aggregate
// and later copies fill gaps earlier ones left.
class SharedLink {
public:
  explicit SharedLink(double rate) : rate_(rate) {}

  // When `bytes` sent from `start` at up to `own_rate` arrive. `now` is a
  // lower bound of every later start (buckets before it are forgotten).
  double transfer(double start, double bytes, double own_rate, double now) {
    if (rate_ <= 0) return start + bytes / own_rate;
    std::lock_guard lock(mutex_);
    forget_before(now);
    double t = std::max(start, static_cast<double>(first_) * bucket_seconds);
    // Bucket numbers count on from the first; recomputing them from t would
    // round back into a bucket already full.
    auto bucket = std::max(first_, static_cast<std::size_t>(t / bucket_seconds));
    for (double remaining = bytes;; ++bucket) {
      double &used = used_in(bucket);
      double bucket_end = static_cast<double>(bucket + 1) * bucket_seconds;
      double span = std::max(bucket_end - t, 0.0);
      double sendable = std::min(own_rate * span, std::max(0.0, rate_ * bucket_seconds - used));
      if (sendable > 0 && sendable >= remaining) {
        used += remaining;
        return t + span * remaining / sendable;
      }
      used += sendable;
      remaining -= sendable;
      t = bucket_end;
    }
  }

private:
  static constexpr double bucket_seconds = 50e-6;
  double &used_in(std::size_t bucket) {
    if (bucket >= first_ + used_.size()) used_.resize(bucket - first_ + 1, 0.0);
    return used_[bucket - first_];
  }
  void forget_before(double now) {
    auto bucket = static_cast<std::size_t>(std::max(0.0, now) / bucket_seconds);
    while (first_ < bucket && !used_.empty()) {
      used_.pop_front();
      ++first_;
    }
    if (used_.empty()) first_ = std::max(first_, bucket);
  }
  std::mutex mutex_;
  const double rate_;
  std::size_t first_ = 0;   // bucket number of used_.front(); guarded by mutex_
  std::deque<double> used_; // bytes already carried in each bucket; guarded by mutex_
};

struct HostLinks {
  explicit HostLinks(const DeviceModel &model) : h2d(model.host_h2d), d2h(model.host_d2h) {}
  SharedLink h2d, d2h;
};

namespace {

// Address space for the pool that is never backed: the modelled device
// holds no data, and any access through its addresses faults at once.
class ReservedAddresses {
public:
  explicit ReservedAddresses(std::size_t bytes) : bytes_(std::max<std::size_t>(bytes, 1)) {
    void *base = mmap(nullptr, bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) fatal("cannot reserve " + std::to_string(bytes_) + " bytes of address space");
    base_ = static_cast<std::byte *>(base);
  }
  ~ReservedAddresses() { munmap(base_, bytes_); }
  ReservedAddresses(const ReservedAddresses &) = delete;
  ReservedAddresses &operator=(const ReservedAddresses &) = delete;
  std::byte *base() const { return base_; }

private:
  std::size_t bytes_;
  std::byte *base_ = nullptr;
};

class ModelDevice final : public Device {
public:
  ModelDevice(int space, std::shared_ptr<const DeviceModel> model, std::shared_ptr<HostLinks> links,
              bool launch_by_rank, bool wait_all_fetches)
      : Device(space), model_(std::move(model)), links_(std::move(links)), launch_by_rank_(launch_by_rank),
        wait_all_fetches_(wait_all_fetches) {}
  ~ModelDevice() override { stop(); }

  DeviceKind kind() const override { return DeviceKind::Simulated; }
  std::string name() const override { return "model" + std::to_string(index()); }
  std::size_t total_memory() const override { return model_->memory; }
  double bandwidth_from(int from_space) const override { return from_space == 0 ? model_->h2d : model_->p2p; }
  bool can_copy_from_device(int) const override { return true; }

  void start(std::size_t pool_bytes, WorkerContext context) override {
    context_ = context;
    pool_ = std::make_unique<ReservedAddresses>(pool_bytes);
    thread_ = std::jthread([this] { run(); });
  }
  void stop() override {
    if (!thread_.joinable()) return;
    inbox_.wake_all();
    thread_ = {};
  }
  std::byte *pool_base() const override { return pool_->base(); }
  void submit(DeviceCommand command) override { inbox_.push(Arrival{std::move(command), context_.now()}); }

private:
  struct Arrival {
    DeviceCommand command;
    double at = 0;
  };
  // When copies on one engine ran: [start, end), and what they moved.
  struct CopySpan {
    double start = 0, end = 0;
    std::uint64_t bytes = 0;
  };
  // A command laid out on the engines: when each phase starts and ends.
  struct Timeline {
    DeviceCommand command;
    CopySpan from_host, from_peers, out; // fetches (or a load), and write-backs
    double copies_end = 0;               // when what the task waits for has been copied
    double task_start = 0, task_end = 0, done = 0;
  };
  static bool later(const Timeline &a, const Timeline &b) { return a.done > b.done; }
  static constexpr double device_copy_rate = 1.5e12; // bytes/s

  // When a copy started at `start` on this device's engine ends.
  double copy_done(const Transfer &transfer, double start) {
    double bytes = static_cast<double>(transfer.payload_bytes());
    if (transfer.from_space == 0) return links_->h2d.transfer(start, bytes, model_->h2d, context_.now());
    if (transfer.to_space == 0) return links_->d2h.transfer(start, bytes, model_->d2h, context_.now());
    // An alias copy within the device's own memory: read and written there
    // (an H100's or H200's HBM moves some 3 TB/s; a copy reads and writes).
    if (transfer.from_space == transfer.to_space) return start + bytes / device_copy_rate;
    return start + bytes / model_->p2p;
  }

  // Lays `transfers` for which `take` holds out on the engine free from
  // `engine_free`, in order, from `at` on.
  template <typename Take>
  CopySpan lay_out_copies(const std::vector<Transfer> &transfers, Take take, double at, double &engine_free) {
    CopySpan span;
    span.start = span.end = std::max(at, engine_free);
    for (const Transfer &transfer : transfers)
      if (take(transfer)) {
        span.end = copy_done(transfer, span.end);
        span.bytes += transfer.payload_bytes();
      }
    if (span.bytes) engine_free = span.end;
    return span;
  }

  Timeline lay_out(Arrival arrival) {
    Timeline line;
    DeviceCommand &command = arrival.command;
    auto any = [](const Transfer &) { return true; };
    if (command.is_load()) { // on the host fetch engine, like a task's fetches from the host
      line.from_host = lay_out_copies(command.before, any, arrival.at, in_free_);
      line.done = line.from_host.end;
    } else if (!command.task) { // write-backs, on the out engine
      line.out = lay_out_copies(command.before, any, arrival.at, out_free_);
      line.done = line.out.end;
    } else {
      // Copies from the host and from peers take separate engines, as on a
      // GPU worker. The task waits for everything both engines were given
      // so far, since a value it reads may come from an earlier command's
      // copy, unless it has no copy of its own and reads none still filling
      // (DeviceCommand::after_fetches).
      line.from_host = lay_out_copies(
          command.before, [](const Transfer &t) { return t.from_space == 0 || t.is_alias_copy(); }, arrival.at,
          in_free_);
      line.from_peers = lay_out_copies(
          command.before, [](const Transfer &t) { return t.from_space != 0 && !t.is_alias_copy(); }, arrival.at,
          peer_free_);
      line.copies_end = wait_all_fetches_ || command.after_fetches
                            ? std::max({arrival.at, in_free_, peer_free_})
                            : arrival.at;
      line.command = std::move(command);
      if (!launch_by_rank_) lay_out_task(line, line.copies_end);
      return line;
    }
    line.command = std::move(command);
    return line;
  }

  // The task of `line` on the compute engine, from the later of `ready` and
  // the engine's end of its last task; then its write-backs.
  void lay_out_task(Timeline &line, double ready) {
    line.task_start = std::max(ready, compute_free_);
    compute_free_ = line.task_end = line.task_start + model_->seconds_for(line.command.task->label);
    line.done = line.task_end;
    if (!line.command.after.empty()) {
      line.out = lay_out_copies(
          line.command.after, [](const Transfer &) { return true; }, line.task_end, out_free_);
      line.done = line.out.end;
    }
  }

  // CSS_GPU_LANE_DEPTH (not 0): as a GPU worker launches, the compute
  // engine takes, when it is free, the staged task that goes first among
  // those whose copies have landed (CudaDevice::launch_copied), not the one
  // staged first. Returns the time of the next decision, if one waits.
  double launch_waiting(double now, std::vector<Timeline> &pending) {
    while (!waiting_.empty() && compute_free_ <= now) {
      auto best = waiting_.end();
      for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
        if (it->copies_end > now) continue;
        if (best == waiting_.end() || launches_before(*it->command.task, *best->command.task)) best = it;
      }
      if (best == waiting_.end()) break;
      Timeline line = std::move(*best);
      waiting_.erase(best);
      lay_out_task(line, line.copies_end);
      pending.push_back(std::move(line));
      std::push_heap(pending.begin(), pending.end(), later);
    }
    double next = std::numeric_limits<double>::infinity();
    for (const Timeline &line : waiting_)
      next = std::min(next, std::max(line.copies_end, compute_free_));
    return next;
  }

  void complete(Timeline &line) {
    DeviceCommand &command = line.command;
    Trace &trace = *context_.trace;
    if (command.task) {
      Task &task = *command.task;
      task.start_time = line.task_start;
      task.end_time = line.task_end;
      context_.count_device_task(index(), name(), task);
    }
    if (trace.enabled()) {
      auto record = [&](const char *track, const char *what, const CopySpan &span) {
        if (span.bytes)
          trace.record(name() + track, what, span.start, span.end, span.bytes,
                       command.task ? command.task->traced() : TraceTask{});
      };
      record(" in", command.task ? "fetch" : "load-ahead", line.from_host);
      record(" peer", "fetch", line.from_peers);
      record(" out", "write-back", line.out);
    }
    context_.report_done(command, space());
  }

  void run() {
    release_hooks::Exemption exempt; // a runtime thread: frees only what the runtime owns
    std::vector<Timeline> pending;   // a heap, earliest completion first
    const std::atomic<bool> &stop = *context_.stop;
    for (;;) {
      std::uint32_t ticket = inbox_.prepare();
      Arrival arrival;
      while (inbox_.try_pop(arrival)) {
        const bool task = arrival.command.task != nullptr;
        Timeline line = lay_out(std::move(arrival));
        if (task && launch_by_rank_) {
          waiting_.push_back(std::move(line));
        } else {
          pending.push_back(std::move(line));
          std::push_heap(pending.begin(), pending.end(), later);
        }
        arrival = Arrival{};
      }
      double now = context_.now();
      const double next_launch = launch_waiting(now, pending);
      while (!pending.empty() && pending.front().done <= now) {
        std::pop_heap(pending.begin(), pending.end(), later);
        complete(pending.back());
        pending.pop_back();
      }
      if (pending.empty() && waiting_.empty()) {
        if (stop.load(std::memory_order_acquire)) return;
        inbox_.wait(ticket, context_.spin_rounds);
        continue;
      }
      // Sleep until the next completion or launch, but look at new commands
      // at least every 200 us: a write-back that arrives now may end before it.
      const double next = std::min(pending.empty() ? next_launch : pending.front().done, next_launch);
      double wait = std::clamp(next - now, 0.0, 200e-6);
      std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    }
  }

  std::shared_ptr<const DeviceModel> model_;
  std::shared_ptr<HostLinks> links_;
  WorkerContext context_;
  std::unique_ptr<ReservedAddresses> pool_;
  Inbox<Arrival> inbox_;
  double in_free_ = 0, peer_free_ = 0, compute_free_ = 0, out_free_ = 0; // worker thread only
  const bool launch_by_rank_;                                            // CSS_GPU_LANE_DEPTH not 0
  const bool wait_all_fetches_;                                          // CSS_GPU_WAIT_ALL_FETCHES
  std::vector<Timeline> waiting_; // launch_by_rank_: tasks whose copies are laid out, not their body
  std::jthread thread_;
};

} // namespace

std::vector<std::unique_ptr<Device>> make_model_devices(int first_space, unsigned count,
                                                        const DeviceModel &model, bool launch_by_rank,
                                                        bool wait_all_fetches) {
  auto shared_model = std::make_shared<const DeviceModel>(model);
  auto links = std::make_shared<HostLinks>(model);
  std::vector<std::unique_ptr<Device>> devices;
  for (unsigned i = 0; i < count; ++i)
    devices.push_back(std::make_unique<ModelDevice>(first_space + static_cast<int>(i), shared_model, links,
                                                    launch_by_rank, wait_all_fetches));
  return devices;
}

} // namespace gpuss
