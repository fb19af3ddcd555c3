// GPU tests: tasks with real kernels and cuBLAS calls, run by the runtime on
// 1, 2 and 4 GPUs under each coherence policy, with caches large and far
// smaller than the data. Each test skips, saying why, where the GPUs are
// missing.
//
// A case's GPU count is a count of devices. With CSS_GPU_PARTITIONS=N in the
// environment each GPU may appear as up to N devices (docs/environment.md),
// so the multi-GPU cases run on a node with fewer GPUs (gpu.2gpu-partitions,
// gpu.4gpu-partitions).
#include "memory/HostReleaseHooks.hpp"
#include "api/Runtime.hpp"
#include "gpu_kernels.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

using gpuss::CachePolicy;
using gpuss::Config;
using gpuss::Runtime;
using gpuss::UnlockedCopies;

int gpus_present() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

// How a case that wants `devices` devices gets exactly that many.
struct Layout {
  int gpus = 1;            // physical GPUs, Config::num_gpus
  unsigned partitions = 1; // devices per GPU, Config::gpu_partitions
};

// Without CSS_GPU_PARTITIONS, one device per GPU. With CSS_GPU_PARTITIONS=N,
// the largest partition count up to N that divides `devices`, on the GPUs
// that makes up: 2 devices with N=2 or N=4 are 2 partitions of one GPU, 4
// with N=4 are 4 partitions of one GPU, 4 with N=2 are 2 GPUs of 2, 1 is
// always a whole GPU. Dividing exactly keeps a case's device count what its
// name says (rounding the GPUs up would give a 1-device case 2 devices).
Layout layout_for(int devices) {
  // The runtime's own parser: a malformed value fails here as it would there.
  unsigned most = Config::from_environment().gpu_partitions;
  Layout layout;
  layout.partitions = std::min(most, static_cast<unsigned>(devices));
  while (devices % layout.partitions != 0)
    --layout.partitions;
  layout.gpus = devices / static_cast<int>(layout.partitions);
  return layout;
}

// Empty when the node has the GPUs `layout` needs, else why the case skips.
std::string missing_gpus(int devices, const Layout &layout) {
  int present = gpus_present();
  if (present >= layout.gpus) return {};
  std::ostringstream why;
  why << "needs " << devices << " device(s): " << layout.gpus << " GPU(s) of " << layout.partitions
      << " partition(s) each, " << present << " GPU(s) present; ";
  if (present == 0)
    why << "run on a GPU node (docs/testing.md)";
  else
    why << "run on a node with more GPUs, or with CSS_GPU_PARTITIONS=" << (devices + present - 1) / present
        << " (gpu.*-partitions, docs/testing.md)";
  return why.str();
}

struct ScaleArgs {
  std::size_t n;
  double factor, addend;
};

// inout(x[n]): x = x*factor + addend, as a kernel on the worker's stream.
void scale_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<ScaleArgs *>(packed);
  auto *x = static_cast<double *>(env->addresses[0]);
  launch_scale_add(x, args->n, args->factor, args->addend, static_cast<cudaStream_t>(env->cuda_stream));
}

struct AxpyArgs {
  std::size_t n;
  double alpha;
};

// input(x[n]) inout(y[n]): y += alpha*x.
void axpy_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<AxpyArgs *>(packed);
  auto *x = static_cast<const double *>(env->addresses[0]);
  auto *y = static_cast<double *>(env->addresses[1]);
  launch_axpy(y, x, args->n, args->alpha, static_cast<cudaStream_t>(env->cuda_stream));
}

// Host task: input(x[n]) inout(sum[1]).
void host_sum_body(void *packed, const css_task_env *env) {
  std::size_t n = *static_cast<std::size_t *>(packed);
  auto *x = static_cast<const double *>(env->addresses[0]);
  auto *sum = static_cast<double *>(env->addresses[1]);
  for (std::size_t i = 0; i < n; ++i)
    *sum += x[i];
}

struct GemmArgs {
  int ts;
};

// input(A[ts][ts], B[ts][ts]) inout(C[ts][ts]): C -= A*B^T through cuBLAS,
// with the worker's handle (already bound to its stream).
void gemm_body(void *packed, const css_task_env *env) {
  int ts = static_cast<GemmArgs *>(packed)->ts;
  const double minus_one = -1.0, one = 1.0;
  auto handle = static_cast<cublasHandle_t>(css_cublas_handle_ptr());
  ASSERT_EQ(handle, env->cublas_handle);
  cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, ts, ts, ts, &minus_one,
              static_cast<const double *>(env->addresses[0]), ts,
              static_cast<const double *>(env->addresses[1]), ts, &one,
              static_cast<double *>(env->addresses[2]), ts);
}

css_access access(void *base, std::size_t bytes, css_direction direction) {
  return css_access{css_contiguous(base, bytes), static_cast<std::uint32_t>(direction), CSS_COPY_DEFAULT, 0};
}

template <typename Args>
void submit(Runtime &runtime, css_task_body body, const Args &args, std::vector<css_access> accesses,
            std::uint32_t device = CSS_DEVICE_CUDA) {
  css_task_desc desc{GPUSS_ABI_VERSION, device,   0,       static_cast<std::uint32_t>(accesses.size()),
                     accesses.data(),   body,     &args,   sizeof args,
                     "gpu_test_task",   __FILE__, __LINE__};
  runtime.submit(desc);
}

// How memory not locked yet crosses: locked as copied (CSS_STAGING_THREADS=0,
// CSS_UNLOCKED_COPIES=lock), through staging buffers (CSS_STAGING_THREADS=4),
// or copied pageable while the pinning service locks it
// (CSS_UNLOCKED_COPIES=pageable); never `auto`, which depends on the node.
enum class Crossing { Lock, Staged, Pageable };

