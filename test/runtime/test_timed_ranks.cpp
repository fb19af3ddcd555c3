// Critical-path ranks weighed by the tasks' learned durations
// (CSS_RANK_BY_TIME, scheduling/TimedRanks.hpp).
#include "TaskBuilder.hpp"
#include "scheduling/TimedRanks.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace gpuss::test {
namespace {

// Tasks linked by hand: `first` -> `second` in each pair.
using RuntimeTask = gpuss::Task; // the runtime's task, not TaskBuilder's

TaskRef task_labelled(const char *label) {
  auto task = std::make_shared<RuntimeTask>();
  task->label = label;
  return task;
}
void link(const TaskRef &first, const TaskRef &second) {
  first->successors.push_back(second);
}

const char panel[] = "panel", update[] = "update", swap[] = "swap";

// A panel before an update, and beside them a chain of twenty swaps, in
// submission order. Counted in tasks the chain's head outranks the panel;
// in time (a 20 ms panel, 50 us swaps) the panel comes first.
struct PanelAndSwaps {
  std::vector<TaskRef> tasks;
  TaskRef panel_task, update_task, swap_head;
  PanelAndSwaps() {
    panel_task = task_labelled(panel);
    update_task = task_labelled(update);
    link(panel_task, update_task);
    tasks = {panel_task, update_task};
    TaskRef previous;
    for (int i = 0; i < 20; ++i) {
      TaskRef s = task_labelled(swap);
      if (previous) link(previous, s);
      tasks.push_back(s);
      previous = s;
    }
    swap_head = tasks[2];
    for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) { // the counted ranks CriticalPath gives them
      std::uint32_t longest = 0;
      for (const TaskRef &successor : (*it)->successors)
        longest = std::max(longest, successor->rank.load());
      (*it)->rank = longest + 1;
    }
  }
};

std::optional<double> timed(const std::map<std::string, double> &seconds, const RuntimeTask &task) {
  auto it = seconds.find(task.label);
  return it == seconds.end() ? std::nullopt : std::optional<double>(it->second);
}

TEST(TimedRanks, AChainOfShortTasksNoLongerOutranksALongOne) {
  PanelAndSwaps graph;
  ASSERT_GT(graph.swap_head->rank, graph.panel_task->rank) << "counted in tasks";
  TimedRanks ranks;
  ranks.adopt(graph.tasks);
  const std::map<std::string, double> seconds{{panel, 20e-3}, {update, 1e-3}, {swap, 50e-6}};
  ASSERT_TRUE(ranks.rerank([&](const RuntimeTask &t) { return timed(seconds, t); }));
  EXPECT_GT(graph.panel_task->rank, graph.swap_head->rank)
      << "in time, the panel's 21 ms against 1 ms of swaps";
  EXPECT_EQ(graph.panel_task->rank, 21000u) << "microseconds along the longest path";
  EXPECT_EQ(graph.swap_head->rank, 1000u);
  EXPECT_GT(graph.tasks[3]->rank, graph.tasks[4]->rank) << "a chain still outranks its own tail";
}

TEST(TimedRanks, AnUntimedKindWeighsTheMeanOfTheTimedOnes) {
  PanelAndSwaps graph;
  TimedRanks ranks;
  ranks.adopt(graph.tasks);
  // The update has not run yet: it weighs (20 ms + 50 us) / 2.
  const std::map<std::string, double> seconds{{panel, 20e-3}, {swap, 50e-6}};
  ASSERT_TRUE(ranks.rerank([&](const RuntimeTask &t) { return timed(seconds, t); }));
  EXPECT_EQ(graph.update_task->rank, 10025u);
  EXPECT_EQ(graph.panel_task->rank, 30025u);
}

TEST(TimedRanks, NothingTimedOrNothingLeftKeepsTheRanks) {
  PanelAndSwaps graph;
  TimedRanks ranks;
  ranks.adopt(graph.tasks);
  EXPECT_FALSE(ranks.rerank([](const RuntimeTask &) -> std::optional<double> { return std::nullopt; }));
  EXPECT_EQ(graph.swap_head->rank, 20u) << "the counted ranks stand";
  for (const TaskRef &task : graph.tasks)
    task->completed = true;
  EXPECT_FALSE(ranks.rerank([](const RuntimeTask &) { return std::optional<double>(1e-3); }));
  EXPECT_TRUE(ranks.empty()) << "finished tasks are forgotten";
}

// On a simulated device, one task at a time: a first barrier times a long
// kind (50 ms) and a short one (0.2 ms; 10 ms of long against 4.8 of short
// flipped the order in 12% of runs on a loaded 2-core VM, where a 0.2 ms
// sleep can take a few times that); at the second, a gate holds a chain
// of 24 short tasks and a chain of 2 long ones, both submitted after it (the
// short chain first). Counted, the short chain's head runs first; weighed
// in time, the long chain's head does.
std::vector<int> heads_order(bool by_time) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.prefetch_depth = 0;
  config.rank_by_time = by_time;
  // The short chain, submitted first, is the critical path: in the program's
  // order already, which CSS_PROGRAM_ORDER=auto would keep (ProgramOrder.hpp)
  // and time would not weigh again.
  config.program_order = ProgramOrder::Never;
  Runtime runtime(config);
  auto nap = [](int micros) { std::this_thread::sleep_for(std::chrono::microseconds(micros)); };
  int warm_long = 0, warm_short = 0;
  Task("long").inout(warm_long).body([&](TaskEnv) { nap(50000); }).submit(runtime);
  Task("short").inout(warm_short).body([&](TaskEnv) { nap(200); }).submit(runtime);
  runtime.barrier();
  const std::uint64_t timed_before = runtime.stats().timed_rankings;
  Gate gate;
  Log log;
  int held = 0, short_chain = 0, long_chain = 0;
  Task("gate").out(held).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < 24; ++i)
    Task("short")
        .in(held)
        .inout(short_chain)
        .body([&log, i, &nap](TaskEnv) {
          log.record(i);
          nap(200);
        })
        .submit(runtime);
  for (int i = 0; i < 2; ++i)
    Task("long")
        .in(held)
        .inout(long_chain)
        .body([&log, i, &nap](TaskEnv) {
          log.record(100 + i);
          nap(50000);
        })
        .submit(runtime);
  barrier_then_open(
      runtime, [&] { gate.open(); },
      [&] {
        return !by_time ||
               runtime.stats().timed_rankings != timed_before; // weighed before the heads are ready
      });
  EXPECT_FALSE(gate.ran_on_master());
  EXPECT_EQ(runtime.stats().timed_rankings > timed_before, by_time);
  return log.order;
}

TEST(TimedRanks, ALongChainGoesAheadOfALongerChainOfShortTasks) {
  const std::vector<int> order = heads_order(true);
  ASSERT_EQ(order.size(), 26u);
  EXPECT_EQ(order.front(), 100) << "the long chain's head waited behind the short chain's";
}

TEST(TimedRanks, DisabledKeepsTheCountedRanks) {
  const std::vector<int> order = heads_order(false);
  ASSERT_EQ(order.size(), 26u);
  EXPECT_EQ(order.front(), 0) << "counted in tasks, the chain of 24 goes first";
}

} // namespace
} // namespace gpuss::test
