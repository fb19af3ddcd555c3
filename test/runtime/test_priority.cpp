// Priorities: the ready queue hands CSS_TASK_HIGH_PRIORITY tasks out first.
//
// With every host worker held by a gate task, normal and then high-priority
// independent tasks pile up in the helper's ready lists and in the workers'
// inbox; once the gate opens the high-priority ones must run first.
#include "TaskBuilder.hpp"
#include "master/ProgramOrder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace gpuss::test {
namespace {

std::string to_string(const std::vector<int> &order) {
  std::ostringstream text;
  for (int id : order)
    text << id << ' ';
  return text.str();
}

// Polls until the runtime has reported `count` ready tasks at once; false
// after rendezvous_timeout(). The polling interval only costs latency.
bool wait_for_max_ready(const Runtime &runtime, std::uint64_t count) {
  const auto deadline = std::chrono::steady_clock::now() + rendezvous_timeout();
  while (runtime.stats().max_ready < count) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

void submit_markers(Runtime &runtime, unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    Task("marker").body([](TaskEnv) {}).submit(runtime);
}

// Waits until the helper has taken every task submitted so far and has been
// through the dispatch that follows: each is then placed (in the inbox or on
// a device) or, for want of room, in the helper's ready lists. False if that
// did not happen within rendezvous_timeout(). `ready_tasks`: how many of the
// tasks submitted so far were ready when submitted; none may finish before
// this returns. `places`: at least as many as the tasks the helper can place
// while none finishes.
//
// No sleep decides anything; max_ready is exact enough. The helper takes the
// ready tasks in submission order and counts those in its ready lists: a task
// it places leaves the count and one taken back from the inbox re-enters it,
// so the count never exceeds the number taken. Behind the tasks, places + 1
// markers (tasks that do nothing) bring the count above ready_tasks once the
// helper has taken them all, and it cannot get there before the helper has
// taken a marker, hence every task queued before it. The helper dispatches
// what it took before it takes more: a second batch of markers, queued once
// that count was seen, is taken after that dispatch, and only then can the
// count exceed ready_tasks + places + 1.
bool wait_until_placed(Runtime &runtime, std::uint64_t ready_tasks, unsigned places) {
  const unsigned markers = places + 1;
  submit_markers(runtime, markers);
  if (!wait_for_max_ready(runtime, ready_tasks + 1)) return false;
  submit_markers(runtime, markers);
  return wait_for_max_ready(runtime, ready_tasks + markers + 1);
}

// The helper keeps the host workers' shared inbox up to eight tasks per
// worker deep, running tasks included (docs/architecture.md, "Workers and
// devices"); only an upper bound matters to wait_until_placed, hence the
// margin. Were the inbox deeper than this, the wait would fail, not pass.
constexpr unsigned host_places_per_worker = 4 * 8;

class Priority : public ::testing::TestWithParam<unsigned> {};

TEST_P(Priority, HighPriorityTasksRunFirst) {
  const unsigned cpus = GetParam();
  // Before the runtime: its destructor waits for the tasks that use them.
  Gate gate;
  Rendezvous held(cpus + 1);
  Log log;
  constexpr int normal = 16, high = 16;
  std::vector<int> slots(normal + high);
  Runtime runtime(host_config(cpus));

  // Hold every worker, each in a gate task that it has taken out of the
  // inbox: one still waiting there could be taken back for a high-priority
  // task, and let a free worker run tasks before the gate opens.
  for (unsigned w = 0; w < cpus; ++w)
    Task("gate")
        .body([&](TaskEnv) {
          held.arrive();
          gate.wait();
        })
        .submit(runtime);
  if (!held.arrive()) {
    gate.open();
    FAIL() << "the gate tasks did not all start; ran on the master: " << gate.ran_on_master();
  }
  for (int i = 0; i < normal; ++i)
    Task("normal").out(slots[i]).body([&log, i](TaskEnv) { log.record(i); }).submit(runtime);
  for (int i = 0; i < high; ++i)
    Task("urgent")
        .out(slots[normal + i])
        .high_priority()
        .body([&log, i](TaskEnv) { log.record(1000 + i); })
        .submit(runtime);
  // Then each high-priority task is in the inbox, ahead of every normal one
  // there, or still in the helper's ready list, which it places ahead of the
  // normal ones; that only while the inbox is full and holds no normal task
  // whose place it could take back.
  const bool placed = wait_until_placed(runtime, cpus + normal + high, host_places_per_worker * cpus);
  gate.open();
  runtime.barrier();
  ASSERT_TRUE(placed) << "the helper did not take the tasks (max_ready " << runtime.stats().max_ready
                      << "), or the inbox is deeper than " << host_places_per_worker << " per worker";
  ASSERT_EQ(log.order.size(), static_cast<std::size_t>(normal + high));

  // So a worker takes a normal task only after every high-priority one has
  // been taken. A task is logged a little after it is taken, and a worker
  // may be descheduled in between while the others log any number of tasks:
  // the log order is not the order in which they were taken. But when the
  // first normal task is logged, a high-priority one still missing from the
  // log has been taken by another worker, which logs nothing else before it.
  const auto first_normal =
      std::find_if(log.order.begin(), log.order.end(), [](int id) { return id < 1000; });
  ASSERT_NE(first_normal, log.order.end());
  const auto at = static_cast<std::size_t>(first_normal - log.order.begin());
  const std::thread::id first_normal_worker = log.worker_of[at];
  std::vector<std::thread::id> logged_since; // workers that have logged since the first normal task
  for (std::size_t i = at + 1; i < log.order.size(); ++i) {
    const std::thread::id worker = log.worker_of[i];
    if (log.order[i] >= 1000) {
      EXPECT_TRUE(worker != first_normal_worker &&
                  std::find(logged_since.begin(), logged_since.end(), worker) == logged_since.end())
          << "normal task " << *first_normal << " overtook high-priority task " << log.order[i]
          << "; order: " << to_string(log.order);
    }
    logged_since.push_back(worker);
  }
  // Which implies that at most cpus - 1 high-priority tasks can follow.
  EXPECT_GE(first_normal - log.order.begin(), high - static_cast<long>(cpus - 1))
      << "order: " << to_string(log.order);
}

TEST_P(Priority, HighPriorityKeepsDependencies) {
  // A high-priority task that depends on a normal one still waits for it.
  Runtime runtime(host_config(GetParam()));
  int value = 1;
  for (int i = 0; i < 10; ++i) {
    Task("normal_step")
        .inout(value)
        .body([](TaskEnv env) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          *env.ptr<int>(0) *= 2;
        })
        .submit(runtime);
    Task("urgent_step")
        .inout(value)
        .high_priority()
        .body([](TaskEnv env) { *env.ptr<int>(0) += 1; })
        .submit(runtime);
  }
  runtime.barrier();
  int expected = 1;
  for (int i = 0; i < 10; ++i)
    expected = expected * 2 + 1;
  EXPECT_EQ(value, expected);
}

// With accelerators, a ready task that several others wait for (a panel
// task of a factorisation) goes ahead of ready tasks that nobody waits for,
// unless CSS_FAN_OUT_FIRST=0. One simulated device staging one task at a
// time, held by a gate; the wide task becomes ready when the gate's task
// ends, after eight leaf tasks queued up.
std::vector<int> order_after_gate(bool fan_out_first) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.prefetch_depth = 0;
  config.fan_out_first = fan_out_first;
  config.critical_path = false; // ranks at the barrier would reorder the queue too
  Runtime runtime(config);
  Gate gate;
  Log log;
  int held = 0, wide = 0;
  std::array<int, 8> leaves{};
  std::array<int, 2> readers{};
  Task("gate").out(held).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < 8; ++i)
    Task("leaf").out(leaves[i]).body([&log, i](TaskEnv) { log.record(i); }).submit(runtime);
  Task("wide").in(held).out(wide).body([&log](TaskEnv) { log.record(1000); }).submit(runtime);
  for (int r = 0; r < 2; ++r)
    Task("reader")
        .in(wide)
        .out(readers[r])
        .body([&log, r](TaskEnv) { log.record(2000 + r); })
        .submit(runtime);
  // The gate task and the leaves were ready; the device stages one task at a time.
  const bool placed = wait_until_placed(runtime, 1 + leaves.size(), 8);
  gate.open();
  runtime.barrier();
  EXPECT_TRUE(placed) << "the helper did not take the leaves (max_ready " << runtime.stats().max_ready << ")";
  EXPECT_FALSE(gate.ran_on_master());
  return log.order;
}

