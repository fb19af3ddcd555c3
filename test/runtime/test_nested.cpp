// Nested tasks: tasks called inside a running task's body (NestedTasks.hpp).
//
// A child of a task on a host worker is a task: siblings are ordered by
// their regions, a barrier inside the body waits for the body's children,
// and the parent completes only when its children have. On devices, with
// CSS_NESTED=inline, or without host workers, children run inline. Nothing
// hangs: a worker that waits for children runs other tasks meanwhile, so
// recursion deeper than the workers goes on.
#include "graph/NestedTasks.hpp"
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstring>
#include <numeric>
#include <vector>

namespace gpuss::test {
namespace {

// A task called inside a body goes through the same call as at top level:
// translated code calls css_submit, and a Runtime used directly forwards a
// call made inside a body to the running task too.
void submit_inside(Runtime &runtime, const Task &task) {
  task.submit(runtime);
}

// ---------------------------------------------------------------- Fibonacci

struct FibArgs {
  Runtime *runtime;
  int n;
  long *result;
};

long fib_sequential(int n) {
  return n < 2 ? n : fib_sequential(n - 1) + fib_sequential(n - 2);
}

constexpr int kCutOff = 8;

// input(n) output(*result): the OmpSs-2 Fibonacci, children writing the
// parent's local variables, then a wait for them (a barrier in the body).
void fib_body(void *packed, const css_task_env *env) {
  FibArgs args;
  std::memcpy(&args, packed, sizeof args);
  long *result = static_cast<long *>(env->addresses[0]);
  if (args.n < kCutOff) {
    *result = fib_sequential(args.n);
    return;
  }
  long x = 0, y = 0;
  Task("fib").out(x).function(fib_body, FibArgs{args.runtime, args.n - 1, &x}).submit(*args.runtime);
  Task("fib").out(y).function(fib_body, FibArgs{args.runtime, args.n - 2, &y}).submit(*args.runtime);
  args.runtime->barrier(); // inside the body: waits for its two children
  *result = x + y;
}

class Nested : public ::testing::TestWithParam<Config> {};

TEST_P(Nested, FibonacciWithChildrenWritingTheParentsLocals) {
  constexpr int n = 20;
  long result = 0;
  Runtime runtime(GetParam());
  Task("fib").out(result).function(fib_body, FibArgs{&runtime, n, &result}).submit(runtime);
  runtime.barrier();
  EXPECT_EQ(result, fib_sequential(n));
  StatsSnapshot stats = runtime.stats();
  EXPECT_GT(stats.child_tasks + stats.inline_tasks, 100u);
  const Config &config = GetParam();
  if (config.sim_devices == 0 && !config.nested_inline) {
    EXPECT_EQ(stats.inline_tasks, 0u) << "children of tasks on host workers are tasks";
  }
  if (config.nested_inline || config.num_cpus == 0) {
    EXPECT_EQ(stats.child_tasks, 0u) << "children of tasks on devices, or with CSS_NESTED=inline, run inline";
  }
}

// Each level creates one child and waits for it: far deeper than the
// workers, which must run the children while their parents wait.
void chain_body(void *packed, const css_task_env *env) {
  FibArgs args;
  std::memcpy(&args, packed, sizeof args);
  long *depth = static_cast<long *>(env->addresses[0]);
  long below = 0;
  if (args.n > 0) {
    Task("chain")
        .out(below)
        .function(chain_body, FibArgs{args.runtime, args.n - 1, &below})
        .submit(*args.runtime);
    args.runtime->barrier();
  }
  *depth = below + 1;
}

TEST_P(Nested, RecursionDeeperThanTheWorkersDoesNotHang) {
  long depth = 0;
  Runtime runtime(GetParam());
  Task("chain").out(depth).function(chain_body, FibArgs{&runtime, 200, &depth}).submit(runtime);
  runtime.barrier();
  EXPECT_EQ(depth, 201);
}

// ---------------------------------------------------------------- siblings and completion

// Children of one parent over its block: updates of the same elements in
// call order, and a parent with no wait of its own whose successor must
// see every child's write (the parent completes only when they have).
TEST_P(Nested, SiblingsAreOrderedAndTheParentCompletesAfterThem) {
  std::array<long, 64> block{};
  long sum = 0;
  Runtime runtime(GetParam());
  Task("parent")
      .inout(block)
      .body([&](TaskEnv env) {
        long *data = env.ptr<long>(0);
        for (int round = 1; round <= 4; ++round)
          for (int quarter = 0; quarter < 4; ++quarter)
            submit_inside(runtime, Task("child")
                                       .inout(&data[quarter * 16], 16 * sizeof(long))
                                       .body([round, quarter](TaskEnv child) {
                                         long *part = child.ptr<long>(0);
                                         for (int i = 0; i < 16; ++i)
                                           part[i] = part[i] * 3 + round + quarter;
                                       }));
        // No wait here.
      })
      .submit(runtime);
  Task("reader")
      .in(block)
      .out(sum)
      .body([](TaskEnv env) {
        *env.ptr<long>(1) = std::accumulate(env.ptr<long>(0), env.ptr<long>(0) + 64, 0L);
      })
      .submit(runtime);
  runtime.barrier();
  long expected = 0;
  for (int quarter = 0; quarter < 4; ++quarter) {
    long value = 0;
    for (int round = 1; round <= 4; ++round)
      value = value * 3 + round + quarter;
    for (int i = 0; i < 16; ++i) {
      EXPECT_EQ(block[quarter * 16 + i], value) << "element " << quarter * 16 + i;
      expected += value;
    }
  }
  EXPECT_EQ(sum, expected) << "the reader ran before the parent's children had finished";
}

// A parent's temporaries, allocated in its body (as Strassen's are), are
// its own: children may use them although no clause names them.
TEST_P(Nested, ChildrenMayUseMemoryTheirParentAllocated) {
  long total = 0;
  Runtime runtime(GetParam());
  Task("parent")
      .out(total)
      .body([&](TaskEnv env) {
        std::vector<long> partial(4, 0);
        for (int c = 0; c < 4; ++c)
          submit_inside(runtime, Task("part").out(partial[c]).body([c](TaskEnv child) {
            *child.ptr<long>(0) = 10 * (c + 1);
          }));
        runtime.barrier();
        *env.ptr<long>(0) = std::accumulate(partial.begin(), partial.end(), 0L);
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_EQ(total, 100);
}

std::vector<Config> nested_configs() {
  Config inline_children = host_config(2);
  inline_children.nested_inline = true;
  return {host_config(1),
          host_config(2),
          host_config(4),
          inline_children,
          sim_config(1, 2, CachePolicy::WriteBack, "64K"),
          sim_config(0, 2, CachePolicy::WriteThrough, "64K")};
}

INSTANTIATE_TEST_SUITE_P(Nesting, Nested, ::testing::ValuesIn(nested_configs()), [](const auto &info) {
  return config_name(info.param) + (info.param.nested_inline ? "_inline" : "");
});

// Independent children run at once: two children that meet at a rendezvous.
TEST(NestedConcurrency, IndependentSiblingsRunAtOnce) {
  std::array<int, 2> halves{};
  bool met = true;
  Rendezvous both(2);
  Runtime runtime(host_config(3));
  Task("parent")
      .inout(halves)
      .body([&](TaskEnv env) {
        int *data = env.ptr<int>(0);
        for (int i = 0; i < 2; ++i)
          submit_inside(runtime, Task("half").inout(&data[i], sizeof(int)).body([&](TaskEnv child) {
            if (!both.arrive()) met = false;
            *child.ptr<int>(0) = 7;
          }));
      })
      .submit(runtime);
  runtime.barrier();
  EXPECT_TRUE(met) << "the two independent children did not run at the same time";
  EXPECT_EQ(halves[0], 7);
  EXPECT_EQ(halves[1], 7);
}

// ---------------------------------------------------------------- misuse

class NestedMisuse : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

using Block = std::array<long, 8>;
Block shared_data{};

void parent_with_a_stray_child() {
  Runtime runtime(host_config(2));
  Block mine{};
  Task("parent")
      .inout(mine)
      .body([&](TaskEnv) {
        // shared_data is not the parent's, nor a local of its body.
        Task("stray").inout(shared_data).body([](TaskEnv) {}).submit(runtime);
      })
      .submit(runtime);
  runtime.barrier();
}

// A child that writes what its parent only reads: the tasks around the
// parent are not ordered with the write, and on a device the parent's copy
// is never written back (G0=0 where the program gives 2, no message, in a
// helper's sweep of nested tasks). Refused at the child's call; a child that
// only reads it, or writes what the parent writes, is fine.
void parent_reading_with_child(bool child_writes, const Config &config) {
  Runtime runtime(config);
  Task("parent")
      .in(shared_data)
      .body([&, child_writes](TaskEnv env) {
        long *data = env.ptr<long>(0);
        Task child("child");
        if (child_writes)
          child.inout(data, sizeof(Block));
        else
          child.in(data, sizeof(Block));
        child.body([](TaskEnv) {}).submit(runtime);
      })
      .submit(runtime);
  runtime.barrier();
  std::exit(0);
}

TEST_F(NestedMisuse, AChildWritingWhatItsParentOnlyReadsIsAnError) {
  for (const Config &config : {host_config(2), sim_config(0, 2)}) {
    EXPECT_DEATH(parent_reading_with_child(true, config),
                 "task 'child': is called inside task 'parent' .* and writes 64 bytes at 0x[0-9a-f]+, which that "
                 "task only reads \\(input\\)");
    EXPECT_EXIT(parent_reading_with_child(false, config), ::testing::ExitedWithCode(0), "");
  }
}

// A parent on a (simulated) device has its data at the device's copy: a
// child naming the global the parent's clauses name, by its host address,
// names memory that is not the parent's there. The error said to name it in
// the parent's clauses, which the program did (a helper's sweep of nested
// tasks); it now says where the parent's data is. On host workers the same
// program is fine.
void child_naming_the_parents_global(const Config &config) {
  Runtime runtime(config);
  Task("parent")
      .inout(shared_data)
      .body([&](TaskEnv) { Task("child").inout(shared_data).body([](TaskEnv) {}).submit(runtime); })
      .submit(runtime);
  runtime.barrier();
  std::exit(0);
}

TEST_F(NestedMisuse, AChildOfADeviceParentNamesItsDataThroughTheParentsPointers) {
  EXPECT_DEATH(child_naming_the_parents_global(sim_config(0, 2)),
               "task 'child': is called inside task 'parent' .*, which runs on a device, and names 64 bytes at "
               "0x[0-9a-f]+, a global's host memory");
  EXPECT_EXIT(child_naming_the_parents_global(host_config(2)), ::testing::ExitedWithCode(0), "");
}

TEST_F(NestedMisuse, AChildOutsideItsParentsDataIsAnError) {
  EXPECT_DEATH(
      parent_with_a_stray_child(),
      "task 'stray': is called inside task 'parent' .* and names 64 bytes at 0x[0-9a-f]+, a global that "
      "is not in that task's data");
}

void host_parent_with_a_gpu_child() {
  Runtime runtime(host_config(2));
  Block mine{};
  Task("parent")
      .inout(mine)
      .body([&](TaskEnv env) {
        Task("gpu_child").inout(env.ptr<long>(0), 8).device(CSS_DEVICE_CUDA).submit(runtime);
      })
      .submit(runtime);
  runtime.barrier();
}

TEST_F(NestedMisuse, AGpuChildOfAHostTaskIsAnError) {
  EXPECT_DEATH(host_parent_with_a_gpu_child(),
               "task 'gpu_child': targets device\\(cuda\\) and is called inside host task 'parent'");
}

TEST_F(NestedMisuse, FinishInsideATaskIsAnError) {
  EXPECT_DEATH(
      {
        static long value;
        Task("finisher").inout(value).body([](TaskEnv) { css_finish(); }).submit_c();
        css_barrier();
      },
      "task 'finisher': css_finish called inside the task's body; it belongs to the main program");
}

TEST_F(NestedMisuse, PinInsideATaskIsAnError) {
  EXPECT_DEATH(
      {
        static long value;
        Task("pinner")
            .inout(value)
            .body([](TaskEnv env) { css_pin(env.ptr<long>(0), sizeof(long)); })
            .submit_c();
        css_barrier();
      },
      "task 'pinner': css_pin called inside the task's body; it belongs to the main program");
}

// css_pin from the program (no GPUs here, so it locks nothing): it starts
// the runtime if need be, waits for no task, and tasks go on as before.
TEST(NestedCApi, PinFromTheProgramLocksNothingWithoutGpusAndTasksGoOn) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        static long value = 1;
        css_pin(&value, sizeof value);
        Task("after").inout(value).body([](TaskEnv env) { *env.ptr<long>(0) += 5; }).submit_c();
        css_pin(&value, sizeof value);
        css_finish();
        std::exit(value == 6 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// exit() inside a task while the master waits in a barrier: the process
// ends (with a warning), it does not hang in the exit handler.
TEST_F(NestedMisuse, ExitInsideATaskEndsTheProcess) {
  EXPECT_EXIT(
      {
        static long value;
        Task("exiter").inout(value).body([](TaskEnv) { std::exit(3); }).submit_c();
        css_barrier();
      },
      ::testing::ExitedWithCode(3), "exit\\(\\) called inside task 'exiter'");
}

// ---------------------------------------------------------------- the C API's runtime

// As SMPSs: after css_finish the next call starts the runtime again.
TEST(NestedCApi, TasksAfterCssFinishStartTheRuntimeAgain) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        static long value = 1;
        Task("before").inout(value).body([](TaskEnv env) { *env.ptr<long>(0) *= 10; }).submit_c();
        css_finish();
        Task("after").inout(value).body([](TaskEnv env) { *env.ptr<long>(0) += 5; }).submit_c();
        css_finish();
        css_finish(); // twice: nothing to do
        std::exit(value == 15 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace gpuss::test