// GPUs, policy, cache size in MiB (0: the default, most of the GPU), crossing.
using Setting = std::tuple<int, CachePolicy, int, Crossing>;

class GpuRuntime : public ::testing::TestWithParam<Setting> {
protected:
  void SetUp() override {
    int wanted = std::get<0>(GetParam());
    Layout layout = layout_for(wanted);
    if (std::string why = missing_gpus(wanted, layout); !why.empty()) GTEST_SKIP() << why;
    config.num_cpus = 2;
    config.num_gpus = layout.gpus;
    config.gpu_partitions = layout.partitions;
    config.cache_policy = std::get<1>(GetParam());
    if (int mib = std::get<2>(GetParam())) config.device_memory = std::to_string(mib) + "M";
    config.staging_auto = false;
    config.staging_threads = staged() ? 4 : 0;
    config.unlocked_copies = pageable() ? UnlockedCopies::Pageable : UnlockedCopies::Lock;
  }
  bool staged() const { return std::get<3>(GetParam()) == Crossing::Staged; }
  bool pageable() const { return std::get<3>(GetParam()) == Crossing::Pageable; }
  Config config;
};

// Kernels over blocks: every block is scaled on some GPU, mixed with axpy
// tasks that read other blocks, then summed on the host. Caches smaller than
// the data force evictions with write-backs.
TEST_P(GpuRuntime, KernelsAndHostTasksMatchSequential) {
  constexpr std::size_t blocks = 48, n = 1 << 18; // 2 MiB a block, 96 MiB in all
  std::vector<std::vector<double>> data(blocks, std::vector<double>(n));
  std::vector<std::vector<double>> expected = data;
  std::mt19937 random(7);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t i = 0; i < n; ++i)
      data[b][i] = expected[b][i] = static_cast<double>((b * 131 + i) % 97);
  std::vector<double> sums(blocks, 0.0), expected_sums(blocks, 0.0);
  {
    Runtime runtime(config);
    for (int round = 0; round < 6; ++round) {
      for (std::size_t b = 0; b < blocks; ++b) {
        ScaleArgs scale{n, 0.5, static_cast<double>(round)};
        submit(runtime, scale_body, scale, {access(data[b].data(), n * sizeof(double), CSS_INOUT)});
        for (double &v : expected[b])
          v = v * 0.5 + round;
      }
      for (std::size_t b = 0; b < blocks; ++b) {
        std::size_t from = random() % blocks;
        if (from == b) continue;
        AxpyArgs axpy{n, 0.25};
        submit(runtime, axpy_body, axpy,
               {access(data[from].data(), n * sizeof(double), CSS_IN),
                access(data[b].data(), n * sizeof(double), CSS_INOUT)});
        for (std::size_t i = 0; i < n; ++i)
          expected[b][i] += 0.25 * expected[from][i];
      }
      if (round == 3) {
        // Host tasks read what the GPUs wrote.
        for (std::size_t b = 0; b < blocks; b += 5) {
          submit(runtime, host_sum_body, n,
                 {access(data[b].data(), n * sizeof(double), CSS_IN),
                  access(&sums[b], sizeof(double), CSS_INOUT)},
                 CSS_DEVICE_SMP);
          for (double v : expected[b])
            expected_sums[b] += v;
        }
      }
    }
    runtime.barrier();
    runtime.finish(); // the staging totals are taken at finish
    auto stats = runtime.stats();
    EXPECT_GT(stats.bytes_h2d, 0u);
    if (staged()) {
      EXPECT_GT(stats.staged_bytes, 0u) << "the staged setting staged nothing";
      EXPECT_GT(stats.staging_alloc_seconds, 0.0) << "the staging buffers are allocated when a worker starts";
      EXPECT_EQ(stats.prefetch_depth, gpuss::staged_prefetch_depth) << "staged copies stage deeper unless told";
    } else {
      EXPECT_EQ(stats.staged_bytes, 0u);
      EXPECT_EQ(stats.staging_alloc_seconds, 0.0) << "no staging buffers without staging";
      EXPECT_EQ(stats.prefetch_depth, gpuss::Config{}.prefetch_depth);
    }
    EXPECT_EQ(stats.unlocked_copies, pageable() ? "pageable" : "lock");
    if (pageable()) EXPECT_EQ(stats.pin_threads, 2u) << "pageable copies start the pinning service";
    RecordProperty("bytes_moved", std::to_string(stats.bytes_h2d + stats.bytes_d2h + stats.bytes_p2p));
  }
  for (std::size_t b = 0; b < blocks; ++b) {
    ASSERT_EQ(0, std::memcmp(data[b].data(), expected[b].data(), n * sizeof(double))) << "block " << b;
    EXPECT_DOUBLE_EQ(sums[b], expected_sums[b]) << "block " << b;
  }
}

