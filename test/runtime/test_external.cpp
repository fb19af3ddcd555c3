// External tasks (ExternalTasks.hpp): the hook the MPI layer's sends and
// receives use. The runtime orders them by their regions like any task, makes
// their data current in host memory, hands them to an executor instead of a
// worker, and completes them when the executor says so, from any thread.
//
// Swept over host workers (where workers release successors themselves) and
// simulated devices (where the helper brings device values home first), with
// one host worker or none: an external task that waits holds no worker.
#include "devices/ExternalTasks.hpp"
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace gpuss::test {
namespace {

constexpr int N = 64;
using Block = std::array<int, N>;

std::atomic<int> external_bodies_run{0};
void external_body(void *, const css_task_env *) {
  external_bodies_run.fetch_add(1);
}

// Starts nothing itself: keeps what the helper hands over until the test
// completes it, from a thread of its own.
class HeldExecutor final : public ExternalExecutor {
public:
  ~HeldExecutor() {
    for (std::thread &thread : completers_)
      thread.join();
  }
  void start(ExternalTask task) override {
    std::lock_guard lock(mutex_);
    started_.push_back(std::move(task));
    changed_.notify_all();
  }
  // Master: true once `count` tasks have been handed over.
  bool wait_started(std::size_t count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, rendezvous_timeout(), [&] { return started_.size() >= count; });
  }
  std::size_t started() {
    std::lock_guard lock(mutex_);
    return started_.size();
  }
  // Completes the `index`th task handed over, on another thread, after
  // `work` has run there on it (a receive's arrival, say).
  void complete(std::size_t index, std::function<void(ExternalTask &)> work = {}) {
    ExternalTask task = take(index);
    completers_.emplace_back([task = std::move(task), work = std::move(work)]() mutable {
      if (work) work(task);
      task.complete(sizeof(Block));
    });
  }
  // The first int of the `index`th task's data, where the executor finds it.
  int first_value(std::size_t index) {
    std::lock_guard lock(mutex_);
    return *static_cast<const int *>(started_.at(index).address(0));
  }

private:
  ExternalTask take(std::size_t index) {
    std::lock_guard lock(mutex_);
    return std::move(started_.at(index));
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ExternalTask> started_; // completed ones are left moved-from
  std::vector<std::thread> completers_;
};

class External : public ::testing::TestWithParam<Config> {
protected:
  void SetUp() override { external_bodies_run = 0; }
  void TearDown() override {
    EXPECT_EQ(external_bodies_run.load(), 0) << "a worker ran an external task's body";
  }
};

// A send: after the writer of what it reads, before the next writer.
TEST_P(External, ReadsAfterTheWriterAndTheNextWriterWaitsForIt) {
  HeldExecutor executor;
  Block data{};
  std::atomic<bool> next_writer_ran{false};
  {
    Runtime runtime(GetParam());
    Task("writer").out(data).body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 5); }).submit(runtime);
    css_access access{css_contiguous(data.data(), sizeof data), CSS_IN, CSS_COPY_DEFAULT, 0};
    css_task_desc desc{GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0, 1, &access, external_body, nullptr, 0, "send",
                       __FILE__,          __LINE__};
    runtime.submit_external(desc, executor);
    Task("next_writer")
        .inout(data)
        .body([&](TaskEnv env) {
          env.ptr<int>(0)[0] += 1;
          next_writer_ran = true;
        })
        .submit(runtime);
    ASSERT_TRUE(executor.wait_started(1)) << "the external task was never started";
    EXPECT_EQ(executor.first_value(0), 5) << "started before its data was current in host memory";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(next_writer_ran.load()) << "the next writer ran while the external reader was unfinished";
    executor.complete(0);
    runtime.barrier();
    EXPECT_TRUE(next_writer_ran.load());
    EXPECT_EQ(data[0], 6);
    EXPECT_EQ(data[1], 5);
    EXPECT_EQ(runtime.stats().tasks, 2u) << "external tasks are not the program's tasks";
  }
}