TEST(FanOutFirst, TaskWithSeveralSuccessorsOvertakesQueuedLeaves) {
  std::vector<int> order = order_after_gate(true);
  ASSERT_EQ(order.size(), 11u);
  EXPECT_EQ(order.front(), 1000) << "the wide task waited behind the leaves";
}

TEST(FanOutFirst, DisabledKeepsReadyOrder) {
  std::vector<int> order = order_after_gate(false);
  ASSERT_EQ(order.size(), 11u);
  EXPECT_EQ(order[8], 1000)
      << "without CSS_FAN_OUT_FIRST the wide task runs after the leaves ready before it";
}

// With accelerators, a barrier ranks the waiting tasks by the longest chain
// after each (CSS_CRITICAL_PATH): the head of a chain of six goes ahead of
// eight leaves that became ready with it, and that were submitted before it.
// The gate opens only once the master waits in the barrier.
std::vector<int> order_with_ranks(bool critical_path) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.prefetch_depth = 0;
  config.critical_path = critical_path;
  Runtime runtime(config);
  Gate gate;
  Log log;
  int held = 0, chain = 0;
  std::array<int, 8> leaves{};
  Task("gate").out(held).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < 8; ++i)
    Task("leaf").in(held).out(leaves[i]).body([&log, i](TaskEnv) { log.record(i); }).submit(runtime);
  Task("chain_head").in(held).out(chain).body([&log](TaskEnv) { log.record(1000); }).submit(runtime);
  for (int c = 1; c < 6; ++c)
    Task("chain").inout(chain).body([&log, c](TaskEnv) { log.record(1000 + c); }).submit(runtime);
  barrier_then_open(runtime, [&] { gate.open(); }); // the barrier ranks meanwhile
  EXPECT_FALSE(gate.ran_on_master());
  return log.order;
}

