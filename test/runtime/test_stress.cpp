// Stress: thousands of random tasks over one shared array, compared with a
// plain sequential execution of the same bodies.
//
// Each task has one to three pairwise disjoint accesses (contiguous, or
// strided with gaps) at random places, with a hot zone so that they overlap
// often, or whole blocks of a fixed grid, so that outputs match earlier
// accesses exactly and get renamed. A quarter of the tasks name one
// parameter in two to five regions of a window (css_access::group), of
// mixed shapes, that may overlap each other (input and inout of the same
// bytes), and reach all of them through the first one's pointer, as
// translated code does; some tasks have accesses that alias without a group.
// A tenth of the tasks call child tasks in their bodies, up to three levels
// deep, over parts of the data they write (nested tasks). Bodies fold every value they
// read into a seed and write deterministic functions of it, so any reordering of a RAW, WAR or WAW pair, a
// lost copy or a stale replica changes the final bytes. A sequential shadow advances in lock step with
// submission; at random barriers and wait_on calls the runtime's user memory must equal the shadow.
//
// Swept over seeds, host worker counts and configurations: host only, and
// simulated devices x cache policies x device memory (large, and far smaller
// than the data) x schedulers. Sanitizer builds (quick mode) run fewer tasks
// and skip part of the sweep.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace gpuss::test {
namespace {

constexpr std::size_t kElements = 8192; // 32 KiB of uint32_t
constexpr std::size_t kHotZone = 1024;  // half the other regions start here, to collide often
constexpr std::size_t kBlock = 128;     // whole-block regions: 40% of all
constexpr std::size_t kHotBlocks = 24;
constexpr std::size_t kWindow = 384; // the span of a group's regions: fits the smallest caches
// The renaming zone, after every other region: only whole blocks, alone or
// as the regions of one parameter, so that no partial overlap ever keeps a
// block from being renamed, and a group's region is often a renamed one.
constexpr std::size_t kZoneStart = 5120;
constexpr std::size_t kZoneBlocks = (kElements - kZoneStart) / kBlock;

// ---------------------------------------------------------------- the bodies

std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Where the body finds access `index`: through its own address, or for a
// region of a group through the pointer of the group's first access (what
// gpuss-translate's css_translate(env, first, pointer) gives).
std::byte *address_of(const css_task_env *env, std::uint32_t index) {
  const css_access &access = env->accesses[index];
  std::uint32_t first = index;
  if (access.group != 0)
    for (std::uint32_t i = 0; i < index; ++i)
      if (env->accesses[i].group == access.group) {
        first = i;
        break;
      }
  return static_cast<std::byte *>(env->addresses[first]) +
         (static_cast<const std::byte *>(access.region.base) -
          static_cast<const std::byte *>(env->accesses[first].region.base));
}

// Visits every element of access `index` as it lies where the body finds it.
template <class F> void for_each_element(const css_task_env *env, std::uint32_t index, F &&visit) {
  const css_region &shape = env->accesses[index].region;
  std::byte *base = address_of(env, index);
  const std::size_t columns = shape.row_bytes / sizeof(std::uint32_t);
  std::uint32_t k = 0;
  for (std::size_t r = 0; r < shape.rows; ++r) {
    auto *row = reinterpret_cast<std::uint32_t *>(base + r * (shape.rows > 1 ? shape.stride : 0));
    for (std::size_t c = 0; c < columns; ++c)
      visit(row[c], k++);
  }
}

struct StressArgs {
  std::uint32_t id;
  std::uint32_t delay_us; // a few tasks are slow, so that the graph fills up and outputs get renamed
  std::uint32_t nesting;  // levels of child tasks the body creates over its written data (0: none)
  Runtime *runtime;       // where children go; null: run them at once (the sequential shadow)
};

void stress_body(void *args, const css_task_env *env);

// After its own work, a body with nesting left calls one to three child
// tasks, each over a run of elements of one row of an access it writes, in
// its own address space (as a child's regions must be). Siblings may
// overlap: they are ordered by their regions. The sequential shadow runs
// each at its call, as the sequential program would.
void call_children(const StressArgs &a, const css_task_env *env) {
  if (a.nesting == 0) return;
  std::uint32_t roll = mix(a.id * 7 + a.nesting);
  for (std::uint32_t c = 0, children = 1 + roll % 3; c < children; ++c) {
    std::uint32_t index = (roll >> 4) + c * 5;
    std::uint32_t i = index % env->num_accesses;
    if (env->accesses[i].direction == CSS_IN) continue;
    const css_region &shape = env->accesses[i].region;
    const std::size_t columns = shape.row_bytes / sizeof(std::uint32_t);
    const std::size_t row = (roll >> 8) % shape.rows, first = (roll >> 12) % columns;
    const std::size_t count = 1 + (roll >> 20) % (columns - first);
    std::byte *base =
        address_of(env, i) + row * (shape.rows > 1 ? shape.stride : 0) + first * sizeof(std::uint32_t);
    css_access access{css_contiguous(base, count * sizeof(std::uint32_t)), CSS_INOUT, CSS_COPY_DEFAULT, 0};
    StressArgs child{a.id * 16 + 1 + c, 0, a.nesting - 1, a.runtime};
    if (!a.runtime) {
      void *address = base;
      css_task_env child_env{&address, &access, 1, CSS_DEVICE_SMP, -1, nullptr, nullptr};
      stress_body(&child, &child_env);
      continue;
    }
    css_task_desc desc{GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0,        1,       &access, stress_body, &child,
                       sizeof child,      "stress_child", __FILE__, __LINE__};
    a.runtime->submit(desc); // inside the body: a child of the running task
  }
}

void stress_body(void *args, const css_task_env *env) {
  StressArgs a;
  std::memcpy(&a, args, sizeof a);
  const std::uint32_t id = a.id;
  if (a.delay_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(a.delay_us));
  std::uint32_t seed = mix(id + 1);
  for (std::uint32_t i = 0; i < env->num_accesses; ++i)
    if (env->accesses[i].direction != CSS_OUT)
      for_each_element(env, i, [&](std::uint32_t &v, std::uint32_t) { seed = seed * 31 + v; });
  for (std::uint32_t i = 0; i < env->num_accesses; ++i) {
    switch (env->accesses[i].direction) {
    case CSS_OUT:
      for_each_element(env, i,
                       [&](std::uint32_t &v, std::uint32_t k) { v = mix(seed ^ (k * 0x9e3779b9U) ^ id); });
      break;
    case CSS_INOUT:
      for_each_element(env, i, [&](std::uint32_t &v, std::uint32_t k) { v = v * 31 + id + seed + k; });
      break;
    default:
      break;
    }
  }
  call_children(a, env);
}

// ---------------------------------------------------------------- the random program

struct RegionSpec {
  std::size_t offset = 0; // elements
  std::size_t columns = 1;
  std::size_t rows = 1;
  std::size_t stride = 1; // elements between row starts