// Blocked C -= A*B^T through cuBLAS on every GPU.
TEST_P(GpuRuntime, CublasGemmTilesMatchHost) {
  constexpr int ts = 128, nt = 4;
  constexpr std::size_t tile = static_cast<std::size_t>(ts) * ts;
  std::vector<std::vector<double>> a(nt * nt, std::vector<double>(tile)), c = a;
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (auto &t : a)
    for (double &v : t)
      v = uniform(random);
  for (auto &t : c)
    for (double &v : t)
      v = uniform(random);
  std::vector<std::vector<double>> expected = c;
  {
    Runtime runtime(config);
    for (int i = 0; i < nt; ++i)
      for (int j = 0; j < nt; ++j)
        for (int k = 0; k < nt; ++k)
          submit(runtime, gemm_body, GemmArgs{ts},
                 {access(a[i * nt + k].data(), tile * sizeof(double), CSS_IN),
                  access(a[j * nt + k].data(), tile * sizeof(double), CSS_IN),
                  access(c[i * nt + j].data(), tile * sizeof(double), CSS_INOUT)});
    runtime.finish();
  }
  for (int i = 0; i < nt; ++i)
    for (int j = 0; j < nt; ++j) {
      auto &e = expected[i * nt + j];
      for (int k = 0; k < nt; ++k) {
        const auto &x = a[i * nt + k], &y = a[j * nt + k];
        for (int col = 0; col < ts; ++col)
          for (int l = 0; l < ts; ++l)
            for (int row = 0; row < ts; ++row)
              e[col * ts + row] -= x[l * ts + row] * y[l * ts + col];
      }
      double worst = 0;
      for (std::size_t v = 0; v < tile; ++v)
        worst = std::max(worst, std::abs(e[v] - c[i * nt + j][v]));
      ASSERT_LT(worst, 1e-9) << "tile " << i << "," << j;
    }
}

// A stencil whose task names one parameter in five regions (issue 15): the
// block inout, four one-wide halo strips input, two of them strided
// columns; 36 blocks of 256 x 256 doubles. The kernel reaches every region
// through the pointer rebased with the first (the top strip), as translated
// code does. Each device copy must hold all five regions at their offsets:
// before, every block came back wrong under every policy.
struct HaloArgs {
  double *a; // the whole matrix, as the program passes it
  std::size_t pitch, i0, j0, b;
};

void halo_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<HaloArgs *>(packed);
  auto *a = static_cast<double *>(css_translate(env, 0, args->a));
  launch_halo_relax(a, args->pitch, args->i0, args->j0, args->b, static_cast<cudaStream_t>(env->cuda_stream));
}

TEST_P(GpuRuntime, HaloStencilOverFiveRegionsOfOneParameter) {
  constexpr std::size_t b = 256, nb = 6, n = nb * b + 2, sweeps = 3;
  std::vector<double> a(n * n), expected;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      a[i * n + j] = static_cast<double>((i * 37 + j * 11) % 23) - 7.0;
  expected = a;
  auto relax_on_host = [&](std::size_t i0, std::size_t j0) {
    double *m = expected.data();
    for (std::size_t i = i0; i < i0 + b; ++i)
      for (std::size_t j = j0; j < j0 + b; ++j) {
        double halos = ((m[(i0 - 1) * n + j] + m[(i0 + b) * n + j]) + m[i * n + j0 - 1]) + m[i * n + j0 + b];
        m[i * n + j] = 0.5 * m[i * n + j] + 0.125 * halos;
      }
  };
  {
    Runtime runtime(config);
    const std::size_t row = n * sizeof(double), strip = b * sizeof(double);
    for (std::size_t s = 0; s < sweeps; ++s)
      for (std::size_t bi = 0; bi < nb; ++bi)
        for (std::size_t bj = 0; bj < nb; ++bj) {
          std::size_t i0 = 1 + bi * b, j0 = 1 + bj * b;
          double *m = a.data();
          auto region = [&](std::size_t i, std::size_t j, std::size_t row_bytes, std::size_t rows,
                            css_direction direction) {
            return css_access{css_region{m + i * n + j, row_bytes, rows, row},
                              static_cast<std::uint32_t>(direction), CSS_COPY_DEFAULT, 1};
          };
          submit(runtime, halo_body, HaloArgs{m, n, i0, j0, b},
                 {region(i0 - 1, j0, strip, 1, CSS_IN), region(i0 + b, j0, strip, 1, CSS_IN),
                  region(i0, j0 - 1, sizeof(double), b, CSS_IN),
                  region(i0, j0 + b, sizeof(double), b, CSS_IN), region(i0, j0, strip, b, CSS_INOUT)});
          relax_on_host(i0, j0);
        }
    runtime.barrier();
  }
  std::size_t wrong = 0, first = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k] != expected[k] && wrong++ == 0) first = k;
  EXPECT_EQ(wrong, 0u) << "first wrong cell (" << first / n << ", " << first % n << "): " << a[first]
                       << ", expected " << expected[first];
}

// The control of the compute-sanitizer run (scripts/gpu-node.sh sanitize):
// a kernel that writes 1024 elements past its task's region must be
// reported. Disabled: it passes only in the sense that it runs; memcheck
// with --nvtx=yes and CSS_DEVICE_GUARD is what must flag it.
void overrun_body(void *packed, const css_task_env *env) {
  std::size_t n = *static_cast<std::size_t *>(packed);
  launch_fill(static_cast<double *>(env->addresses[0]), n + 1024, 1.0,
              static_cast<cudaStream_t>(env->cuda_stream));
}

TEST(GpuGuard, DISABLED_KernelWritingPastItsReplica) {
  if (gpus_present() == 0) GTEST_SKIP() << "needs a GPU";
  constexpr std::size_t n = 1 << 16;
  std::vector<double> data(n, 0.0);
  Config config;
  config.num_gpus = 1;
  Runtime runtime(config);
  submit(runtime, overrun_body, n, {access(data.data(), n * sizeof(double), CSS_INOUT)});
  runtime.barrier();
}