TEST(CriticalPath, ChainHeadOvertakesLeavesReadyWithIt) {
  std::vector<int> order = order_with_ranks(true);
  ASSERT_EQ(order.size(), 14u);
  EXPECT_EQ(order.front(), 1000) << "the long chain's head waited behind the leaves";
}

TEST(CriticalPath, DisabledKeepsReadyOrder) {
  std::vector<int> order = order_with_ranks(false);
  ASSERT_EQ(order.size(), 14u);
  EXPECT_EQ(order.front(), 0) << "without CSS_CRITICAL_PATH the first leaf submitted runs first";
}

// A task that becomes ready after the ranking goes by its rank however many
// wait: the head of a chain of six overtakes 1,200 leaves ranked 1 (the
// ready lists' insertion walked at most 1,024 tasks from the back until
// 2026-11-28 and left it behind the first 176 leaves; out of core, with the
// working sets' hold, that could wait forever).
TEST(CriticalPath, ALateChainHeadOvertakesMoreThanAThousandReadyLeaves) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.prefetch_depth = 4; // leaves staged with the gate run before the head: four, and a few more
                             // that places freed meanwhile take (up to 9 in all seen on a loaded VM)
  Runtime runtime(config);
  Gate gate;
  Log log;
  int held = 0, chain = 0;
  constexpr int leaf_count = 1200;
  std::vector<int> leaves(leaf_count);
  Task("gate").out(held).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < leaf_count; ++i)
    Task("leaf").out(leaves[i]).body([&log, i](TaskEnv) { log.record(i); }).submit(runtime);
  Task("chain_head").in(held).out(chain).body([&log](TaskEnv) { log.record(-1); }).submit(runtime);
  for (int c = 1; c < 6; ++c)
    Task("chain").inout(chain).body([](TaskEnv) {}).submit(runtime);
  barrier_then_open(runtime, [&] { gate.open(); }); // the barrier ranks meanwhile
  EXPECT_FALSE(gate.ran_on_master());
  ASSERT_EQ(log.order.size(), static_cast<std::size_t>(leaf_count + 1));
  const auto head = std::find(log.order.begin(), log.order.end(), -1) - log.order.begin();
  EXPECT_LE(head, 16) << "the chain head ran after " << head << " leaves";
}