  std::size_t span() const { return (rows - 1) * stride + columns; }
  css_region at(std::uint32_t *array) const {
    return css_region{array + offset, columns * sizeof(std::uint32_t), rows, stride * sizeof(std::uint32_t)};
  }
  template <class F> void for_each_index(F &&f) const {
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < columns; ++c)
        f(offset + r * stride + c);
  }
};

struct AccessSpec {
  RegionSpec region;
  css_direction direction = CSS_IN;
  std::uint32_t group = 0;
};

struct Step {
  enum Kind { Submit, Barrier, WaitOn } kind = Submit;
  std::uint32_t id = 0;
  std::uint32_t delay_us = 0;
  std::uint32_t nesting = 0;
  std::vector<AccessSpec> accesses; // Submit
  std::vector<RegionSpec> waited;   // WaitOn
};

class Generator {
public:
  explicit Generator(std::uint64_t seed) : random_(seed) {}

  std::vector<Step> program(std::size_t tasks) {
    std::vector<Step> steps;
    for (std::uint32_t id = 0; id < tasks; ++id) {
      steps.push_back(task(id));
      const unsigned roll = below(1000);
      if (roll < 3) {
        Step barrier;
        barrier.kind = Step::Barrier;
        steps.push_back(barrier);
      } else if (roll < 15) {
        Step wait;
        wait.kind = Step::WaitOn;
        for (std::size_t n = 1 + below(2); n > 0; --n)
          wait.waited.push_back(region());
        steps.push_back(wait);
      }
    }
    return steps;
  }

private:
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(random_() % n); }

  RegionSpec region() {
    RegionSpec spec;
    const unsigned shape = below(10);
    if (shape < 4) { // one of a few whole blocks: exact matches, so that outputs get renamed
      spec.columns = kBlock;
      spec.offset = below(2) == 0 ? below(kHotBlocks) * kBlock : zone_block();
      return spec;
    }
    if (shape < 6) { // strided
      spec.columns = 1 + below(32);
      spec.stride = spec.columns + below(65 - spec.columns);
      spec.rows = 2 + below(5);
    } else {
      spec.columns = 1 + below(192);
    }
    const std::size_t limit = (below(2) == 0 ? kHotZone : kZoneStart) - spec.span() + 1;
    spec.offset = below(limit);
    return spec;
  }

  std::size_t zone_block() { return kZoneStart + below(kZoneBlocks) * kBlock; }

  css_direction direction() {
    const unsigned roll = below(10);
    return roll < 4 ? CSS_IN : roll < 7 ? CSS_OUT : CSS_INOUT;
  }

  // A region inside [window, window + kWindow): whole hot blocks sometimes.
  RegionSpec region_in_window(std::size_t window) {
    RegionSpec spec;
    const unsigned shape = below(10);
    if (shape < 2 && window % kBlock == 0) {
      spec.columns = kBlock;
      spec.offset = window + below(kWindow / kBlock) * kBlock;
      return spec;
    }
    if (shape < 6) {
      spec.columns = 1 + below(16);
      spec.stride = spec.columns + below(33 - spec.columns);
      spec.rows = 2 + below(5);
    } else {
      spec.columns = 1 + below(64);
    }
    spec.offset = window + below(kWindow - spec.span() + 1);
    return spec;
  }

  Step task(std::uint32_t id) {
    Step step;
    step.id = id;
    if (below(100) < 4) step.delay_us = static_cast<std::uint32_t>(100 + below(400));
    if (below(10) == 0) step.nesting = static_cast<std::uint32_t>(1 + below(3));
    std::vector<bool> used(kElements, false);
    if (below(4) == 0) {
      // One parameter in several regions of a window, reached through one
      // pointer; they may overlap each other.
      const std::size_t window =
          below(2) == 0 ? below(kHotBlocks - kWindow / kBlock + 1) * kBlock : below(kZoneStart - kWindow + 1);
      for (std::size_t n = 2 + below(4); n > 0; --n) {
        AccessSpec access{region_in_window(window), direction(), 1};
        access.region.for_each_index([&](std::size_t i) { used[i] = true; });
        step.accesses.push_back(access);
      }
    } else if (below(3) == 0) {
      // One parameter in two or three whole neighbouring blocks of the
      // renaming zone (as `input(v[0;1]) output(v[1;1])`), one of which may be
      // renamed now.
      const std::size_t first = kZoneStart + below(kZoneBlocks - 2) * kBlock;
      for (std::size_t n = 2 + below(2); n > 0; --n) {
        AccessSpec access{RegionSpec{first + below(3) * kBlock, kBlock}, direction(), 2};
        if (used[access.region.offset]) continue;
        access.region.for_each_index([&](std::size_t i) { used[i] = true; });
        step.accesses.push_back(access);
      }
    }
    const bool may_alias = below(10) == 0; // pointer arguments that share bytes, no group
    const std::size_t wanted = 1 + below(3);
    for (int attempt = 0; attempt < 20 && step.accesses.size() < wanted; ++attempt) {
      AccessSpec access{region(), direction()};
      bool clash = false;
      access.region.for_each_index([&](std::size_t i) { clash = clash || used[i]; });
      if (clash && !may_alias) continue;
      access.region.for_each_index([&](std::size_t i) { used[i] = true; });
      step.accesses.push_back(access);
    }
    // Every task writes something, so that what it read shows in the result.
    bool writes = false;
    for (const AccessSpec &a : step.accesses)
      writes = writes || a.direction != CSS_IN;
    if (!writes) step.accesses.back().direction = CSS_INOUT;
    return step;
  }

  std::mt19937_64 random_;
};