std::string setting_name(const ::testing::TestParamInfo<Setting> &info) {
  const Crossing crossing = std::get<3>(info.param);
  return std::to_string(std::get<0>(info.param)) + "gpu_" + gpuss::to_string(std::get<1>(info.param)) + "_" +
         (std::get<2>(info.param) == 0 ? "large" : "small") +
         (crossing == Crossing::Staged     ? "_staged"
          : crossing == Crossing::Pageable ? "_pageable"
                                           : "");
}
INSTANTIATE_TEST_SUITE_P(GpusPoliciesCaches, GpuRuntime,
                         ::testing::Combine(::testing::Values(1, 2, 4),
                                            ::testing::Values(CachePolicy::NoCache, CachePolicy::WriteThrough,
                                                              CachePolicy::WriteBack),
                                            ::testing::Values(0, 24), ::testing::Values(Crossing::Lock)),
                         setting_name);
// The same through staging buffers (issue 19): copies in filled ahead of
// their command, copies out drained after it, strided halo columns included.
INSTANTIATE_TEST_SUITE_P(Staged, GpuRuntime,
                         ::testing::Combine(::testing::Values(1, 2),
                                            ::testing::Values(CachePolicy::NoCache, CachePolicy::WriteBack),
                                            ::testing::Values(0, 24), ::testing::Values(Crossing::Staged)),
                         setting_name);
// The same copied pageable while the pinning service locks behind the copies
// (CSS_UNLOCKED_COPIES=pageable; what `auto` picks with several GPUs): copies
// of ranges half locked, and blocks sharing pages with blocks being locked
// (these vectors are not page-aligned), which failed the first version on
// two H100s (cudaErrorInvalidValue, 2026-11-28).
INSTANTIATE_TEST_SUITE_P(Pageable, GpuRuntime,
                         ::testing::Combine(::testing::Values(1, 2, 4),
                                            ::testing::Values(CachePolicy::NoCache, CachePolicy::WriteBack),
                                            ::testing::Values(0, 24), ::testing::Values(Crossing::Pageable)),
                         setting_name);

// A chain of tasks on one block, dealt to the devices in turn (round-robin):
// each task reads the value the previous one left dirty on another device.
// Between devices that read each other's memory (partitions of one GPU
// always do; GPUs with peer access) every such fetch is one device-to-device
// copy, never a write-back and a fetch through the host. Also checks what
// the runtime reports per device: each device ran its share, is named in the
// trace, and task bodies see their device's index and its GPU current.
class GpuPeerCopies : public ::testing::TestWithParam<int> {};

struct ChainArgs {
  std::size_t n;
  unsigned partitions;
  std::atomic<int> *wrong_device; // bodies whose current GPU is not their device's
};

void chain_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<ChainArgs *>(packed);
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess ||
      current != env->device_index / static_cast<int>(args->partitions))
    args->wrong_device->fetch_add(1, std::memory_order_relaxed);
  launch_scale_add(static_cast<double *>(env->addresses[0]), args->n, 1.0, 1.0,
                   static_cast<cudaStream_t>(env->cuda_stream));
}

TEST_P(GpuPeerCopies, ChainAcrossDevicesCopiesDeviceToDevice) {
  const int devices = GetParam();
  Layout layout = layout_for(devices);
  if (std::string why = missing_gpus(devices, layout); !why.empty()) GTEST_SKIP() << why;
  bool direct = true; // can every device read every other's memory?
  for (int a = 0; a < layout.gpus; ++a)
    for (int b = 0; b < layout.gpus; ++b) {
      int can = 0;
      if (a != b && (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can)) direct = false;
    }
  Config config;
  config.num_cpus = 1;
  config.num_gpus = layout.gpus;
  config.gpu_partitions = layout.partitions;
  config.cache_policy = CachePolicy::WriteBack;
  config.scheduler = "round-robin";
  config.trace_file = ::testing::TempDir() + "gpuss_peer_copies_" + std::to_string(devices) + ".json";
  constexpr std::size_t n = 1 << 17, bytes = n * sizeof(double); // 1 MiB
  const int tasks = 4 * devices;
  std::vector<double> x(n, 0.0);
  std::atomic<int> wrong_device{0};
  gpuss::StatsSnapshot stats;
  {
    Runtime runtime(config);
    for (int t = 0; t < tasks; ++t)
      submit(runtime, chain_body, ChainArgs{n, layout.partitions, &wrong_device},
             {access(x.data(), bytes, CSS_INOUT)});
    runtime.finish();
    stats = runtime.stats();
  }
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(x[i], static_cast<double>(tasks)) << "element " << i;
  EXPECT_EQ(wrong_device.load(), 0) << "a body's current GPU is not device_index / partitions";
  ASSERT_EQ(stats.device_tasks.size(), static_cast<std::size_t>(devices)) << "devices the runtime reports";
  if (direct) {
    // Without peer access a fetch waits for a write-back and is placed
    // again, by then on the device that holds the value: no even share.
    for (int d = 0; d < devices; ++d)
      EXPECT_EQ(stats.device_tasks[d], 4u) << "device " << d;
    EXPECT_EQ(stats.bytes_h2d, bytes) << "only the first fetch comes from the host";
    EXPECT_EQ(stats.bytes_p2p, (tasks - 1) * bytes) << "every later fetch is device to device";
    EXPECT_EQ(stats.bytes_d2h, bytes) << "only the final write-back goes to the host";
  } else {
    EXPECT_EQ(stats.bytes_p2p, 0u) << "GPUs without peer access stage through the host";
  }
  std::ifstream trace_file(config.trace_file);
  std::string trace((std::istreambuf_iterator<char>(trace_file)), std::istreambuf_iterator<char>());
  // Device d is partition d % N of GPU d / N (gpuss.h, css_task_env).
  for (int d = 0; d < devices; ++d) {
    if (stats.device_tasks[d] == 0) continue; // no track without work
    int gpu = d / static_cast<int>(layout.partitions), partition = d % static_cast<int>(layout.partitions);
    std::string name =
        "cuda" + std::to_string(gpu) + (layout.partitions > 1 ? "." + std::to_string(partition) : "") + " (";
    EXPECT_NE(trace.find("\"" + name), std::string::npos) << "no trace track named " << name << "...";
  }
  std::remove(config.trace_file.c_str());
}