// Eight chains of four updates, each chain to its own tile, as GEMM's C
// tiles take their products: every rank is held by eight tasks, so no task
// holds any other up, and a barrier ranks the graph in program order
// (ProgramOrder.hpp; CSS_PROGRAM_ORDER=auto): each chain through all its
// updates before the next starts, rather than every chain's first update,
// then every chain's second (the critical path's step order, which on a GPU
// needs every tile at the start and writes every tile back at the end).
// Returns the order the updates ran in, as chain * 10 + step.
std::vector<int> order_of_equal_chains(ProgramOrder program_order, std::uint64_t *program_ordered) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.prefetch_depth = 0;
  config.program_order = program_order;
  // Nothing on the device before a task asks for it: a device about to run
  // dry takes the ready task cheapest to move there, and data loaded ahead
  // made a later chain's first update the cheapest now and then (1 run in
  // CI's ASan build). Without it every candidate moves as many bytes, and
  // the ranks decide.
  config.load_ahead = false;
  Runtime runtime(config);
  Gate gate;
  Log log;
  int blocker = 0;
  std::array<double, 8> tiles{};
  std::array<double, 4> shared{}; // read by every chain, as A and B are
  // Runs on the device until the barrier has ranked the rest: a task of its
  // own, so that the chains wait for no common predecessor.
  Task("gate").inout(blocker).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int chain = 0; chain < 8; ++chain)
    for (int step = 0; step < 4; ++step)
      Task("update")
          .in(shared[step])
          .inout(tiles[chain])
          .body([&log, chain, step](TaskEnv) { log.record(chain * 10 + step); })
          .submit(runtime);
  barrier_then_open(runtime, [&] { gate.open(); }); // the barrier ranks meanwhile
  EXPECT_FALSE(gate.ran_on_master());
  *program_ordered = runtime.stats().program_ordered;
  return log.order;
}

std::vector<int> submission_order_of_chains() {
  std::vector<int> order;
  for (int chain = 0; chain < 8; ++chain)
    for (int step = 0; step < 4; ++step)
      order.push_back(chain * 10 + step);
  return order;
}

TEST(ProgramOrder, ChainsOfEqualUpdatesRunInProgramOrder) {
  std::uint64_t program_ordered = 0;
  const std::vector<int> order = order_of_equal_chains(ProgramOrder::Auto, &program_ordered);
  EXPECT_EQ(program_ordered, 1u);
  EXPECT_EQ(order, submission_order_of_chains());
}

TEST(ProgramOrder, DisabledRunsChainsInStepOrder) {
  std::uint64_t program_ordered = 0;
  const std::vector<int> order = order_of_equal_chains(ProgramOrder::Never, &program_ordered);
  EXPECT_EQ(program_ordered, 0u);
  ASSERT_EQ(order.size(), 32u);
  for (std::size_t i = 0; i < 8; ++i)
    EXPECT_EQ(order[i] % 10, 0) << "by the critical path every chain's first update goes first";
}

// A graph with a narrow point keeps its critical-path ranks under auto: the
// gate's chain (CriticalPath tests above) and here a chain of six ahead of
// the eight leaves, each rank above 1 held by one task. The chain's head
// writes its tile without reading it, as the leaves do, and nothing is loaded
// ahead: a device about to run dry takes the ready task cheapest to move
// there, and a head that read `chain` lost to the leaves until load-ahead
// had copied it (CI's TSan build, once, with the gate opened 200 ms into the
// barrier; every other run when it opened as soon as the ranks were in force).
TEST(ProgramOrder, AGraphWithANarrowPointKeepsItsRanks) {
  Config config = sim_config(0, 1, CachePolicy::WriteBack, "1M");
  config.prefetch_depth = 0;
  config.load_ahead = false;
  Runtime runtime(config);
  Gate gate;
  Log log;
  int blocker = 0, chain = 0;
  std::array<int, 8> leaves{};
  Task("gate").inout(blocker).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
  for (int i = 0; i < 8; ++i)
    Task("leaf").out(leaves[i]).body([&log, i](TaskEnv) { log.record(i); }).submit(runtime);
  Task("chain_head").out(chain).body([&log](TaskEnv) { log.record(1000); }).submit(runtime);
  for (int c = 1; c < 6; ++c)
    Task("chain").inout(chain).body([&log, c](TaskEnv) { log.record(1000 + c); }).submit(runtime);
  barrier_then_open(runtime, [&] { gate.open(); });
  EXPECT_EQ(runtime.stats().program_ordered, 0u);
  ASSERT_EQ(log.order.size(), 14u);
  EXPECT_EQ(log.order.front(), 1000) << "the chain's head, submitted after the leaves, goes first by its rank; order "
                                     << ::testing::PrintToString(log.order);
}

