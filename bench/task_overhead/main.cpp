// task_overhead: what one task costs the runtime, from submission to
// completion, for empty tasks in three dependency patterns:
//
//   independent  task i updates its own 8-byte slot i (no dependencies)
//   chain        every task updates slot 0 (each depends on the previous)
//   window       task i reads slot i%64 and updates slot (i+1)%64
//
// For each pattern a fresh runtime runs N tasks; the time from the first
// submit to the return of the barrier, divided by N, is printed as
//   task_overhead pattern=chain tasks=200000 cpus=1 us_per_task=1.23
// The runtime is configured from the environment (CSS_*), then --cpus.
// Bodies add one to their slot, so that the results can be checked; the
// program exits non-zero when they are wrong.
#include "support/Config.hpp"
#include "api/Runtime.hpp"
#include "gpuss.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::size_t kWindow = 64;

struct Options {
  std::size_t tasks = 200000;
  int cpus = -1; // from the environment
  std::string pattern = "all";
  int repeat = 1;
};

[[noreturn]] void usage(const char *program, const char *problem) {
  std::fprintf(
      stderr,
      "%s: %s\nusage: %s [--tasks N] [--cpus N] [--pattern independent|chain|window|all] [--repeat R]\n",
      program, problem, program);
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) usage(argv[0], "missing value");
      return argv[++i];
    };
    auto number = [&](long minimum) {
      const char *text = value();
      char *end = nullptr;
      const long n = std::strtol(text, &end, 10);
      if (end == text || *end != '\0' || n < minimum) usage(argv[0], "bad number");
      return n;
    };
    if (arg == "--tasks")
      options.tasks = static_cast<std::size_t>(number(1));
    else if (arg == "--cpus")
      options.cpus = static_cast<int>(number(1));
    else if (arg == "--pattern")
      options.pattern = value();
    else if (arg == "--repeat")
      options.repeat = static_cast<int>(number(1));
    else if (arg == "--help" || arg == "-h")
      usage(argv[0], "help");
    else
      usage(argv[0], "unknown option");
  }
  if (options.pattern != "all" && options.pattern != "independent" && options.pattern != "chain" &&
      options.pattern != "window")
    usage(argv[0], "unknown pattern");
  return options;
}

// The (empty) task: one increment of the last access's slot.
void bump(void *, const css_task_env *env) {
  ++*static_cast<std::uint64_t *>(env->addresses[env->num_accesses - 1]);
}

css_task_desc describe(const css_access *accesses, std::uint32_t count) {
  css_task_desc desc{};
  desc.abi_version = GPUSS_ABI_VERSION;
  desc.device_kind = CSS_DEVICE_SMP;
  desc.num_accesses = count;
  desc.accesses = accesses;
  desc.body = bump;
  desc.label = "empty";
  desc.file = __FILE__;
  desc.line = __LINE__;
  return desc;
}

// Runs one pattern; returns microseconds per task, or a negative number when the results are wrong.
double run(const std::string &pattern, std::size_t tasks, const gpuss::Config &config) {
  std::vector<std::uint64_t> slots(pattern == "independent" ? tasks : kWindow, 0);
  std::vector<std::uint64_t> expected(slots.size(), 0);
  double seconds = 0;
  {
    gpuss::Runtime runtime(config);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < tasks; ++i) {
      if (pattern == "independent") {
        const css_access access{css_contiguous(&slots[i], sizeof slots[i]), CSS_INOUT, CSS_COPY_DEFAULT, 0};
        runtime.submit(describe(&access, 1));
      } else if (pattern == "chain") {
        const css_access access{css_contiguous(&slots[0], sizeof slots[0]), CSS_INOUT, CSS_COPY_DEFAULT, 0};
        runtime.submit(describe(&access, 1));
      } else {
        const css_access accesses[2] = {
            {css_contiguous(&slots[i % kWindow], sizeof(std::uint64_t)), CSS_IN, CSS_COPY_DEFAULT, 0},
            {css_contiguous(&slots[(i + 1) % kWindow], sizeof(std::uint64_t)), CSS_INOUT, CSS_COPY_DEFAULT,
             0}};
        runtime.submit(describe(accesses, 2));
      }
    }
    runtime.barrier();
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  for (std::size_t i = 0; i < tasks; ++i) {
    if (pattern == "independent")
      ++expected[i];
    else if (pattern == "chain")
      ++expected[0];
    else
      ++expected[(i + 1) % kWindow];
  }
  if (slots != expected) {
    std::fprintf(stderr, "task_overhead: FAIL pattern=%s: wrong results\n", pattern.c_str());
    return -1;
  }
  return seconds * 1e6 / static_cast<double>(tasks);
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parse(argc, argv);
  gpuss::Config config = gpuss::Config::from_environment();
  if (options.cpus > 0) config.num_cpus = static_cast<unsigned>(options.cpus);

  int status = 0;
  for (const char *pattern : {"independent", "chain", "window"}) {
    if (options.pattern != "all" && options.pattern != pattern) continue;
    for (int r = 0; r < options.repeat; ++r) {
      const double us = run(pattern, options.tasks, config);
      if (us < 0) {
        status = 1;
        continue;
      }
      std::printf("task_overhead pattern=%s tasks=%zu cpus=%u us_per_task=%.3f\n", pattern, options.tasks,
                  config.num_cpus, us);
      std::fflush(stdout);
    }
  }
  return status;
}
