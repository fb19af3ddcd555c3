// TaskBuilder: readable task submission for the runtime tests.
//
//   Task("scale").inout(a, sizeof a).body([&](TaskEnv env) { env.ptr<double>(0)[0] *= 2; }).submit(rt);
//
// A lambda body is moved to the heap; its pointer travels in the packed
// arguments and the trampoline runs and deletes it, so the lambda lives
// exactly as long as the task. Raw function pointers with packed scalars
// (what gpuss-translate emits) go through Task::function().
//
// Also here: the test configurations, quick mode for sanitizer builds, and
// Gate/Flag, the timed rendezvous that turn a missing concurrency into a test
// failure instead of a hang.
#pragma once

#include "support/Config.hpp"
#include "api/Runtime.hpp"
#include "gpuss.h"

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <source_location>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuss::test {

// ---------------------------------------------------------------- quick mode

// Sanitizer builds (and GPUSS_TEST_QUICK=1) run smaller sweeps; GPUSS_TEST_QUICK=0 forces the full ones.
inline bool quick_mode() {
  if (const char *env = std::getenv("GPUSS_TEST_QUICK"); env != nullptr && *env != '\0')
    return std::string(env) != "0";
#if defined(GPUSS_TEST_QUICK_DEFAULT) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

// Built with a sanitizer (GPUSS_SANITIZE): its allocator and timing are not the program's.
inline bool under_sanitizer() {
#ifdef GPUSS_TEST_SANITIZER
  return true;
#else
  return false;
#endif
}

// How long a rendezvous waits before it declares the runtime failed to run
// something concurrently. Generous: a failure costs this much, a pass nothing.
inline std::chrono::milliseconds rendezvous_timeout() {
  return quick_mode() ? std::chrono::milliseconds(20000) : std::chrono::milliseconds(8000);
}

// ---------------------------------------------------------------- configurations

// A host-only configuration: no GPUs, no simulated devices.
inline Config host_config(unsigned num_cpus) {
  Config config;
  config.num_cpus = num_cpus;
  config.num_gpus = 0;
  config.sim_devices = 0;
  config.pin_host = HostPinning::Off;
  return config;
}

// Simulated accelerators in host memory, driven by the real cache and directory.
inline Config sim_config(unsigned num_cpus, unsigned sim_devices, CachePolicy policy = CachePolicy::WriteBack,
                         std::string device_memory = "1M", std::string scheduler = "locality") {
  Config config = host_config(num_cpus);
  config.sim_devices = sim_devices;
  config.cache_policy = policy;
  config.device_memory = std::move(device_memory);
  config.scheduler = std::move(scheduler);
  return config;
}

// "cpus2_sim3_wb_8K_locality": a name usable in a parameterized test's name.
inline std::string config_name(const Config &config) {
  std::string name = "cpus" + std::to_string(config.num_cpus);
  if (config.sim_devices == 0) return name + "_host";
  name += "_sim" + std::to_string(config.sim_devices) + "_" + gpuss::to_string(config.cache_policy) + "_";
  for (char c : config.device_memory)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  name += "_";
  for (char c : config.scheduler)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

} // namespace gpuss::test

namespace gpuss {
// How GoogleTest prints a Config parameter (instead of its bytes).
inline void PrintTo(const Config &config, std::ostream *os) {
  *os << test::config_name(config);
}
} // namespace gpuss

namespace gpuss::test {

// ---------------------------------------------------------------- rendezvous

// Task bodies record their ids here as they start, and the thread that ran
// each: the order a test's tasks ran in. Any thread.
struct Log {
  std::mutex mutex;
  std::vector<int> order;                 // ids in the order the bodies started
  std::vector<std::thread::id> worker_of; // the thread that ran each, in the same order
  void record(int id) {
    std::lock_guard lock(mutex);
    order.push_back(id);
    worker_of.push_back(std::this_thread::get_id());
  }
};

// A gate that a task body waits at until the master opens it. Waiting gives
// up after rendezvous_timeout() and returns false. A body that runs on the
// master thread (the runtime ran it inside submit) could never see the master
// open the gate, so wait() fails at once there instead of stalling the test.
class Gate {
public:
  // Master thread.
  Gate() : master_(std::this_thread::get_id()) {}

  // Master thread.
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

  // Any thread (task bodies). True once opened, false on timeout or when on the master thread.
  bool wait() {
    if (std::this_thread::get_id() == master_) {
      std::lock_guard lock(mutex_);
      ran_on_master_ = true;
      return open_;
    }
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, rendezvous_timeout(), [&] { return open_; });
  }

  // Any thread.
  bool ran_on_master() const {
    std::lock_guard lock(mutex_);
    return ran_on_master_;
  }

private:
  std::thread::id master_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
  bool ran_on_master_ = false;
};

// A one-shot event: set by one thread, awaited (with a timeout) by another.
class Flag {
public:
  void set() {
    std::lock_guard lock(mutex_);
    set_ = true;
    changed_.notify_all();
  }
  bool is_set() const {
    std::lock_guard lock(mutex_);
    return set_;
  }
  // False on timeout.
  bool wait(std::chrono::milliseconds timeout = rendezvous_timeout()) const {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return set_; });
  }

private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  bool set_ = false;
};