// A blocked factorisation's graph, linked by hand as the runtime's tracker
// links tasks by their tiles (read after write, write after read and write),
// in the order its calls were made: panel(k) on tiles (k.., k), solve(k, j)
// on tile (k, j) with (k, k), update(k, i, j) on tile (i, j) with (i, k) and
// (k, j). Right-looking, step by step; left-looking, block column by block
// column (each takes the solves and updates of every earlier step, then its
// panel). Same tasks, same edges; only the order of the calls differs.
class TiledFactorisation {
public:
  TiledFactorisation(int nt, bool left_looking) : nt_(nt) {
    auto update_column = [&](int k, int j) {
      add({tile(k, k)}, {tile(k, j)}); // solve
      for (int i = k + 1; i < nt; ++i)
        add({tile(i, k), tile(k, j)}, {tile(i, j)}); // update
    };
    auto panel = [&](int k) {
      std::vector<int> column;
      for (int i = k; i < nt; ++i)
        column.push_back(tile(i, k));
      add({}, column);
    };
    if (left_looking) {
      for (int j = 0; j < nt; ++j) {
        for (int k = 0; k < j; ++k)
          update_column(k, j);
        panel(j);
      }
    } else {
      for (int k = 0; k < nt; ++k) {
        panel(k);
        for (int j = k + 1; j < nt; ++j)
          update_column(k, j);
      }
    }
    // The counted ranks CriticalPath gives them: submission order is topological.
    for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) {
      std::uint32_t longest = 0;
      for (const TaskRef &successor : (*it)->successors)
        longest = std::max(longest, successor->rank.load());
      (*it)->rank = longest + 1;
    }
  }
  std::vector<TaskRef> tasks; // in submission order

private:
  int tile(int i, int j) const { return i * nt_ + j; }
  // `writes` are read too (inout), as a factorisation's tiles are.
  void add(const std::vector<int> &reads, const std::vector<int> &writes) {
    auto task = std::make_shared<gpuss::Task>();
    std::set<gpuss::Task *> predecessors;
    auto after = [&](const TaskRef &predecessor) {
      if (predecessor && predecessors.insert(predecessor.get()).second)
        predecessor->successors.push_back(task);
    };
    for (int t : reads) {
      after(last_writer_[t]);
      readers_[t].push_back(task);
    }
    for (int t : writes) {
      after(last_writer_[t]);
      for (const TaskRef &reader : readers_[t])
        if (reader != task) after(reader);
      last_writer_[t] = task;
      readers_[t].clear();
    }
    task->pending = static_cast<std::uint32_t>(predecessors.size());
    tasks.push_back(std::move(task));
  }
  int nt_;
  std::map<int, TaskRef> last_writer_;
  std::map<int, std::vector<TaskRef>> readers_;
};

// Left-looking, each panel comes right after what it needs: the program's
// order already runs the critical path first, and CSS_PROGRAM_ORDER=auto
// keeps it (ProgramOrder.hpp).
TEST(ProgramOrder, LeftLookingCallsRunTheCriticalPathFirst) {
  TiledFactorisation graph(8, true);
  const ProgramOrderLateness lateness = program_order_lateness(graph.tasks);
  EXPECT_EQ(lateness.path_length, graph.tasks.front()->rank.load()) << "the path from the first panel";
  EXPECT_LE(lateness.most_tasks_ahead, lateness.path_length);
  EXPECT_FALSE(every_rank_is_wide(graph.tasks, 4)) << "a panel alone at the top rank";
  EXPECT_TRUE(critical_path_comes_first(graph.tasks));
}

