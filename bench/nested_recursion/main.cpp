// nested_recursion: fine-grained recursion with nested tasks (OmpSs-2 style)
// against the sequential recursion.
//
// fib(n) as a task that calls fib(n-1) and fib(n-2) as child tasks, writing
// its local variables, waits for them with a barrier in its body, and adds
// the results; below the cut-off it recurses sequentially. For each cut-off
// it prints
//   nested_recursion n=32 cutoff=16 cpus=3 tasks=... seconds=... sequential_seconds=...
//                    tasks_per_s=... speedup=...
// with a fresh runtime per run (configured from CSS_*, then --cpus), the
// best of --repeat runs; the sequential time is the same recursion as plain
// calls. It exits non-zero when a result is wrong.
#include "support/Config.hpp"
#include "api/Runtime.hpp"
#include "gpuss.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

struct Options {
  int n = 32;
  std::vector<int> cutoffs{12, 16, 20, 24};
  int cpus = -1;
  int repeat = 3;
};

[[noreturn]] void usage(const char *program, const char *problem) {
  std::fprintf(stderr, "%s: %s\nusage: %s [-n N] [--cutoff C[,C...]] [--cpus N] [--repeat R]\n", program,
               problem, program);
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
    auto number = [&](const char *text) {
      char *end = nullptr;
      const long n = std::strtol(text, &end, 10);
      if (end == text || (*end != '\0' && *end != ',') || n < 0) usage(argv[0], "bad number");
      return static_cast<int>(n);
    };
    if (arg == "-n")
      options.n = number(value());
    else if (arg == "--cpus")
      options.cpus = number(value());
    else if (arg == "--repeat")
      options.repeat = std::max(1, number(value()));
    else if (arg == "--cutoff") {
      options.cutoffs.clear();
      for (const char *p = value(); *p;) {
        options.cutoffs.push_back(number(p));
        p = std::strchr(p, ',');
        if (!p) break;
        ++p;
      }
    } else
      usage(argv[0], "unknown option");
  }
  return options;
}

long fib_sequential(int n) {
  return n < 2 ? n : fib_sequential(n - 1) + fib_sequential(n - 2);
}

struct FibArgs {
  gpuss::Runtime *runtime;
  int n, cutoff;
};

void submit_fib(gpuss::Runtime &runtime, int n, int cutoff, long *result);

// input(n) output(*result)
void fib_body(void *packed, const css_task_env *env) {
  FibArgs args;
  std::memcpy(&args, packed, sizeof args);
  long *result = static_cast<long *>(env->addresses[0]);
  if (args.n < args.cutoff) {
    *result = fib_sequential(args.n);
    return;
  }
  long x = 0, y = 0;
  submit_fib(*args.runtime, args.n - 1, args.cutoff, &x); // children of this task
  submit_fib(*args.runtime, args.n - 2, args.cutoff, &y);
  args.runtime->barrier(); // inside the body: waits for its children
  *result = x + y;
}

void submit_fib(gpuss::Runtime &runtime, int n, int cutoff, long *result) {
  FibArgs args{&runtime, n, cutoff};
  css_access access{css_contiguous(result, sizeof *result), CSS_OUT, CSS_COPY_DEFAULT, 0};
  css_task_desc desc{GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0,        1,       &access, fib_body, &args,
                     sizeof args,       "fib",          __FILE__, __LINE__};
  runtime.submit(desc);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parse(argc, argv);
  gpuss::Config config = gpuss::Config::from_environment();
  if (options.cpus >= 0) config.num_cpus = static_cast<unsigned>(options.cpus);

  double sequential = 1e30;
  long expected = 0;
  for (int r = 0; r < options.repeat; ++r) {
    auto start = std::chrono::steady_clock::now();
    expected = fib_sequential(options.n);
    sequential = std::min(sequential, seconds_since(start));
  }
  bool wrong = false;
  for (int cutoff : options.cutoffs) {
    double best = 1e30;
    std::uint64_t tasks = 0;
    for (int r = 0; r < options.repeat; ++r) {
      long result = 0;
      gpuss::Runtime runtime(config);
      auto start = std::chrono::steady_clock::now();
      submit_fib(runtime, options.n, cutoff, &result);
      runtime.barrier();
      best = std::min(best, seconds_since(start));
      tasks = runtime.stats().tasks;
      if (result != expected) {
        std::fprintf(stderr, "nested_recursion: FAIL fib(%d) = %ld, expected %ld (cutoff %d)\n", options.n,
                     result, expected, cutoff);
        wrong = true;
      }
    }
    std::printf("nested_recursion n=%d cutoff=%d cpus=%u tasks=%llu seconds=%.6f sequential_seconds=%.6f "
                "tasks_per_s=%.0f speedup=%.2f\n",
                options.n, cutoff, config.num_cpus, static_cast<unsigned long long>(tasks), best, sequential,
                static_cast<double>(tasks) / best, sequential / best);
  }
  return wrong ? 1 : 0;
}