INSTANTIATE_TEST_SUITE_P(Devices, GpuPeerCopies, ::testing::Values(2, 4),
                         [](const auto &info) { return std::to_string(info.param) + "gpu_chain"; });

struct FillArgs {
  std::size_t n;
  double value;
};

// output(x[n]): x = value.
void fill_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<FillArgs *>(packed);
  launch_fill(static_cast<double *>(env->addresses[0]), args->n, args->value,
              static_cast<cudaStream_t>(env->cuda_stream));
}

// Host task: input(x); returns once *gate opens, so that the task after
// it finds a reader still running.
void wait_for_gate_body(void *packed, const css_task_env *) {
  auto *gate = *static_cast<std::atomic<bool> **>(packed);
  while (!gate->load())
    std::this_thread::yield();
}

struct CountWrongArgs {
  std::size_t n;
  double expected;
  std::size_t *wrong;
};

// Host task: input(x[n]); counts the elements that are not `expected`.
void count_wrong_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<CountWrongArgs *>(packed);
  const auto *x = static_cast<const double *>(env->addresses[0]);
  *args->wrong =
      static_cast<std::size_t>(std::count_if(x, x + args->n, [&](double v) { return v != args->expected; }));
}

// Each round renames x on the GPU (a host task still reads the old value)
// and a host task reads the renamed value, which the runtime brings to a
// buffer it allocates, page-locks and frees. Buffers this large are mapped
// on their own, so the next round's buffer usually gets the same addresses;
// CUDA keeps the registration of freed memory and would copy into the old
// pages, so each round's value would be lost unless the runtime unlocks a
// buffer before freeing it (measured on an H200, docs/performance.md).
TEST(GpuRenaming, RenamedValuesComeHomeRoundAfterRound) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  constexpr std::size_t n = 5 << 20; // 40 MiB: above malloc's largest mmap threshold
  std::vector<double> x(n, 0.0);
  Config config;
  config.num_gpus = 1;
  config.num_cpus = 1;
  Runtime runtime(config);
  for (int round = 1; round <= 4; ++round) {
    std::atomic<bool> gate{false};
    std::atomic<bool> *gate_pointer = &gate;
    std::size_t wrong_on_host = n;
    submit(runtime, wait_for_gate_body, gate_pointer, {access(x.data(), n * sizeof(double), CSS_IN)},
           CSS_DEVICE_SMP);
    submit(runtime, fill_body, FillArgs{n, double(round)}, {access(x.data(), n * sizeof(double), CSS_OUT)});
    submit(runtime, count_wrong_body, CountWrongArgs{n, double(round), &wrong_on_host},
           {access(x.data(), n * sizeof(double), CSS_IN)}, CSS_DEVICE_SMP);
    gate.store(true);
    runtime.barrier();
    EXPECT_EQ(wrong_on_host, 0u) << "round " << round << ": the host task read a stale renamed value";
    std::size_t wrong = std::count_if(x.begin(), x.end(), [&](double v) { return v != round; });
    EXPECT_EQ(wrong, 0u) << "round " << round << ": x[0] = " << x[0];
  }
  runtime.finish();
  EXPECT_EQ(runtime.stats().renamed, 4u);
}

// A renamed value that only the GPU holds goes home by a copy in device
// memory into the original's replica, then one write-back to user memory:
// the copy-back runs on the GPU, and nothing but that write-back leaves it.
TEST(GpuRenaming, RenamedValueOnTheGpuGoesHomeByADeviceCopy) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  constexpr std::size_t n = 1 << 20;
  std::vector<double> x(n, 0.0);
  Config config;
  config.num_gpus = 1;
  config.num_cpus = 1;
  Runtime runtime(config);
  std::atomic<bool> gate{false};
  std::atomic<bool> *gate_pointer = &gate;
  submit(runtime, wait_for_gate_body, gate_pointer, {access(x.data(), n * sizeof(double), CSS_IN)},
         CSS_DEVICE_SMP);
  submit(runtime, fill_body, FillArgs{n, 7.0}, {access(x.data(), n * sizeof(double), CSS_OUT)});
  gate.store(true);
  runtime.barrier();
  EXPECT_EQ(std::count(x.begin(), x.end(), 7.0), static_cast<std::ptrdiff_t>(n));
  runtime.finish();
  auto stats = runtime.stats();
  EXPECT_EQ(stats.renamed, 1u);
  EXPECT_EQ(stats.device_tasks.at(0), 2u) << "the fill and the copy-back";
  EXPECT_EQ(stats.bytes_d2h, n * sizeof(double)) << "one write-back of the original";
}

// css_unpin undoes the page-locking of memory explicitly, for programs that
// release memory in ways libgpuss cannot see; the memory may then be freed
// and its addresses given to new task memory.
TEST(GpuRenaming, UnpinnedMemoryMayBeFreedAndReallocated) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  constexpr std::size_t n =
      5 << 20; // 40 MiB: mapped on its own, so a new one often lands at the same addresses
  Config config;
  config.num_gpus = 1;
  config.num_cpus = 1;
  Runtime runtime(config);
  for (int round = 1; round <= 4; ++round) {
    std::unique_ptr<double[]> x(new double[n]);
    std::fill_n(x.get(), n, double(round));
    submit(runtime, scale_body, ScaleArgs{n, 2.0, 0.0}, {access(x.get(), n * sizeof(double), CSS_INOUT)});
    runtime.unpin(x.get(), n * sizeof(double));
    std::size_t wrong = std::count_if(x.get(), x.get() + n, [&](double v) { return v != 2.0 * round; });
    EXPECT_EQ(wrong, 0u) << "round " << round << ": x[0] = " << x[0];
  }
}