// Right-looking, panel k+1 comes after step k's updates of every column
// right of it, which it does not need: the critical path keeps its ranks.
TEST(ProgramOrder, RightLookingCallsHoldTheCriticalPathBack) {
  TiledFactorisation graph(8, false);
  const ProgramOrderLateness lateness = program_order_lateness(graph.tasks);
  EXPECT_EQ(lateness.path_length, graph.tasks.front()->rank.load());
  EXPECT_GT(lateness.most_tasks_ahead, lateness.path_length);
  EXPECT_GE(lateness.most_tasks_ahead, 5u * 6u) << "step 0's updates of block columns 2 .. 7 below row 0";
  EXPECT_FALSE(critical_path_comes_first(graph.tasks));
}

// Both orders are the same graph: the same ranks, so the same critical
// path; only where its tasks come in the program differs.
TEST(ProgramOrder, BothOrdersHaveTheSameCriticalPath) {
  TiledFactorisation left(8, true), right(8, false);
  EXPECT_EQ(left.tasks.size(), right.tasks.size());
  EXPECT_EQ(program_order_lateness(left.tasks).path_length, program_order_lateness(right.tasks).path_length);
}

// Finished tasks keep their ranks; the rest are ranked by their place in
// the program, the first highest.
TEST(ProgramOrder, RanksFollowSubmissionOrder) {
  TiledFactorisation graph(4, false);
  graph.tasks[0]->completed = true;
  const std::uint32_t finished_rank = graph.tasks[0]->rank;
  ASSERT_TRUE(rank_in_program_order(graph.tasks));
  EXPECT_EQ(graph.tasks[0]->rank.load(), finished_rank);
  EXPECT_EQ(graph.tasks[1]->rank.load(), graph.tasks.size() - 1);
  for (std::size_t i = 2; i < graph.tasks.size(); ++i)
    EXPECT_EQ(graph.tasks[i]->rank.load() + 1, graph.tasks[i - 1]->rank.load());
}

INSTANTIATE_TEST_SUITE_P(Priority, Priority, ::testing::Values(1u, 2u),
                         [](const auto &info) { return "cpus" + std::to_string(info.param); });

void nothing(void *, const css_task_env *) {}

// The trace a run wrote, removed once read.
std::string take_trace(const std::filesystem::path &path) {
  std::ifstream file(path);
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  return text;
}

// A file for one run's trace: `stem`, this process, in the temporary folder.
std::filesystem::path trace_path(const std::string &stem) {
  return std::filesystem::temp_directory_path() /
         ("gpuss_" + stem + "_" + std::to_string(::getpid()) + ".json");
}

// A time (ms) of the trace's first event named `label`: "ts" its start,
// "dur" its length, "ready" or "dispatched" (task events' args).
double event_ms(const std::string &trace, const std::string &label, const std::string &key) {
  const std::size_t at = trace.find("\"name\":\"" + label + "\"");
  EXPECT_NE(at, std::string::npos) << label << " not in the trace";
  const std::size_t value = trace.find("\"" + key + "\":", at);
  EXPECT_NE(value, std::string::npos) << key << " not in " << label << "'s event";
  return std::stod(trace.substr(value + key.size() + 3)) / 1000;
}

double start_ms(const std::string &trace, const std::string &label) {
  return event_ms(trace, label, "ts");
}

