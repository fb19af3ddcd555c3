// Config: sizes and percentages, the CSS_* variables, and malformed values
// (fatal, naming the variable).
#include "scheduling/Scheduler.hpp"
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpuss::test {
namespace {

TEST(ParseMemorySize, BytesSuffixesAndPercentages) {
  std::size_t bytes = 0;
  ASSERT_TRUE(parse_memory_size("123", 0, bytes));
  EXPECT_EQ(bytes, 123u);
  ASSERT_TRUE(parse_memory_size("4K", 0, bytes));
  EXPECT_EQ(bytes, 4096u);
  ASSERT_TRUE(parse_memory_size("1M", 0, bytes));
  EXPECT_EQ(bytes, 1u << 20);
  ASSERT_TRUE(parse_memory_size("2G", 0, bytes));
  EXPECT_EQ(bytes, std::size_t{2} << 30);
  ASSERT_TRUE(parse_memory_size("75%", 1000, bytes));
  EXPECT_EQ(bytes, 750u);
  ASSERT_TRUE(parse_memory_size("50%", 64 << 10, bytes));
  EXPECT_EQ(bytes, 32u << 10);
}

TEST(ParseMemorySize, RejectsMalformedText) {
  std::size_t bytes = 0;
  for (const char *text : {"", "K", "12Q", "-5", "abc", "150%"})
    EXPECT_FALSE(parse_memory_size(text, 1000, bytes)) << "'" << text << "'";
}

TEST(CachePolicyNames, MatchTheEnvironmentSpelling) {
  EXPECT_STREQ(to_string(CachePolicy::NoCache), "nocache");
  EXPECT_STREQ(to_string(CachePolicy::WriteThrough), "wt");
  EXPECT_STREQ(to_string(CachePolicy::WriteBack), "wb");
}

TEST(DefaultNumCpus, AtLeastOne) {
  EXPECT_GE(Config::default_num_cpus(), 1u);
}

// Sets CSS_* variables for one scope and restores the old values.
class ScopedEnvironment {
public:
  explicit ScopedEnvironment(std::vector<std::pair<std::string, std::string>> values) {
    for (auto &[name, value] : values) {
      const char *old = std::getenv(name.c_str());
      saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
      ::setenv(name.c_str(), value.c_str(), 1);
    }
  }
  ~ScopedEnvironment() {
    for (auto &[name, value] : saved_) {
      if (value)
        ::setenv(name.c_str(), value->c_str(), 1);
      else
        ::unsetenv(name.c_str());
    }
  }

private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST(FromEnvironment, ReadsEveryVariable) {
  ScopedEnvironment env({{"CSS_NUM_CPUS", "3"},
                         {"CSS_NUM_GPUS", "0"},
                         {"CSS_SIM_DEVICES", "2"},
                         {"CSS_CACHE_POLICY", "wt"},
                         {"CSS_EVICTION", "lru"},
                         {"CSS_SCHEDULER", "round-robin"},
                         {"CSS_GPU_MEMORY", "64K"},
                         {"CSS_RENAME_MEMORY", "1M"},
                         {"CSS_STATS", "1"},
                         {"CSS_FAN_OUT_FIRST", "0"},
                         {"CSS_GPU_PRIORITY_LANE", "1"},
                         {"CSS_CRITICAL_PATH", "off"},
                         {"CSS_LOAD_AHEAD", "no"},
                         {"CSS_RANKED_FETCHES", "off"},
                         {"CSS_RANK_BY_TIME", "1"},
                         {"CSS_GPU_LANE_DEPTH", "0"},
                         {"CSS_GPU_WAIT_ALL_FETCHES", "1"},
                         {"CSS_GPU_ALIAS_PRIORITY", "0"},
                         {"CSS_PIN_HOST", "barrier"},
                         {"CSS_CHECK_REGIONS", "yes"},
                         {"CSS_DAG", "graph.dot"}});
  const Config config = Config::from_environment();
  EXPECT_EQ(config.num_cpus, 3u);
  EXPECT_EQ(config.num_gpus, 0);
  EXPECT_EQ(config.sim_devices, 2u);
  EXPECT_EQ(config.cache_policy, CachePolicy::WriteThrough);
  EXPECT_EQ(config.eviction, Eviction::Lru);
  EXPECT_EQ(config.scheduler, "round-robin");
  EXPECT_EQ(config.device_memory, "64K");
  EXPECT_EQ(config.rename_memory, std::size_t{1} << 20);
  EXPECT_TRUE(config.stats);
  EXPECT_FALSE(config.fan_out_first);
  EXPECT_TRUE(config.gpu_priority_lane);
  EXPECT_FALSE(config.critical_path);
  EXPECT_FALSE(config.load_ahead);
  EXPECT_FALSE(config.ranked_fetches);
  EXPECT_TRUE(config.rank_by_time);
  EXPECT_EQ(config.gpu_lane_depth, 0u);
  EXPECT_TRUE(config.gpu_wait_all_fetches);
  EXPECT_FALSE(config.gpu_alias_priority);
  EXPECT_EQ(config.pin_host, HostPinning::UntilBarrier);
  EXPECT_TRUE(config.check_regions);
  EXPECT_EQ(config.dag_file, "graph.dot");
}

TEST(FromEnvironment, FetchQueueTakesASizeAndZero) {
  for (auto [text, bytes] : {std::pair{"256M", std::size_t{256} << 20}, std::pair{"0", std::size_t{0}},
                             std::pair{"65536", std::size_t{65536}}}) {
    ScopedEnvironment env({{std::string("CSS_FETCH_QUEUE"), std::string(text)}});
    EXPECT_EQ(Config::from_environment().fetch_queue, bytes) << "CSS_FETCH_QUEUE=" << text;
  }
  EXPECT_EQ(Config{}.fetch_queue, std::size_t{1} << 30);
}

TEST(FromEnvironment, PinHostTakesSwitchesAndBarrier) {
  for (auto [text, pinning] :
       {std::pair{"1", HostPinning::UntilFreed}, std::pair{"on", HostPinning::UntilFreed},
        std::pair{"0", HostPinning::Off}, std::pair{"no", HostPinning::Off},
        std::pair{"barrier", HostPinning::UntilBarrier}}) {
    ScopedEnvironment env({{std::string("CSS_PIN_HOST"), std::string(text)}});
    EXPECT_EQ(Config::from_environment().pin_host, pinning) << "CSS_PIN_HOST=" << text;
  }
}

// A depth given is kept as given: the runtime deepens only the default where
// copy threads stage (staged_prefetch_depth; the GPU tests check that).
TEST(FromEnvironment, PrefetchDepthGivenIsMarked) {
  {
    ScopedEnvironment env({});
    const Config config = Config::from_environment();
    EXPECT_EQ(config.prefetch_depth, 6u);
    EXPECT_FALSE(config.prefetch_depth_set);
  }
  ScopedEnvironment env({{std::string("CSS_PREFETCH_DEPTH"), std::string("3")}});
  const Config config = Config::from_environment();
  EXPECT_EQ(config.prefetch_depth, 3u);
  EXPECT_TRUE(config.prefetch_depth_set);
}

// Without a GPU nothing stages, and the depth stays the default.
TEST(Resolve, NoGpuKeepsTheDefaultPrefetchDepth) {
  Config config = sim_config(1, 1);
  config.staging_auto = false;
  config.staging_threads = 4;
  Runtime runtime(config);
  EXPECT_EQ(runtime.stats().prefetch_depth, 6u);
  EXPECT_EQ(runtime.stats().staging_threads, 0u);
}

TEST(FromEnvironment, ProgramOrderTakesAutoAndSwitches) {
  EXPECT_EQ(Config{}.program_order, ProgramOrder::Auto);
  for (auto [text, order] : {std::pair{"auto", ProgramOrder::Auto}, std::pair{"1", ProgramOrder::Always},
                             std::pair{"yes", ProgramOrder::Always}, std::pair{"0", ProgramOrder::Never},
                             std::pair{"off", ProgramOrder::Never}}) {
    ScopedEnvironment env({{std::string("CSS_PROGRAM_ORDER"), std::string(text)}});
    EXPECT_EQ(Config::from_environment().program_order, order) << "CSS_PROGRAM_ORDER=" << text;
  }
}

// Apart from ReadsEveryVariable: partitions split GPUs, and that test asks
// for simulated devices, which CSS_GPU_PARTITIONS refuses.
TEST(FromEnvironment, ReadsGpuPartitions) {
  ScopedEnvironment env({{"CSS_GPU_PARTITIONS", "4"}, {"CSS_NUM_GPUS", "1"}, {"CSS_SIM_DEVICES", "0"}});
  const Config config = Config::from_environment();
  EXPECT_EQ(config.gpu_partitions, 4u);
  EXPECT_EQ(config.num_gpus, 1) << "CSS_NUM_GPUS still counts physical GPUs";
  ScopedEnvironment bounds({{"CSS_GPU_PARTITIONS", std::to_string(max_gpu_partitions)}});
  EXPECT_EQ(Config::from_environment().gpu_partitions, max_gpu_partitions);
  ScopedEnvironment one({{"CSS_GPU_PARTITIONS", "1"}, {"CSS_SIM_DEVICES", "2"}});
  EXPECT_EQ(Config::from_environment().gpu_partitions, 1u) << "one partition is no partitioning";
}

TEST(FromEnvironment, DefaultsWithoutVariables) {
  ScopedEnvironment env({});
  for (const char *name :
       {"CSS_NUM_CPUS", "CSS_SIM_DEVICES", "CSS_GPU_PARTITIONS", "CSS_CACHE_POLICY", "CSS_STATS",
        "CSS_FAN_OUT_FIRST", "CSS_LOAD_AHEAD", "CSS_PIN_HOST", "CSS_DAG", "CSS_CHECK_REGIONS",
        "CSS_GPU_PRIORITY_LANE", "CSS_RANK_BY_TIME", "CSS_RANKED_FETCHES", "CSS_GPU_LANE_DEPTH",
        "CSS_GPU_WAIT_ALL_FETCHES", "CSS_GPU_ALIAS_PRIORITY"})
    ::unsetenv(name);
  const Config config = Config::from_environment();
  EXPECT_GE(config.num_cpus, 1u);
  EXPECT_EQ(config.sim_devices, 0u);
  EXPECT_EQ(config.gpu_partitions, 1u);
  EXPECT_EQ(config.cache_policy, CachePolicy::WriteBack);
  EXPECT_FALSE(config.stats);
  EXPECT_TRUE(config.fan_out_first);
  EXPECT_FALSE(config.gpu_priority_lane) << "opt-in until measured on GPUs";
  EXPECT_TRUE(config.load_ahead);
  EXPECT_TRUE(config.ranked_fetches);
  EXPECT_EQ(config.gpu_lane_depth, 2u);
  EXPECT_FALSE(config.gpu_wait_all_fetches);
  EXPECT_TRUE(config.gpu_alias_priority);
  EXPECT_FALSE(config.rank_by_time) << "weighed ranks cost Cholesky 4% on one H200 (performance.md)";
  EXPECT_EQ(config.pin_host, HostPinning::UntilFreed);
  EXPECT_FALSE(config.check_regions);
  EXPECT_TRUE(config.dag_file.empty());
}

class MalformedVariable : public ::testing::TestWithParam<std::pair<const char *, const char *>> {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_P(MalformedVariable, IsFatalAndNamesTheVariable) {
  const auto [name, value] = GetParam();
  EXPECT_DEATH(
      {
        ::setenv(name, value, 1);
        Config::from_environment();
      },
      std::string("gpuss: error: .*") + name);
}

std::string malformed_name(const ::testing::TestParamInfo<MalformedVariable::ParamType> &info) {
  std::string name = std::string(info.param.first) + "_" + info.param.second;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(
    Config, MalformedVariable,
    ::testing::Values(std::pair{"CSS_NUM_CPUS", "many"}, std::pair{"CSS_NUM_CPUS", "-1"},
                      std::pair{"CSS_SIM_DEVICES", "2x"}, std::pair{"CSS_CACHE_POLICY", "writeback"},
                      std::pair{"CSS_EVICTION", "belady"}, std::pair{"CSS_GPU_MEMORY", "lots"},
                      std::pair{"CSS_RENAME_MEMORY", "50%"}, std::pair{"CSS_FAN_OUT_FIRST", "sometimes"},
                      std::pair{"CSS_GPU_PRIORITY_LANE", "maybe"}, std::pair{"CSS_LOAD_AHEAD", "2"},
                      std::pair{"CSS_PIN_HOST", "always"}, std::pair{"CSS_CHECK_REGIONS", "2"},
                      std::pair{"CSS_CHECK_REGIONS", "strict"}, std::pair{"CSS_PIN_THREADS", "-1"},
                      std::pair{"CSS_PIN_THREADS", "many"}, std::pair{"CSS_STAGING_THREADS", "65"},
                      std::pair{"CSS_STAGING_THREADS", "all"}, std::pair{"CSS_UNLOCKED_COPIES", "stage"},
                      std::pair{"CSS_UNLOCKED_COPIES", "1"}, std::pair{"CSS_SIM_MODEL", "chol_dgemm=fast"},
                      std::pair{"CSS_SIM_MODEL", "chol_dgemm=1ms"}, std::pair{"CSS_SCHEDULER", "fifo"},
                      std::pair{"CSS_GPU_MEMORY", "0"}, std::pair{"CSS_GPU_MEMORY", "0%"},
                      std::pair{"CSS_DAG", "/no-such-folder/graph.dot"},
                      std::pair{"CSS_TRACE", "/no-such-folder/trace.json"},
                      std::pair{"CSS_MPI_NET", "latency=fast"}, std::pair{"CSS_MPI_NET", "bandwidth=0"},
                      std::pair{"CSS_MPI_NET", "hops=3"}, std::pair{"CSS_PROGRAM_ORDER", "sometimes"}),
    malformed_name);

// CSS_UNLOCKED_COPIES, and whether CSS_PIN_THREADS was given (pageable
// copies start the pinning service unless it was).
TEST(FromEnvironment, UnlockedCopies) {
  {
    ScopedEnvironment env({});
    const Config config = Config::from_environment();
    EXPECT_EQ(config.unlocked_copies, UnlockedCopies::Auto);
    EXPECT_FALSE(config.pin_threads_set);
  }
  for (auto [text, mode] : {std::pair{"auto", UnlockedCopies::Auto}, std::pair{"lock", UnlockedCopies::Lock},
                            std::pair{"pageable", UnlockedCopies::Pageable}}) {
    ScopedEnvironment env({{std::string("CSS_UNLOCKED_COPIES"), std::string(text)}});
    EXPECT_EQ(Config::from_environment().unlocked_copies, mode) << text;
    EXPECT_STREQ(to_string(mode), text);
  }
  ScopedEnvironment env({{std::string("CSS_PIN_THREADS"), std::string("0")}});
  const Config config = Config::from_environment();
  EXPECT_TRUE(config.pin_threads_set);
  EXPECT_EQ(config.pin_threads, 0u);
}

// CSS_MPI_NET (runtime/mpi/NetworkModel.hpp): read, and not called unknown.
TEST(FromEnvironment, MpiNetworkModel) {
  ScopedEnvironment env({{std::string("CSS_MPI_NET"), std::string("latency=3us,bandwidth=50G")}});
  EXPECT_EQ(Config::from_environment().mpi_net, "latency=3us,bandwidth=50G");
  for (const Config::UnknownVariable &unknown : Config::unknown_variables())
    EXPECT_NE(unknown.name, "CSS_MPI_NET");
}

// A user error ends the process with status 1 (not abort()'s signal), as
// a compiler's does.
TEST(ConfigErrors, EndTheProcessWithStatusOne) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("CSS_CACHE_POLICY", "writeback", 1);
        Config::from_environment();
      },
      ::testing::ExitedWithCode(1), "gpuss: error: CSS_CACHE_POLICY='writeback'");
}

// Every name CSS_SCHEDULER accepts makes a policy.
TEST(FromEnvironment, EverySchedulerNameMakesAPolicy) {
  for (const char *name : scheduler_names) {
    ScopedEnvironment env({{std::string("CSS_SCHEDULER"), std::string(name)}});
    EXPECT_EQ(Config::from_environment().scheduler, name);
    EXPECT_NE(make_scheduling_policy(name), nullptr) << name;
  }
}

// Every variable docs/environment.md lists is one the runtime knows: none
// is called unknown (CSS_CHECK_REGIONS was, while RegionCheck read it: a
// helper's sweep, 2026-11-29).
TEST(UnknownVariables, NoneOfTheDocumentedOnes) {
  const char *documented[] = {
      "CSS_CACHE_POLICY",
      "CSS_CHECK_REGIONS",
      "CSS_CRITICAL_PATH",
      "CSS_RANK_BY_TIME",
      "CSS_DAG",
      "CSS_DEVICE_ALIASES",
      "CSS_DEVICE_EXTENTS",
      "CSS_DEVICE_GUARD",
      "CSS_EARLY_WRITE_BACK",
      "CSS_EVICTION",
      "CSS_FAN_OUT_FIRST",
      "CSS_GPU_MEMORY",
      "CSS_GPU_PARTITIONS",
      "CSS_GPU_PRIORITY_LANE",
      "CSS_GPU_STREAMS",
      "CSS_GPU_LANE_DEPTH",
      "CSS_GPU_WAIT_ALL_FETCHES",
      "CSS_GPU_ALIAS_PRIORITY",
      "CSS_LOAD_AHEAD",
      "CSS_RANKED_FETCHES",
      "CSS_FETCH_QUEUE",
      "CSS_MAX_TASKS",
      "CSS_MPI_NET",
      "CSS_NESTED",
      "CSS_NUM_CPUS",
      "CSS_NUM_GPUS",
      "CSS_OOC_ORDER",
      "CSS_PIN_HOST",
      "CSS_PIN_THREADS",
      "CSS_PREFETCH_DEPTH",
      "CSS_PROGRAM_ORDER",
      "CSS_RENAME_MEMORY",
      "CSS_SCHEDULER",
      "CSS_SIM_DEVICES",
      "CSS_SIM_MODEL",
      "CSS_SPIN",
      "CSS_STAGING_THREADS",
      "CSS_STATS",
      "CSS_TRACE",
      "CSS_UNLOCKED_COPIES",
      "CSS_WB_CLEAN",
  };
  std::vector<std::pair<std::string, std::string>> all;
  for (const char *name : documented)
    all.emplace_back(name, "1");
  ScopedEnvironment env(all);
  for (const Config::UnknownVariable &unknown : Config::unknown_variables())
    ADD_FAILURE() << unknown.name << " is documented but called unknown";
}

TEST(UnknownVariables, AreListedWithTheNameTheyMostLikelyMeant) {
  ScopedEnvironment env({{"CSS_NUMCPUS", "2"}, {"CSS_CACHE_POLICY", "wb"}, {"CSS_SOMETHING_ELSE", "1"}});
  std::vector<Config::UnknownVariable> unknown = Config::unknown_variables();
  auto find = [&](const std::string &name) {
    return std::find_if(unknown.begin(), unknown.end(), [&](const auto &u) { return u.name == name; });
  };
  ASSERT_NE(find("CSS_NUMCPUS"), unknown.end());
  EXPECT_EQ(find("CSS_NUMCPUS")->meant, "CSS_NUM_CPUS");
  ASSERT_NE(find("CSS_SOMETHING_ELSE"), unknown.end());
  EXPECT_EQ(find("CSS_SOMETHING_ELSE")->meant, "");
  EXPECT_EQ(find("CSS_CACHE_POLICY"), unknown.end()) << "a variable GPUSs reads was called unknown";
}

// Sizes are plain decimal numbers with K/M/G or %: exponents, hex, inf and
// nan were taken by strtod, and nan and inf reached casts to integers
// (CSS_DEVICE_GUARD=nan faulted in a copy; a helper's sweep, 2026-11-29).
INSTANTIATE_TEST_SUITE_P(Sizes, MalformedVariable,
                         ::testing::Values(std::pair{"CSS_GPU_MEMORY", "1e3"},
                                           std::pair{"CSS_GPU_MEMORY", "0x100000"},
                                           std::pair{"CSS_GPU_MEMORY", "nan"},
                                           std::pair{"CSS_GPU_MEMORY", "inf"},
                                           std::pair{"CSS_GPU_MEMORY", "99999999999G"},
                                           std::pair{"CSS_GPU_MEMORY", "1.5.2G"},
                                           std::pair{"CSS_DEVICE_GUARD", "nan"},
                                           std::pair{"CSS_DEVICE_GUARD", "1e30"},
                                           std::pair{"CSS_RENAME_MEMORY", "inf"},
                                           std::pair{"CSS_RENAME_MEMORY", "-1M"}),
                         malformed_name);

INSTANTIATE_TEST_SUITE_P(FetchQueue, MalformedVariable,
                         ::testing::Values(std::pair{"CSS_FETCH_QUEUE", "10%"},
                                           std::pair{"CSS_FETCH_QUEUE", "lots"},
                                           std::pair{"CSS_FETCH_QUEUE", "-1"}),
                         malformed_name);

INSTANTIATE_TEST_SUITE_P(GpuPartitions, MalformedVariable,
                         ::testing::Values(std::pair{"CSS_GPU_PARTITIONS", "0"},
                                           std::pair{"CSS_GPU_PARTITIONS", "17"},
                                           std::pair{"CSS_GPU_PARTITIONS", "two"},
                                           std::pair{"CSS_GPU_PARTITIONS", "2x"}),
                         malformed_name);

class GpuPartitionsMisuse : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// Simulated devices replace the GPUs: partitioning them is refused, by the
// parser and by a Runtime given such a Config in code.
TEST_F(GpuPartitionsMisuse, WithSimulatedDevicesOrOutOfBoundsIsFatal) {
  EXPECT_DEATH(
      {
        ::setenv("CSS_SIM_DEVICES", "2", 1);
        ::setenv("CSS_GPU_PARTITIONS", "2", 1);
        Config::from_environment();
      },
      "gpuss: error: CSS_GPU_PARTITIONS='2' splits GPUs, but CSS_SIM_DEVICES replaces them");
  EXPECT_DEATH(
      {
        Config config = sim_config(1, 2);
        config.gpu_partitions = 2;
        Runtime runtime(config);
      },
      "gpuss: error: CSS_GPU_PARTITIONS=2 splits GPUs, but CSS_SIM_DEVICES replaces them");
  EXPECT_DEATH(
      {
        Config config = host_config(1);
        config.gpu_partitions = 0;
        Runtime runtime(config);
      },
      "gpuss: error: CSS_GPU_PARTITIONS=0 is not from 1 to 16");
}

} // namespace
} // namespace gpuss::test