// Runs one task's body sequentially over `array` (the shadow).
void run_sequentially(const Step &step, std::uint32_t *array) {
  std::vector<css_access> accesses;
  std::vector<void *> addresses;
  for (const AccessSpec &a : step.accesses) {
    accesses.push_back(
        css_access{a.region.at(array), static_cast<std::uint32_t>(a.direction), CSS_COPY_DEFAULT, a.group});
    addresses.push_back(accesses.back().region.base);
  }
  css_task_env env{
      addresses.data(), accesses.data(), static_cast<std::uint32_t>(accesses.size()), CSS_DEVICE_SMP, -1,
      nullptr,          nullptr};
  StressArgs args{step.id, 0, step.nesting, nullptr};
  stress_body(&args, &env);
}

std::string describe(const RegionSpec &r) {
  std::ostringstream text;
  text << "[offset " << r.offset << ", " << r.rows << " rows of " << r.columns << " stride " << r.stride
       << "]";
  return text.str();
}

// ---------------------------------------------------------------- the sweep

struct StressCase {
  std::uint64_t seed;
  Config config;
};

void PrintTo(const StressCase &param, std::ostream *os) {
  *os << config_name(param.config) << " seed " << param.seed;
}

class Stress : public ::testing::TestWithParam<StressCase> {};

