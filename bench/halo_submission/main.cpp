// halo_submission: what one task of a halo stencil costs the master to
// submit when it runs far ahead of the workers (issue 16, item 12).
//
// A 1-D grid of --blocks blocks of --elements 8-byte elements. Each step,
// block i's task updates block i in place (inout) from the last --halo
// elements of block i - 1 and the first --halo of block i + 1 (inputs:
// strips inside the neighbours' blocks). For each step count of --steps a
// fresh runtime gets that many steps with no barrier, behind first-step
// tasks that wait until everything is submitted: nothing finishes
// meanwhile, so every dependency is an edge and the master is as far ahead
// as it can be. It prints, per run,
//   halo_submission steps=100 blocks=4 halo=4 border=0 tasks=400 cpus=1
//                   submit_us_per_task=1.23 edges_per_task=2.50
// (one line), where submit_us_per_task is the submit loop's time over the tasks and
// edges_per_task Stats::edges over the tasks; then the first step is let
// go, the barrier waits for the rest, and the result is compared with a
// sequential run. --halo 0 gives the same tasks without halos (one chain per
// block). --border adds a fixed boundary of --halo elements at each end,
// which the first and the last block read every step and no task writes (as
// in a stencil with fixed boundary values): its readers pile up until the
// barrier. The runtime is configured from the environment (CSS_*), then
// --cpus. The program exits non-zero, printing FAIL, when a result is wrong.
#include "support/Config.hpp"
#include "api/Runtime.hpp"
#include "gpuss.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Options {
  std::vector<long> steps{100, 200, 400, 800, 1600, 3200};
  std::size_t blocks = 4;
  std::size_t elements = 64;
  std::size_t halo = 4;
  bool border = false;
  int cpus = -1; // from the environment
  int repeat = 1;
};

[[noreturn]] void usage(const char *program, const char *problem) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [--steps S[,S...]] [--blocks B] [--elements E] [--halo H] [--border] "
               "[--cpus N] [--repeat R]\n",
               program, problem, program);
  std::exit(2);
}

long parse_number(const char *program, const char *text, long minimum) {
  char *end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (end == text || (*end != '\0' && *end != ',') || n < minimum) usage(program, "bad number");
  return n;
}

Options parse(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) usage(argv[0], "missing value");
      return argv[++i];
    };
    if (arg == "--steps") {
      options.steps.clear();
      for (const char *text = value(); *text;) {
        options.steps.push_back(parse_number(argv[0], text, 1));
        text = std::strchr(text, ',');
        text = text ? text + 1 : "";
      }
    } else if (arg == "--blocks")
      options.blocks = static_cast<std::size_t>(parse_number(argv[0], value(), 1));
    else if (arg == "--elements")
      options.elements = static_cast<std::size_t>(parse_number(argv[0], value(), 1));
    else if (arg == "--halo")
      options.halo = static_cast<std::size_t>(parse_number(argv[0], value(), 0));
    else if (arg == "--border")
      options.border = true;
    else if (arg == "--cpus")
      options.cpus = static_cast<int>(parse_number(argv[0], value(), 1));
    else if (arg == "--repeat")
      options.repeat = static_cast<int>(parse_number(argv[0], value(), 1));
    else if (arg == "--help" || arg == "-h")
      usage(argv[0], "help");
    else
      usage(argv[0], "unknown option");
  }
  if (options.halo > options.elements) usage(argv[0], "the halo is larger than a block");
  return options;
}

// Holds the first step's tasks until the master has submitted every step.
struct Gate {
  std::atomic<bool> open{false};
  void wait() {
    while (!open.load(std::memory_order_acquire))
      open.wait(false, std::memory_order_acquire);
  }
  void release() {
    open.store(true, std::memory_order_release);
    open.notify_all();
  }
};

struct Args {
  std::uint64_t salt;
  std::size_t elements, halo;
  Gate *gate; // the first step's tasks only
};

// One step of one block: the block from itself, the halos it reads and the salt.
void update(std::uint64_t *block, const std::uint64_t *left, const std::uint64_t *right, const Args &args) {
  std::uint64_t from_halos = args.salt;
  for (std::size_t k = 0; k < args.halo; ++k)
    from_halos += (left ? left[k] : 0) + 7 * (right ? right[k] : 0);
  for (std::size_t k = 0; k < args.elements; ++k)
    block[k] = block[k] * 3 + from_halos + k;
}