// Memory tasks used may be freed and its addresses given to new task memory
// after a barrier or wait on, with no css_unpin: libgpuss sees the free and
// undoes the page lock before the memory goes (HostReleaseHooks), or, where
// it cannot see frees (CSS_PIN_HOST=barrier, or another free() ahead of
// libgpuss: gpu.page-locks-shadowed), undoes every lock at the barrier or
// wait on. Without either, CUDA copies the new memory from the old pages
// and every value from the second round on is lost (measured on an H200,
// docs/performance.md).
struct ReuseCase {
  gpuss::HostPinning pinning;
  bool wait_on; // else a barrier
};

class GpuPageLocks : public ::testing::TestWithParam<ReuseCase> {
protected:
  void SetUp() override {
    // gpu.page-locks-shadowed preloads a free() of its own ahead of libgpuss.
    if (std::getenv("GPUSS_TEST_FREE_SHADOWED"))
      ASSERT_FALSE(gpuss::release_hooks::active()) << "the preloaded free() did not come first";
  }
  // What the stats line should say: where free() does not reach libgpuss the
  // runtime falls back to unlocking at barriers.
  static std::string expected_pin_host(gpuss::HostPinning asked) {
    if (asked == gpuss::HostPinning::UntilFreed && !gpuss::release_hooks::active()) return "barrier";
    return gpuss::to_string(asked);
  }
  // One GPU, pinning as the case asks.
  static Config config() {
    Config config;
    config.num_gpus = 1;
    config.num_cpus = 1;
    config.pin_host = GetParam().pinning;
    return config;
  }
  // After this the program may read [data, data + bytes), and free it.
  static void synchronise(Runtime &runtime, void *data, std::size_t bytes) {
    if (GetParam().wait_on) {
      css_region region = css_contiguous(data, bytes);
      runtime.wait_on({&region, 1});
    } else {
      runtime.barrier();
    }
  }
};

TEST_P(GpuPageLocks, FreedMemoryMayBeReusedWithoutUnpin) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  constexpr std::size_t n =
      5 << 20; // 40 MiB: mapped on its own, so a new block often lands at the same addresses
  Runtime runtime(config());
  std::vector<const double *> earlier;
  int reused = 0;
  for (int round = 1; round <= 6; ++round) {
    std::unique_ptr<double[]> x(new double[n]);
    if (std::find(earlier.begin(), earlier.end(), x.get()) != earlier.end()) ++reused;
    earlier.push_back(x.get());
    std::fill_n(x.get(), n, double(round));
    submit(runtime, scale_body, ScaleArgs{n, 2.0, 0.0}, {access(x.get(), n * sizeof(double), CSS_INOUT)});
    synchronise(runtime, x.get(), n * sizeof(double));
    std::size_t wrong = std::count_if(x.get(), x.get() + n, [&](double v) { return v != 2.0 * round; });
    EXPECT_EQ(wrong, 0u) << "round " << round << ": x[0] = " << x[0] << " at " << x.get()
                         << (reused ? " (an earlier round's addresses)" : "");
  } // x freed here, still page-locked unless the runtime undid it
  runtime.finish();
  EXPECT_EQ(runtime.stats().pin_host, expected_pin_host(GetParam().pinning));
  std::printf("[   INFO   ] %d of 5 later rounds got an earlier round's addresses\n", reused);
  EXPECT_GT(reused, 0) << "the allocator never reused addresses: this run did not exercise the hazard";
}

TEST_P(GpuPageLocks, VectorStorageMayBeReused) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  constexpr std::size_t n = 5 << 20;
  Runtime runtime(config());
  for (int round = 1; round <= 4; ++round) {
    std::vector<double> x(n, double(round)); // freed through operator delete at the end of the round
    submit(runtime, scale_body, ScaleArgs{n, 1.0, 1.0}, {access(x.data(), n * sizeof(double), CSS_INOUT)});
    synchronise(runtime, x.data(), n * sizeof(double));
    EXPECT_EQ(std::count(x.begin(), x.end(), round + 1.0), static_cast<std::ptrdiff_t>(n))
        << "round " << round;
  }
}

std::string reuse_case_name(const ::testing::TestParamInfo<ReuseCase> &info) {
  return std::string(info.param.pinning == gpuss::HostPinning::UntilFreed ? "until_freed" : "until_barrier") +
         (info.param.wait_on ? "_wait_on" : "_barrier");
}

INSTANTIATE_TEST_SUITE_P(Reuse, GpuPageLocks,
                         ::testing::Values(ReuseCase{gpuss::HostPinning::UntilFreed, false},
                                           ReuseCase{gpuss::HostPinning::UntilFreed, true},
                                           ReuseCase{gpuss::HostPinning::UntilBarrier, false},
                                           ReuseCase{gpuss::HostPinning::UntilBarrier, true}),
                         reuse_case_name);