// `parties` task bodies meet here; arrive() returns true once all have
// arrived, false when the others did not come within the timeout (the
// runtime did not run them concurrently).
class Rendezvous {
public:
  explicit Rendezvous(unsigned parties) : parties_(parties) {}
  bool arrive() {
    std::unique_lock lock(mutex_);
    if (++arrived_ >= parties_) {
      changed_.notify_all();
      return true;
    }
    return changed_.wait_for(lock, rendezvous_timeout(), [&] { return arrived_ >= parties_; });
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  unsigned parties_;
  unsigned arrived_ = 0;
};

// ---------------------------------------------------------------- task bodies

// What a lambda body sees: the env, with typed access to each access's data.
class TaskEnv {
public:
  explicit TaskEnv(const css_task_env &env) : env_(&env) {}
  template <class T = void> T *ptr(std::uint32_t index) const {
    return static_cast<T *>(env_->addresses[index]);
  }
  // Element (row, column) of a strided access, as T, where the body finds it.
  template <class T> T &at(std::uint32_t index, std::size_t row, std::size_t column) const {
    const css_region &region = env_->accesses[index].region;
    auto *base = static_cast<std::byte *>(env_->addresses[index]);
    return *reinterpret_cast<T *>(base + row * region.stride + column * sizeof(T));
  }
  const css_task_env &raw() const { return *env_; }
  std::uint32_t size() const { return env_->num_accesses; }
  int device_index() const { return env_->device_index; }
  // Whether access `index` runs on a copy (renamed buffer or device memory).
  bool relocated(std::uint32_t index) const {
    return env_->addresses[index] != env_->accesses[index].region.base;
  }

private:
  const css_task_env *env_;
};

using LambdaBody = std::function<void(TaskEnv)>;

namespace detail {
inline void lambda_trampoline(void *args, const css_task_env *env) {
  LambdaBody *body = nullptr;
  std::memcpy(&body, args, sizeof body);
  std::unique_ptr<LambdaBody> owned(body);
  (*owned)(TaskEnv(*env));
}
} // namespace detail

// Builds one css_task_desc. The source location defaults to the line that
// creates the Task, which is what misuse messages must name.
class Task {
public:
  explicit Task(const char *label, std::source_location where = std::source_location::current())
      : label_(label), file_(where.file_name()), line_(static_cast<int>(where.line())) {}

  // `group`: accesses with the same nonzero group are regions the body
  // reaches through one pointer (css_access::group).
  Task &access(css_region region, css_direction direction, std::uint32_t copy = CSS_COPY_DEFAULT,
               std::uint32_t group = 0) {
    accesses_.push_back(css_access{region, static_cast<std::uint32_t>(direction), copy, group});
    return *this;
  }
  Task &in(const void *base, std::size_t bytes) { return access(css_contiguous(base, bytes), CSS_IN); }
  Task &out(void *base, std::size_t bytes) { return access(css_contiguous(base, bytes), CSS_OUT); }
  Task &inout(void *base, std::size_t bytes) { return access(css_contiguous(base, bytes), CSS_INOUT); }
  // `rows` runs of `row_bytes` bytes, `stride` bytes apart.
  Task &strided(css_direction direction, const void *base, std::size_t row_bytes, std::size_t rows,
                std::size_t stride) {
    return access(css_region{const_cast<void *>(base), row_bytes, rows, stride}, direction);
  }
  template <class T> Task &in(const T &object) { return in(&object, sizeof object); }
  template <class T> Task &out(T &object) { return out(&object, sizeof object); }
  template <class T> Task &inout(T &object) { return inout(&object, sizeof object); }