TEST_P(Stress, MatchesSequentialExecution) {
  const StressCase &param = GetParam();
  const bool quick = quick_mode();
  if (quick && (param.seed != 1 || (param.config.sim_devices > 0 && param.config.num_cpus != 2)))
    GTEST_SKIP() << "quick mode (sanitizer build or GPUSS_TEST_QUICK=1) runs seed 1, and cpus2 with devices";
  const std::size_t tasks = quick ? 1000 : 3000;

  const std::vector<Step> program = Generator(param.seed).program(tasks);
  std::vector<std::uint32_t> array(kElements), shadow(kElements);
  for (std::size_t i = 0; i < kElements; ++i)
    array[i] = shadow[i] = mix(static_cast<std::uint32_t>(i) + 12345);

  Runtime runtime(param.config);
  std::size_t barriers = 0, waits = 0;
  for (const Step &step : program) {
    switch (step.kind) {
    case Step::Submit: {
      Task task("stress");
      for (const AccessSpec &a : step.accesses)
        task.access(a.region.at(array.data()), a.direction, CSS_COPY_DEFAULT, a.group);
      task.function(stress_body, StressArgs{step.id, step.delay_us, step.nesting, &runtime}).submit(runtime);
      run_sequentially(step, shadow.data());
      break;
    }
    case Step::Barrier: {
      runtime.barrier();
      ++barriers;
      std::size_t wrong = 0, first = 0;
      for (std::size_t i = 0; i < kElements; ++i)
        if (array[i] != shadow[i] && wrong++ == 0) first = i;
      EXPECT_EQ(wrong, 0u) << "after barrier " << barriers << " (step " << (&step - program.data())
                           << "), first wrong element " << first << " is " << array[first]
                           << ", sequential value " << shadow[first];
      break;
    }
    case Step::WaitOn: {
      std::vector<css_region> regions;
      for (const RegionSpec &r : step.waited)
        regions.push_back(r.at(array.data()));
      runtime.wait_on(regions);
      ++waits;
      for (const RegionSpec &r : step.waited) {
        bool same = true;
        std::size_t first_bad = 0;
        // Only the waited bytes are settled; others may still be written by tasks.
        r.for_each_index([&](std::size_t i) {
          if (same && array[i] != shadow[i]) {
            same = false;
            first_bad = i;
          }
        });
        EXPECT_TRUE(same) << "wait_on " << waits << " (step " << (&step - program.data()) << ") "
                          << describe(r) << ": element " << first_bad << " is " << array[first_bad]
                          << ", sequential value " << shadow[first_bad];
      }
      break;
    }
    }
  }
  runtime.finish();
  std::size_t wrong = 0, first_wrong = kElements;
  for (std::size_t i = 0; i < kElements; ++i)
    if (array[i] != shadow[i] && wrong++ == 0) first_wrong = i;
  EXPECT_EQ(wrong, 0u) << "elements differ from sequential execution; first at " << first_wrong;
  EXPECT_GE(runtime.stats().tasks, tasks);
  RecordProperty("renamed", std::to_string(runtime.stats().renamed));
  RecordProperty("child_tasks", std::to_string(runtime.stats().child_tasks));
  RecordProperty("inline_tasks", std::to_string(runtime.stats().inline_tasks));
}

std::vector<StressCase> stress_cases() {
  std::vector<Config> configs;
  for (unsigned cpus : {1u, 2u, 4u}) {
    configs.push_back(host_config(cpus));
    for (unsigned devices : {1u, 3u})
      for (CachePolicy policy : {CachePolicy::NoCache, CachePolicy::WriteThrough, CachePolicy::WriteBack})
        for (const char *memory : {"1M", "8K"})
          for (const char *scheduler : {"locality", "round-robin"})
            configs.push_back(sim_config(cpus, devices, policy, memory, scheduler));
  }
  std::vector<StressCase> cases;
  for (std::uint64_t seed : {1u, 2u})
    for (const Config &config : configs)
      cases.push_back(StressCase{seed, config});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Stress, Stress, ::testing::ValuesIn(stress_cases()), [](const auto &info) {
  return config_name(info.param.config) + "_seed" + std::to_string(info.param.seed);
});

} // namespace
} // namespace gpuss::test