// CSS_GPU_LANE_DEPTH: a device launches the staged task that goes first
// among those whose copies have landed, not the one staged first. On one
// modelled device (bodies do not run), a gate of 100 ms holds the compute
// engine while two independent tasks are staged, in the order submitted,
// before the barrier ranks them: `short_one`, with nothing after it, then
// `long_one`, which a chain of three tasks follows, so that the barrier's
// critical path ranks it higher. When the gate
// ends, the engine takes `long_one` first; launched in the order staged
// (depth 0, before 2026-11-29), `short_one`. Each run: whether `long_one`
// started first, read from the trace.
bool long_one_starts_first(unsigned lane_depth) {
  const auto path = trace_path("launch_order_" + std::to_string(lane_depth));
  {
    Config config = sim_config(0, 1, CachePolicy::WriteBack, "256M");
    config.sim_model = "gate=100ms,default=1ms";
    config.program_order = ProgramOrder::Never;
    config.gpu_lane_depth = lane_depth;
    config.trace_file = path.string();
    Runtime runtime(config);
    static int gated, short_result, long_result, chain;
    Task("gate").inout(gated).function(&nothing).submit(runtime);
    Task("short_one").out(short_result).function(&nothing).submit(runtime);
    Task("long_one").out(long_result).function(&nothing).submit(runtime);
    // One successor (two would make it a fan-out, which goes first anyway).
    Task("chain").in(long_result).inout(chain).function(&nothing).submit(runtime);
    for (int i = 0; i < 2; ++i)
      Task("chain").inout(chain).function(&nothing).submit(runtime);
    // Staged before the barrier ranks them, in the order they came (the
    // helper places a ready task within microseconds; 50 ms leave room for
    // a loaded machine, and the gate's 100 ms for the ranking after it).
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    runtime.barrier();
  }
  const std::string trace = take_trace(path);
  return start_ms(trace, "long_one") < start_ms(trace, "short_one");
}

TEST(LaunchOrder, TheHighestRankedStagedTaskGoesFirst) {
  EXPECT_TRUE(long_one_starts_first(2));
}

TEST(LaunchOrder, AtDepthZeroTheOrderStaged) {
  EXPECT_FALSE(long_one_starts_first(0));
}

// What a launch waits for (CSS_GPU_WAIT_ALL_FETCHES, DeviceCommand::
// after_fetches). On one modelled device whose link from the host moves 1
// GB/s, `fetching` reads 16 MiB that must be copied in (about 17 ms);
// staged after it, `fresh` only writes, and `sharer` reads the same 16 MiB,
// a copy still filling when it is planned. Returns the start times (ms) of
// `fetching`, `fresh` and `sharer`, from the trace.
std::array<double, 3> starts_beside_a_fetch(bool wait_all_fetches) {
  const auto path = trace_path("fetch_wait_" + std::to_string(wait_all_fetches));
  static std::vector<char> input(std::size_t{16} << 20);
  static int fresh_result, sharer_result;
  {
    Config config = sim_config(0, 1, CachePolicy::WriteBack, "256M");
    config.sim_model = "default=1ms,h2d=1G";
    config.gpu_wait_all_fetches = wait_all_fetches;
    config.trace_file = path.string();
    Runtime runtime(config);
    Task("fetching").in(input.data(), input.size()).function(&nothing).submit(runtime);
    Task("fresh").out(fresh_result).function(&nothing).submit(runtime);
    Task("sharer").in(input.data(), input.size()).out(sharer_result).function(&nothing).submit(runtime);
    runtime.barrier();
  }
  const std::string trace = take_trace(path);
  return {start_ms(trace, "fetching"), start_ms(trace, "fresh"), start_ms(trace, "sharer")};
}

TEST(FetchWait, ATaskWithNothingToCopyDoesNotWaitForAnotherTasksFetch) {
  const auto [fetching, fresh, sharer] = starts_beside_a_fetch(false);
  EXPECT_LT(fresh, fetching) << "it needs nothing the fetch brings";
  EXPECT_GE(sharer, fetching) << "it reads what the fetch brings, still filling when it was planned";
}

TEST(FetchWait, WithWaitAllFetchesEveryTaskFollowsTheFetchesBeforeIt) {
  const auto [fetching, fresh, sharer] = starts_beside_a_fetch(true);
  EXPECT_GE(fresh, fetching);
  EXPECT_GE(sharer, fetching);
}