  Task &high_priority() {
    flags_ |= CSS_TASK_HIGH_PRIORITY;
    return *this;
  }
  Task &device(css_device_kind kind) {
    device_kind_ = kind;
    return *this;
  }
  Task &abi_version(std::uint32_t version) {
    abi_version_ = version;
    return *this;
  }

  // A lambda body.
  Task &body(LambdaBody body) {
    auto *owned = new LambdaBody(std::move(body));
    args_.resize(sizeof owned);
    std::memcpy(args_.data(), &owned, sizeof owned);
    body_ = detail::lambda_trampoline;
    return *this;
  }

  // A plain C body with trivially copyable packed arguments (passed by value).
  template <class Args> Task &function(css_task_body body, const Args &args) {
    static_assert(std::is_trivially_copyable_v<Args>);
    args_.resize(sizeof args);
    std::memcpy(args_.data(), &args, sizeof args);
    body_ = body;
    return *this;
  }
  Task &function(css_task_body body) {
    args_.clear();
    body_ = body;
    return *this;
  }

  // Valid while this Task lives (the runtime copies what it keeps).
  css_task_desc desc() const {
    css_task_desc desc{};
    desc.abi_version = abi_version_;
    desc.device_kind = device_kind_;
    desc.flags = flags_;
    desc.num_accesses = static_cast<std::uint32_t>(accesses_.size());
    desc.accesses = accesses_.empty() ? nullptr : accesses_.data();
    desc.body = body_ != nullptr ? body_ : &nothing;
    desc.args = args_.empty() ? nullptr : args_.data();
    desc.args_size = args_.size();
    desc.label = label_;
    desc.file = file_;
    desc.line = line_;
    return desc;
  }

  void submit(Runtime &runtime) const { runtime.submit(desc()); }
  // Through the C API (the process-wide runtime).
  void submit_c() const {
    css_task_desc d = desc();
    css_submit(&d);
  }

  const char *file() const { return file_; }
  int line() const { return line_; }

private:
  static void nothing(void *, const css_task_env *) {}

  const char *label_;
  const char *file_;
  int line_;
  std::uint32_t abi_version_ = GPUSS_ABI_VERSION;
  std::uint32_t device_kind_ = CSS_DEVICE_SMP;
  std::uint32_t flags_ = 0;
  std::vector<css_access> accesses_;
  std::vector<unsigned char> args_;
  css_task_body body_ = nullptr;
};

// Escapes a string for use inside a POSIX extended regular expression (EXPECT_DEATH).
inline std::string regex_escape(const std::string &text) {
  std::string escaped;
  for (char c : text) {
    if (std::strchr(".^$|()[]{}*+?\\", c) != nullptr) escaped += '\\';
    escaped += c;
  }
  return escaped;
}

// Calls `condition` every millisecond until it holds, or fails the test
// naming `what` after `limit`.
template <class Condition>
void wait_until(Condition condition, const char *what,
                std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << what << ": not within " << limit.count() << " s";
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Enters the barrier and, from another thread, calls `open` once the
// scheduler has put the barrier's ranks in force (StatsSnapshot::rankings)
// and `settled` holds: for tests whose first task waits (a Gate, a Flag)
// until the graph is ranked, so that the whole graph runs with its ranks.
// Where nothing is ranked (CSS_CRITICAL_PATH=0, or no accelerators) it
// opens `unranked_delay` after the barrier starts. It waited a fixed 200 ms
// until 2026-11-29, a guess that a loaded CI machine under TSan once beat.
template <class Open, class Settled = bool (*)()>
void barrier_then_open(
    Runtime &runtime, Open open, Settled settled = [] { return true; },
    std::chrono::milliseconds unranked_delay = std::chrono::milliseconds(200)) {
  const std::uint64_t rankings_before = runtime.stats().rankings;
  std::thread opener([&] {
    const bool ranks =
        runtime.config().critical_path && runtime.body_threads() > 1 + runtime.config().num_cpus;
    if (ranks)
      wait_until([&] { return runtime.stats().rankings != rankings_before; },
                 "the barrier's ranks put in force");
    else
      std::this_thread::sleep_for(unranked_delay);
    wait_until(settled, "the test's condition for opening");
    open();
  });
  runtime.barrier();
  opener.join();
}

} // namespace gpuss::test