// A sequential program may realloc or free memory right after the GPU task
// that writes it, with no barrier: the release waits for the task and brings
// the value home first, from the GPU where write-back keeps it, and a block
// allocated later at the same addresses is not read from the old device copy
// or the old pages (test_early_release runs the same on host workers and
// simulated devices).
TEST(GpuEarlyRelease, ReallocAndFreeRightAfterTheTasks) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  if (!gpuss::release_hooks::active()) GTEST_SKIP() << "free() does not reach libgpuss in this run";
  constexpr std::size_t n =
      5 << 20; // 40 MiB: mapped on its own, so a new block often lands at the same addresses
  constexpr std::size_t bytes = n * sizeof(double);
  Config config;
  config.num_gpus = 1;
  config.num_cpus = 1;
  config.cache_policy = gpuss::CachePolicy::WriteBack;
  Runtime runtime(config);
  std::vector<const void *> earlier;
  int reused = 0;
  constexpr int rounds = 4;
  for (int round = 1; round <= rounds; ++round) {
    auto *x = static_cast<double *>(std::malloc(bytes));
    if (std::find(earlier.begin(), earlier.end(), x) != earlier.end()) ++reused;
    earlier.push_back(x);
    std::fill_n(x, n, double(round));
    submit(runtime, scale_body, ScaleArgs{n, 2.0, 0.0}, {access(x, bytes, CSS_INOUT)});
    x = static_cast<double *>(std::realloc(x, bytes + 4096));
    ASSERT_NE(x, nullptr);
    std::size_t wrong = std::count_if(x, x + n, [&](double v) { return v != 2.0 * round; });
    EXPECT_EQ(wrong, 0u) << "round " << round << ": x[0] = " << x[0] << (reused ? " (reused addresses)" : "");
    std::free(x);
  }
  EXPECT_EQ(runtime.stats().early_releases, static_cast<std::uint64_t>(rounds)) << "one realloc per round";
  std::printf("[   INFO   ] %d of %d later rounds got an earlier round's addresses\n", reused, rounds - 1);
}

// CSS_GPU_PRIORITY_LANE: the tasks several others wait for (each round's
// scale of block 0, read by every axpy of the round) take the GPU's
// high-priority stream, the others the usual lanes, and the results are
// those of the sequential program; without the lane nothing takes it.
// A host task holds block 0 until every task is submitted: a task's fan-out
// is judged when it becomes ready, and a scale ready at its submission (the
// first, or a later one whose block was renamed away from the last round's
// readers) would have no axpy behind it yet (its first version failed so on
// an H200, 2026-11-28).
TEST(GpuPriorityLane, FanOutTasksTakeItAndResultsHold) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  constexpr std::size_t blocks = 12, n = 1 << 18;
  constexpr int rounds = 5;
  for (bool lane : {true, false}) {
    std::vector<std::vector<double>> data(blocks, std::vector<double>(n));
    for (std::size_t b = 0; b < blocks; ++b)
      for (std::size_t i = 0; i < n; ++i)
        data[b][i] = static_cast<double>((b * 7 + i) % 13);
    std::vector<std::vector<double>> expected = data;
    Config config;
    config.num_gpus = 1;
    config.num_cpus = 1;
    config.gpu_priority_lane = lane;
    Runtime runtime(config);
    std::atomic<bool> gate{false};
    std::atomic<bool> *gate_pointer = &gate;
    submit(runtime, wait_for_gate_body, gate_pointer, {access(data[0].data(), n * sizeof(double), CSS_INOUT)},
           CSS_DEVICE_SMP);
    for (int round = 0; round < rounds; ++round) {
      submit(runtime, scale_body, ScaleArgs{n, 0.5, 1.0},
             {access(data[0].data(), n * sizeof(double), CSS_INOUT)});
      for (double &v : expected[0])
        v = v * 0.5 + 1.0;
      for (std::size_t b = 1; b < blocks; ++b) {
        submit(runtime, axpy_body, AxpyArgs{n, 0.25},
               {access(data[0].data(), n * sizeof(double), CSS_IN),
                access(data[b].data(), n * sizeof(double), CSS_INOUT)});
        for (std::size_t i = 0; i < n; ++i)
          expected[b][i] += 0.25 * expected[0][i];
      }
    }
    gate.store(true);
    runtime.finish();
    const auto stats = runtime.stats();
    if (lane)
      EXPECT_GE(stats.priority_lane_tasks, static_cast<std::uint64_t>(rounds))
          << "every scale becomes ready with its round's axpys behind it";
    else
      EXPECT_EQ(stats.priority_lane_tasks, 0u);
    for (std::size_t b = 0; b < blocks; ++b)
      ASSERT_EQ(0, std::memcmp(data[b].data(), expected[b].data(), n * sizeof(double)))
          << "block " << b << (lane ? " with" : " without") << " the priority lane";
  }
}

struct RegionFill {
  std::size_t row_bytes, rows, stride;
  int byte;
};

// output(region): every byte of a (strided) region set to `byte` on the GPU.
void fill_region_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<RegionFill *>(packed);
  ASSERT_EQ(cudaSuccess, cudaMemset2DAsync(env->addresses[0], args->stride, args->byte, args->row_bytes,
                                           args->rows, static_cast<cudaStream_t>(env->cuda_stream)));
}

// One GPU whose first copies stage through 4 copy threads (memory not
// locked yet would otherwise be locked as copied).
class GpuStaging : public ::testing::Test {
protected:
  void SetUp() override {
    if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
    config.num_cpus = 1;
    config.num_gpus = 1;
    config.staging_auto = false;
    config.staging_threads = 4;
    config.unlocked_copies = UnlockedCopies::Lock;
  }
  Config config;
};