// CSS_FETCH_QUEUE (Helper::queues_long_fetch): until a barrier has ranked
// the graph, a device stages a task that copies in only while its staged
// tasks' copies in stay under the cap, so that the ranks, when they come,
// still decide what goes through the link. One modelled device whose link
// moves 250 MB/s: `first` copies in 8 MiB (about 34 ms) and writes what
// `second` reads, which copies in 8 MiB more; submitted between them, six
// `other_N` each copy in 8 MiB of their own. The barrier, 10 ms later,
// ranks `second` above them by the critical path (a task follows it), and
// loads its input ahead of theirs; but copies already issued go first.
// Returns how many of the others started before `second`, from the trace.
int others_before_second(std::size_t fetch_queue) {
  const auto path = trace_path("fetch_queue_" + std::to_string(fetch_queue));
  constexpr int others = 6;
  constexpr std::size_t bytes = std::size_t{8} << 20;
  static std::vector<char> first_input(bytes), second_input(bytes), other_input[others];
  static int link, result;
  static const char *const other_labels[others] = {"other_0", "other_1", "other_2", "other_3",
                                                   "other_4", "other_5"}; // labels outlive their tasks
  for (std::vector<char> &input : other_input)
    input.resize(bytes); // written before the clock: the submissions come within microseconds
  {
    Config config = sim_config(0, 1, CachePolicy::WriteBack, "256M");
    config.sim_model = "default=1ms,h2d=250M";
    config.program_order = ProgramOrder::Never;
    config.fetch_queue = fetch_queue;
    config.trace_file = path.string();
    Runtime runtime(config);
    Task("first").in(first_input.data(), bytes).out(link).function(&nothing).submit(runtime);
    for (int i = 0; i < others; ++i)
      Task(other_labels[i]).in(other_input[i].data(), bytes).function(&nothing).submit(runtime);
    Task("second").in(link).in(second_input.data(), bytes).out(result).function(&nothing).submit(runtime);
    Task("third").inout(result).function(&nothing).submit(runtime);
    // Without the cap every `other_N` is staged within microseconds; the
    // barrier comes while `first` still copies in.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    runtime.barrier();
  }
  const std::string trace = take_trace(path);
  const double second = start_ms(trace, "second");
  int before = 0;
  for (int i = 0; i < others; ++i)
    before += start_ms(trace, other_labels[i]) < second;
  return before;
}

TEST(FetchQueue, ALaterHigherRankedTaskIsNotQueuedBehindEveryCopy) {
  EXPECT_LE(others_before_second(std::size_t{16} << 20), 2) << "two tasks' copies in at most ahead of it";
}

TEST(FetchQueue, WithoutACapEveryStagedCopyGoesFirst) {
  EXPECT_GE(others_before_second(0), 4);
}

// The cap is for the tasks that no barrier has ranked yet: once the ranks
// come, a device stages up to its depth again (capped all the time, an
// LU's first run lost 2-3%). One modelled device whose link moves 250
// MB/s, a cap of 8 MiB, six tasks that each copy in 8 MiB of their own
// (about 34 ms each), no loads ahead: before the barrier, 10 ms after the
// submissions, the cap holds all but the first back; the barrier's ranks
// let the rest be staged at once, not one as each copy ends. Returns the
// milliseconds from the ranking's end to the last task's staging, from the
// trace.
double last_staged_after_ranks() {
  const auto path = trace_path("fetch_queue_lift");
  constexpr int tasks = 6;
  constexpr std::size_t bytes = std::size_t{8} << 20;
  static std::vector<char> input[tasks];
  static const char *const labels[tasks] = {"copy_0", "copy_1", "copy_2", "copy_3", "copy_4", "copy_5"};
  for (std::vector<char> &one : input)
    one.resize(bytes);
  {
    Config config = sim_config(0, 1, CachePolicy::WriteBack, "256M");
    config.sim_model = "default=1ms,h2d=250M";
    config.load_ahead = false;
    config.program_order = ProgramOrder::Never;
    config.fetch_queue = bytes;
    config.trace_file = path.string();
    Runtime runtime(config);
    for (int i = 0; i < tasks; ++i)
      Task(labels[i]).in(input[i].data(), bytes).function(&nothing).submit(runtime);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    runtime.barrier();
  }
  const std::string trace = take_trace(path);
  const double ranked =
      event_ms(trace, "rank", "ts") + event_ms(trace, "rank", "dur"); // the barrier's ranking
  double last = 0;
  for (const char *label : labels)
    last = std::max(last, event_ms(trace, label, "dispatched"));
  return last - ranked;
}

TEST(FetchQueue, TheRanksLiftTheCap) {
  EXPECT_LT(last_staged_after_ranks(), 20.0) << "staged within the first copy's 34 ms after the ranks";
}

} // namespace
} // namespace gpuss::test