// A receive: its readers wait for it; while it waits, other tasks run, on
// the one host worker or the devices.
TEST_P(External, ItsReadersWaitAndOtherTasksRunMeanwhile) {
  HeldExecutor executor;
  Block data{}, other{};
  int reader_saw = -1;
  Flag unrelated_ran;
  {
    Runtime runtime(GetParam());
    Task("old_value").out(data).body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 1); }).submit(runtime);
    Task("old_reader").in(data).body([](TaskEnv) {}).submit(runtime);
    css_access access{css_contiguous(data.data(), sizeof data), CSS_OUT, CSS_COPY_DEFAULT, 0};
    css_task_desc desc{GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0, 1, &access, external_body, nullptr, 0, "recv",
                       __FILE__,          __LINE__};
    runtime.submit_external(desc, executor);
    Task("reader").in(data).body([&](TaskEnv env) { reader_saw = env.ptr<int>(0)[N - 1]; }).submit(runtime);
    Task("unrelated").inout(other).body([&](TaskEnv) { unrelated_ran.set(); }).submit(runtime);
    ASSERT_TRUE(executor.wait_started(1)) << "the external task was never started";
    EXPECT_TRUE(unrelated_ran.wait()) << "a waiting external task held the only worker";
    EXPECT_EQ(reader_saw, -1) << "a reader ran before the external writer finished";
    executor.complete(0, [](ExternalTask &task) {
      std::fill_n(static_cast<int *>(task.address(0)), N, 9); // the message arrives
    });
    runtime.barrier();
  }
  EXPECT_EQ(reader_saw, 9);
  EXPECT_EQ(data[0], 9);
}

// Many at once, completed in reverse order: none takes a worker's place, so
// the tasks behind them still run.
TEST_P(External, ManyOutstandingHoldNoWorkerPlaces) {
  HeldExecutor executor;
  constexpr int count = 40;
  std::vector<Block> received(count), local(count);
  {
    Runtime runtime(GetParam());
    for (int i = 0; i < count; ++i) {
      css_access access{css_contiguous(received[i].data(), sizeof(Block)), CSS_OUT, CSS_COPY_DEFAULT, 0};
      css_task_desc desc{GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0, 1, &access, external_body, nullptr, 0, "recv",
                         __FILE__,          __LINE__};
      runtime.submit_external(desc, executor);
    }
    std::atomic<int> ran{0};
    for (int i = 0; i < count; ++i)
      Task("local").inout(local[i]).body([&](TaskEnv) { ran.fetch_add(1); }).submit(runtime);
    ASSERT_TRUE(executor.wait_started(count));
    for (int spins = 0; ran.load() < count && spins < 800; ++spins)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(ran.load(), count) << "tasks waited behind unfinished external tasks";
    for (int i = count - 1; i >= 0; --i)
      executor.complete(static_cast<std::size_t>(i),
                        [i](ExternalTask &task) { static_cast<int *>(task.address(0))[0] = i; });
    runtime.barrier();
  }
  for (int i = 0; i < count; ++i)
    EXPECT_EQ(received[i][0], i);
}

// A value a device left dirty goes home before the executor reads it, and
// one the executor writes replaces the devices' copies.
TEST_P(External, DeviceValuesGoHomeFirstAndWritesDropDeviceCopies) {
  HeldExecutor executor;
  Block data{};
  int device_reader_saw = -1;
  {
    Runtime runtime(GetParam());
    Task("on_device").out(data).body([](TaskEnv env) { std::fill_n(env.ptr<int>(0), N, 3); }).submit(runtime);
    css_access send{css_contiguous(data.data(), sizeof data), CSS_IN, CSS_COPY_DEFAULT, 0};
    css_task_desc send_desc{GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0, 1, &send, external_body, nullptr, 0, "send",
                            __FILE__,          __LINE__};
    runtime.submit_external(send_desc, executor);
    ASSERT_TRUE(executor.wait_started(1));
    EXPECT_EQ(executor.first_value(0), 3);
    executor.complete(0);
    css_access recv{css_contiguous(data.data(), sizeof data), CSS_INOUT, CSS_COPY_DEFAULT, 0};
    css_task_desc recv_desc{GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0, 1, &recv, external_body, nullptr, 0, "recv",
                            __FILE__,          __LINE__};
    runtime.submit_external(recv_desc, executor);
    Task("reader")
        .in(data)
        .body([&](TaskEnv env) { device_reader_saw = env.ptr<int>(0)[0]; })
        .submit(runtime);
    ASSERT_TRUE(executor.wait_started(2));
    executor.complete(1, [](ExternalTask &task) { static_cast<int *>(task.address(0))[0] = 8; });
    runtime.barrier();
  }
  EXPECT_EQ(device_reader_saw, 8) << "a task read a device copy older than the external task's write";
  EXPECT_EQ(data[0], 8);
  EXPECT_EQ(data[1], 3);
}

std::vector<Config> configs() {
  Config none = sim_config(0, 2, CachePolicy::WriteBack);
  return {host_config(1),
          host_config(2),
          sim_config(1, 1, CachePolicy::WriteBack),
          sim_config(1, 2, CachePolicy::WriteThrough),
          sim_config(1, 2, CachePolicy::NoCache),
          none};
}

INSTANTIATE_TEST_SUITE_P(Configs, External, ::testing::ValuesIn(configs()),
                         [](const auto &info) { return config_name(info.param); });

} // namespace
} // namespace gpuss::test
