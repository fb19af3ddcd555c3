// DAG output: Config::dag_file (CSS_DAG=file.dot) receives the executed task
// graph in Graphviz form at finish: a digraph with one node per task.
#include "TaskBuilder.hpp"
#include "support/Trace.hpp"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace gpuss::test {
namespace {

std::string read_file(const std::filesystem::path &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A file name unique to this process and test.
std::filesystem::path temporary_dot(const std::string &name) {
  return std::filesystem::temp_directory_path() /
         ("gpuss_dag_" + name + "_" + std::to_string(::getpid()) + ".dot");
}

class Dag : public ::testing::TestWithParam<Config> {};

TEST_P(Dag, OneNodePerTask) {
  const auto path =
      temporary_dot(std::to_string(GetParam().num_cpus) + "_" + std::to_string(GetParam().sim_devices));
  std::filesystem::remove(path);
  constexpr int tasks = 12;
  // Each task gets its own label, so that its node can be found.
  static std::array<std::string, tasks> labels;
  for (int i = 0; i < tasks; ++i)
    labels[i] = "dag_node_" + std::to_string(i) + "_";
  {
    Config config = GetParam();
    config.dag_file = path.string();
    Runtime runtime(config);
    std::array<int, 4> data{};
    // A chain of 4 on data[0], a fan-out of 4 readers of data[0] writing
    // data[1..3] / a fresh slot, then 4 independent ones.
    int extra[4] = {};
    for (int i = 0; i < 4; ++i)
      Task(labels[i].c_str()).inout(data[0]).submit(runtime);
    for (int i = 4; i < 8; ++i)
      Task(labels[i].c_str()).in(data[0]).inout(extra[i - 4]).submit(runtime);
    static int independent[4];
    for (int i = 8; i < tasks; ++i)
      Task(labels[i].c_str()).inout(independent[i - 8]).submit(runtime);
    runtime.finish();
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  const std::string dot = read_file(path);
  std::filesystem::remove(path);
  EXPECT_NE(dot.find("digraph"), std::string::npos) << dot;

  // Node statements mention the label and no edge operator.
  std::istringstream lines(dot);
  std::string line;
  std::array<int, tasks> node_lines{};
  int edges = 0;
  while (std::getline(lines, line)) {
    if (line.find("->") != std::string::npos) {
      ++edges;
      continue;
    }
    for (int i = 0; i < tasks; ++i)
      if (line.find(labels[i]) != std::string::npos) ++node_lines[i];
  }
  for (int i = 0; i < tasks; ++i)
    EXPECT_EQ(node_lines[i], 1) << "task " << labels[i] << " in:\n" << dot;
  EXPECT_GE(edges, 3 + 4) << "the chain and the fan-out have at least 7 edges:\n" << dot;
}

TEST_P(Dag, NoFileWhenDisabled) {
  const auto path = temporary_dot("disabled");
  std::filesystem::remove(path);
  {
    Runtime runtime(GetParam());
    static int value;
    Task("unrecorded").inout(value).submit(runtime);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

// A trace event of a task carries its id, which names its node in the DAG
// (t<id>), and the file:line of its call; labels are escaped for JSON.
TEST_P(Dag, TraceEventsNameTheirTaskAndItsCall) {
  const std::string suffix = config_name(GetParam());
  const auto dot_path = temporary_dot("joined_" + suffix);
  const auto trace_path = std::filesystem::temp_directory_path() /
                          ("gpuss_trace_" + suffix + "_" + std::to_string(::getpid()) + ".json");
  static int value, other;
  Task first("quoted \"label\"");
  first.inout(value);
  Task second("plain_label");
  second.in(value).out(other);
  {
    Config config = GetParam();
    config.dag_file = dot_path.string();
    config.trace_file = trace_path.string();
    Runtime runtime(config);
    first.submit(runtime);
    second.submit(runtime);
    runtime.finish();
  }
  const std::string dot = read_file(dot_path), trace = read_file(trace_path);
  std::filesystem::remove(dot_path);
  std::filesystem::remove(trace_path);
  for (const Task *task : {&first, &second}) {
    // The DAG's node: t<id> [label="<label> #<id>\n<file>:<line>"
    const std::string where = std::string(task->file()) + ":" + std::to_string(task->line());
    const std::size_t node = dot.find(where);
    ASSERT_NE(node, std::string::npos) << where << " not in\n" << dot;
    const std::size_t t = dot.rfind("\n  t", node);
    const std::string id = dot.substr(t + 4, dot.find(' ', t + 4) - (t + 4));
    EXPECT_NE(trace.find("\"task\":" + id + ",\"where\":\"" + where + "\""), std::string::npos)
        << "no event of task " << id << " (" << where << ") in\n" << trace;
  }
  EXPECT_NE(trace.find(R"("name":"quoted \"label\"")"), std::string::npos) << "label not escaped:\n" << trace;
}

// Event times keep sub-microsecond digits however long the run: written
// with six significant digits, an event 10.4 s into a run lands on a 100 us
// grid (a task of 30 us looked like one of 100).
TEST(Trace, TimesKeepTheirMicrosecondsLateInARun) {
  const auto path =
      std::filesystem::temp_directory_path() / ("gpuss_trace_late_" + std::to_string(::getpid()) + ".json");
  Trace trace(true);
  trace.record("worker", "late_task", 123.4567891, 123.4568253);
  ASSERT_TRUE(trace.write(path.string()));
  const std::string text = read_file(path);
  std::filesystem::remove(path);
  EXPECT_NE(text.find(R"("ts":123456789.100,"dur":36.200)"), std::string::npos) << text;
}

// The master's track: when it submitted (from the first task since the last
// barrier to the barrier) and how long the barrier's ranking took, beside
// what the devices did meanwhile (a first run's start waits for the ranks).
TEST(Trace, TheMasterTrackShowsSubmissionAndRanking) {
  const auto path =
      std::filesystem::temp_directory_path() / ("gpuss_trace_master_" + std::to_string(::getpid()) + ".json");
  static int value;
  {
    Config config = sim_config(0, 1);
    config.trace_file = path.string();
    Runtime runtime(config);
    Task("step").inout(value).submit(runtime);
    Task("step").inout(value).submit(runtime);
    runtime.barrier();
    runtime.finish();
  }
  const std::string text = read_file(path);
  std::filesystem::remove(path);
  EXPECT_NE(text.find(R"("name":"master")"), std::string::npos) << text;
  auto count = [&](const std::string &what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count(R"("name":"submit")"), 1u) << "one span for both tasks; none at finish, which submits nothing";
  EXPECT_EQ(count(R"("name":"rank")"), 2u) << "the barrier's, and finish's\n" << text;
}

// A task's body event says when it became ready and when the helper handed
// it to its device, on the clock of its start: a chain's link that starts
// late shows where it waited (ready list, staging, or its stream).
TEST(Trace, TaskEventsSayWhenTheTaskWasReadyAndDispatched) {
  const auto path =
      std::filesystem::temp_directory_path() / ("gpuss_trace_ready_" + std::to_string(::getpid()) + ".json");
  static int value;
  {
    Config config = sim_config(0, 1);
    config.trace_file = path.string();
    Runtime runtime(config);
    Task("first").inout(value).submit(runtime);
    Task("second").inout(value).submit(runtime);
    runtime.finish();
  }
  const std::string text = read_file(path);
  std::filesystem::remove(path);
  for (const char *label : {"first", "second"}) {
    const std::size_t event = text.find(std::string(R"("name":")") + label + "\"");
    ASSERT_NE(event, std::string::npos) << label << " not in\n" << text;
    const std::string line = text.substr(event, text.find('\n', event) - event);
    auto number = [&](const std::string &key) {
      const std::size_t at = line.find("\"" + key + "\":");
      return at == std::string::npos ? -1.0 : std::stod(line.substr(at + key.size() + 3));
    };
    const double start = number("ts"), ready = number("ready"), dispatched = number("dispatched");
    ASSERT_GE(ready, 0) << line;
    EXPECT_LE(ready, dispatched) << line;
    EXPECT_LE(dispatched, start) << line;
  }
}

INSTANTIATE_TEST_SUITE_P(Dag, Dag, ::testing::Values(host_config(1), host_config(2), sim_config(1, 1)),
                         [](const auto &info) { return config_name(info.param); });

} // namespace
} // namespace gpuss::test
