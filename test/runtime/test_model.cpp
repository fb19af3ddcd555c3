// Modelled devices (CSS_SIM_MODEL): the spec's parsing, and that a modelled
// device takes the model's time for tasks and copies without running bodies.
#include "devices/DeviceModel.hpp"
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <numeric>

namespace gpuss::test {
namespace {

TEST(DeviceModelSpec, ParsesTasksRatesAndMemory) {
  std::string error;
  auto model = DeviceModel::parse("chol_dgemm=318us,potrf=1.3ms,slow=2,fast=500ns,default=10us,h2d=53G,"
                                  "d2h=50G,p2p=150G,host_h2d=167G,host_d2h=160G,memory=130G",
                                  error);
  ASSERT_TRUE(model) << error;
  EXPECT_DOUBLE_EQ(model->seconds_for("chol_dgemm"), 318e-6);
  EXPECT_DOUBLE_EQ(model->seconds_for("potrf"), 1.3e-3);
  EXPECT_DOUBLE_EQ(model->seconds_for("slow"), 2.0);
  EXPECT_DOUBLE_EQ(model->seconds_for("fast"), 500e-9);
  EXPECT_DOUBLE_EQ(model->seconds_for("unlisted"), 10e-6);
  EXPECT_DOUBLE_EQ(model->h2d, 53e9);
  EXPECT_DOUBLE_EQ(model->d2h, 50e9);
  EXPECT_DOUBLE_EQ(model->p2p, 150e9);
  EXPECT_DOUBLE_EQ(model->host_h2d, 167e9);
  EXPECT_DOUBLE_EQ(model->host_d2h, 160e9);
  EXPECT_EQ(model->memory, std::size_t{130} << 30);
}

TEST(DeviceModelSpec, RejectsMalformedItemsAndSaysWhich) {
  for (const char *spec :
       {"gemm", "=1ms", "gemm=fast", "gemm=-1ms", "h2d=0", "p2p=10T", "memory=50%", "x=1h"}) {
    std::string error;
    EXPECT_FALSE(DeviceModel::parse(spec, error)) << spec;
    EXPECT_FALSE(error.empty()) << spec;
  }
}

// Plain C bodies: a lambda body is freed by the body itself, which a
// modelled device never runs.
std::atomic<bool> body_ran{false};
void note_body_ran(void *, const css_task_env *) {
  body_ran = true;
}

Config model_config(unsigned devices, const std::string &spec) {
  Config config = sim_config(0, devices, CachePolicy::WriteBack, "90%");
  config.sim_model = spec;
  return config;
}

TEST(ModelDevice, TasksTakeTheModelsTimeAndBodiesDoNotRun) {
  constexpr int steps = 10;
  body_ran = false;
  int value = 0;
  Runtime runtime(model_config(1, "step=5ms"));
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i)
    Task("step").inout(value).function(&note_body_ran).submit(runtime);
  runtime.barrier();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const StatsSnapshot stats = runtime.stats();
  EXPECT_FALSE(body_ran) << "a modelled device ran a task body";
  EXPECT_GE(seconds, steps * 5e-3) << "a chain of " << steps << " tasks of 5 ms ended early";
  ASSERT_EQ(stats.device_busy_seconds.size(), 1u);
  EXPECT_NEAR(stats.device_busy_seconds[0], steps * 5e-3, 1e-6);
  EXPECT_EQ(stats.device_tasks[0], static_cast<std::uint64_t>(steps));
}

TEST(ModelDevice, CopiesTakeTheirSizeOverTheLinkRate) {
  // 4 MB in at 1 GB/s: 4 ms before the (instant) task, 4 ms back at the barrier.
  std::vector<char> block(4'000'000);
  Runtime runtime(model_config(1, "h2d=1G,d2h=1G"));
  auto start = std::chrono::steady_clock::now();
  Task("touch").inout(block.data(), block.size()).function(&note_body_ran).submit(runtime);
  runtime.barrier();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(seconds, 8e-3);
  EXPECT_EQ(runtime.stats().bytes_h2d, block.size());
  EXPECT_EQ(runtime.stats().bytes_d2h, block.size());
}

TEST(ModelDevice, SpreadsIndependentWorkOverDevices) {
  constexpr int tasks = 64;
  std::vector<std::array<int, 16>> blocks(tasks);
  Runtime runtime(model_config(4, "work=2ms"));
  for (auto &block : blocks)
    Task("work").inout(block).function(&note_body_ran).submit(runtime);
  runtime.barrier();
  const StatsSnapshot stats = runtime.stats();
  EXPECT_EQ(std::accumulate(stats.device_tasks.begin(), stats.device_tasks.end(), std::uint64_t{0}),
            static_cast<std::uint64_t>(tasks));
  for (std::uint64_t count : stats.device_tasks)
    EXPECT_GT(count, 0u) << "a modelled device got no work";
}

} // namespace
} // namespace gpuss::test