// Copies out larger than the staging ring's 512 MiB of out-buffers stream
// through it, a part at a time, instead of page-locking their span: a
// strided region of 573 MB (LU's block columns are such regions) and a
// contiguous one of 300 MB, written on the GPU, come home staged, with the
// bytes between the strided region's rows untouched.
TEST_F(GpuStaging, CopiesOutLargerThanTheRingStreamThroughIt) {
  constexpr std::size_t stride = 96 << 10, row_bytes = 80 << 10, rows = 7000, flat = 300'000'000;
  std::vector<unsigned char> matrix(stride * rows, 0x11), vector(flat, 0x22);
  {
    Runtime runtime(config);
    css_access strided{css_region{matrix.data(), row_bytes, rows, stride}, CSS_OUT, CSS_COPY_DEFAULT, 0};
    submit(runtime, fill_region_body, RegionFill{row_bytes, rows, stride, 0x5a}, {strided});
    submit(runtime, fill_region_body, RegionFill{flat, 1, flat, 0x6b}, {access(vector.data(), flat, CSS_OUT)});
    runtime.finish();
    auto stats = runtime.stats();
    EXPECT_EQ(stats.pinned_bytes, 0u) << "a copy out was page-locked rather than staged";
    EXPECT_GE(stats.staged_bytes, row_bytes * rows + flat);
  }
  for (std::size_t row = 0; row < rows; ++row) {
    const unsigned char *at = matrix.data() + row * stride;
    ASSERT_TRUE(std::all_of(at, at + row_bytes, [](unsigned char c) { return c == 0x5a; })) << "row " << row;
    ASSERT_TRUE(std::all_of(at + row_bytes, at + stride, [](unsigned char c) { return c == 0x11; }))
        << "the gap after row " << row;
  }
  EXPECT_TRUE(std::all_of(vector.begin(), vector.end(), [](unsigned char c) { return c == 0x6b; }));
}

struct DoubleArgs {
  int rows, columns, ld;
};

// inout(a column-major rows x columns matrix, leading dimension ld): a *= 2
// on the GPU (cublasDgeam in place).
void double_matrix_body(void *packed, const css_task_env *env) {
  auto *args = static_cast<DoubleArgs *>(packed);
  auto *a = static_cast<double *>(env->addresses[0]);
  const double two = 2.0, zero = 0.0;
  ASSERT_EQ(CUBLAS_STATUS_SUCCESS, cublasDgeam(static_cast<cublasHandle_t>(env->cublas_handle), CUBLAS_OP_N,
                                               CUBLAS_OP_N, args->rows, args->columns, &two, a, args->ld, &zero,
                                               a, args->ld, a, args->ld));
}

// Copies in larger than the staging ring's 256 MiB stream through it too (a
// task reading such a region on a first run had it page-locked as copied,
// on the GPU worker's thread): a strided region of 573 MB and a contiguous
// one of 300 MB, doubled on the GPU, come home right, with the bytes between
// the strided region's rows untouched, and nothing is locked.
TEST_F(GpuStaging, CopiesInLargerThanTheRingStreamThroughIt) {
  constexpr int ld = 12288, rows = 10240, columns = 7000, flat = 37'500'000;
  auto value = [](std::size_t i, std::size_t j) { return static_cast<double>((i + 7 * j) % 1009); };
  std::vector<double> matrix(static_cast<std::size_t>(ld) * columns), vector(flat);
  for (std::size_t j = 0; j < columns; ++j)
    for (std::size_t i = 0; i < ld; ++i)
      matrix[j * ld + i] = value(i, j);
  for (std::size_t i = 0; i < flat; ++i)
    vector[i] = value(i, 3);
  const std::size_t payload = sizeof(double) * (std::size_t{rows} * columns + flat);
  {
    Runtime runtime(config);
    css_access strided{css_region{matrix.data(), rows * sizeof(double), columns, ld * sizeof(double)}, CSS_INOUT,
                       CSS_COPY_DEFAULT, 0};
    submit(runtime, double_matrix_body, DoubleArgs{rows, columns, ld}, {strided});
    submit(runtime, double_matrix_body, DoubleArgs{flat, 1, flat},
           {access(vector.data(), flat * sizeof(double), CSS_INOUT)});
    runtime.finish();
    auto stats = runtime.stats();
    EXPECT_EQ(stats.pinned_bytes, 0u) << "a copy was page-locked rather than staged";
    EXPECT_GE(stats.staged_bytes, 2 * payload);
  }
  for (std::size_t j = 0; j < columns; ++j)
    for (std::size_t i = 0; i < ld; ++i)
      ASSERT_EQ(matrix[j * ld + i], (i < rows ? 2 : 1) * value(i, j)) << "row " << i << ", column " << j;
  for (std::size_t i = 0; i < flat; ++i)
    ASSERT_EQ(vector[i], 2 * value(i, 3)) << "element " << i;
}

// wb moves fewer bytes than wt, and wt fewer than nocache, on a workload
// that reuses data on the device.
TEST(GpuPolicies, BytesMovedOrderWbWtNocache) {
  if (gpus_present() < 1) GTEST_SKIP() << "no GPU present; run on a GPU node (docs/testing.md)";
  auto moved = [](CachePolicy policy) {
    constexpr std::size_t blocks = 8, n = 1 << 16;
    std::vector<std::vector<double>> data(blocks, std::vector<double>(n, 1.0));
    Config config;
    config.num_gpus = 1;
    config.cache_policy = policy;
    Runtime runtime(config);
    for (int round = 0; round < 4; ++round)
      for (std::size_t b = 0; b < blocks; ++b)
        submit(runtime, scale_body, ScaleArgs{n, 1.0, 1.0},
               {access(data[b].data(), n * sizeof(double), CSS_INOUT)});
    runtime.finish();
    for (auto &block : data)
      for (double v : block)
        EXPECT_EQ(v, 5.0);
    auto s = runtime.stats();
    return s.bytes_h2d + s.bytes_d2h + s.bytes_p2p;
  };
  std::uint64_t wb = moved(CachePolicy::WriteBack), wt = moved(CachePolicy::WriteThrough),
                nocache = moved(CachePolicy::NoCache);
  EXPECT_LT(wb, wt);
  EXPECT_LT(wt, nocache);
}

} // namespace