// Access 0 is the block; the halos follow, the left one first, where there are neighbours.
void update_body(void *packed, const css_task_env *env) {
  Args args;
  std::memcpy(&args, packed, sizeof args);
  if (args.gate) args.gate->wait();
  const std::uint64_t *halos[2] = {nullptr, nullptr};
  for (std::uint32_t i = 1; i < env->num_accesses; ++i) {
    const auto *block = static_cast<const std::uint64_t *>(env->accesses[0].region.base);
    const bool left = static_cast<const std::uint64_t *>(env->accesses[i].region.base) < block;
    halos[left ? 0 : 1] = static_cast<const std::uint64_t *>(env->addresses[i]);
  }
  update(static_cast<std::uint64_t *>(env->addresses[0]), halos[0], halos[1], args);
}

struct Result {
  std::size_t tasks = 0;
  double submit_us_per_task = 0;
  double edges_per_task = 0;
  bool correct = false;
};

Result run(long steps, const Options &options, const gpuss::Config &config) {
  const std::size_t blocks = options.blocks, elements = options.elements, halo = options.halo;
  // The blocks, after a boundary of `halo` elements when there is one (and before another).
  const std::size_t boundary = options.border ? halo : 0;
  std::vector<std::uint64_t> data(blocks * elements + 2 * boundary), expected(data.size());
  // Whether block b reads a left (right) halo: a neighbour's, or the boundary's.
  auto reads_left = [&](std::size_t b) { return halo > 0 && (b > 0 || options.border); };
  auto reads_right = [&](std::size_t b) { return halo > 0 && (b + 1 < blocks || options.border); };
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = expected[i] = i * 2654435761u;
  const std::size_t block_bytes = elements * sizeof(std::uint64_t), halo_bytes = halo * sizeof(std::uint64_t);
  Gate gate;
  Result result;
  {
    gpuss::Runtime runtime(config);
    const auto start = std::chrono::steady_clock::now();
    for (long s = 0; s < steps; ++s)
      for (std::size_t b = 0; b < blocks; ++b) {
        std::uint64_t *block = &data[boundary + b * elements];
        css_access accesses[3];
        std::uint32_t count = 0;
        accesses[count++] = {css_contiguous(block, block_bytes), CSS_INOUT, CSS_COPY_DEFAULT, 0};
        if (reads_left(b))
          accesses[count++] = {css_contiguous(block - halo, halo_bytes), CSS_IN, CSS_COPY_DEFAULT, 0};
        if (reads_right(b))
          accesses[count++] = {css_contiguous(block + elements, halo_bytes), CSS_IN, CSS_COPY_DEFAULT, 0};
        const Args args{static_cast<std::uint64_t>(s) * blocks + b, elements, halo, s == 0 ? &gate : nullptr};
        css_task_desc desc{};
        desc.abi_version = GPUSS_ABI_VERSION;
        desc.device_kind = CSS_DEVICE_SMP;
        desc.num_accesses = count;
        desc.accesses = accesses;
        desc.body = update_body;
        desc.args = &args;
        desc.args_size = sizeof args;
        desc.label = "halo_block";
        desc.file = __FILE__;
        desc.line = __LINE__;
        runtime.submit(desc);
        ++result.tasks;
      }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.submit_us_per_task = seconds * 1e6 / static_cast<double>(result.tasks);
    result.edges_per_task = static_cast<double>(runtime.stats().edges) / static_cast<double>(result.tasks);
    gate.release();
    runtime.barrier();
  }
  for (long s = 0; s < steps; ++s)
    for (std::size_t b = 0; b < blocks; ++b) {
      std::uint64_t *block = &expected[boundary + b * elements];
      const Args args{static_cast<std::uint64_t>(s) * blocks + b, elements, halo, nullptr};
      update(block, reads_left(b) ? block - halo : nullptr, reads_right(b) ? block + elements : nullptr,
             args);
    }
  result.correct = data == expected;
  return result;
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parse(argc, argv);
  gpuss::Config config = gpuss::Config::from_environment();
  if (options.cpus > 0) config.num_cpus = static_cast<unsigned>(options.cpus);

  int status = 0;
  for (long steps : options.steps)
    for (int r = 0; r < options.repeat; ++r) {
      const Result result = run(steps, options, config);
      if (!result.correct) {
        std::fprintf(stderr, "halo_submission: FAIL steps=%ld: wrong results\n", steps);
        status = 1;
        continue;
      }
      std::printf("halo_submission steps=%ld blocks=%zu halo=%zu border=%d tasks=%zu cpus=%u "
                  "submit_us_per_task=%.3f edges_per_task=%.2f\n",
                  steps, options.blocks, options.halo, options.border ? 1 : 0, result.tasks, config.num_cpus,
                  result.submit_us_per_task, result.edges_per_task);
      std::fflush(stdout);
    }
  return status;
}
