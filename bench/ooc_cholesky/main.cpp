// ooc_cholesky: the tiled Cholesky factorisation's task graph (the loops and
// labels of examples/cholesky, right-looking; the trsm panel, or with
// --inverse-trsm the panel by inverse: trtri into a workspace, then trmm), submitted
// through the C API without the translator, for modelled runs out of core
// (issue 20): CSS_SIM_MODEL with the chol_* labels' costs, CSS_SIM_DEVICES,
// a small CSS_GPU_MEMORY, CSS_EVICTION. Modelled devices run no bodies, so
// the blocks are reserved and never touched (n = 131072 is 68 GB of address
// space, not of memory); with simulated devices that run bodies use a small n.
//
//   ooc_cholesky -n 65536 -t 2048 [--inverse-trsm]
//                                     prints seconds, the modelled TFLOP/s
//                                     (n^3/3 flops) and the css-stats line
#include "gpuss.h"

#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

long tile = 2048;

void no_body(void *, const css_task_env *) {}

void submit(const char *label, std::initializer_list<std::pair<void *, css_direction>> items) {
  std::vector<css_access> accesses;
  for (auto [base, direction] : items) {
    css_access access{};
    access.region = css_contiguous(base, sizeof(double) * tile * tile);
    access.direction = direction;
    access.copy = CSS_COPY_DEFAULT;
    accesses.push_back(access);
  }
  css_task_desc desc{};
  desc.abi_version = GPUSS_ABI_VERSION;
  desc.device_kind = CSS_DEVICE_SMP;
  desc.num_accesses = static_cast<std::uint32_t>(accesses.size());
  desc.accesses = accesses.data();
  desc.body = &no_body;
  desc.label = label;
  desc.file = __FILE__;
  desc.line = __LINE__;
  css_submit(&desc);
}

} // namespace

int main(int argc, char **argv) {
  long n = 16384;
  bool inverse_trsm = false;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "--inverse-trsm")) inverse_trsm = true;
    else if (a + 1 < argc && !std::strcmp(argv[a], "-n")) n = std::atol(argv[++a]);
    else if (a + 1 < argc && !std::strcmp(argv[a], "-t")) tile = std::atol(argv[++a]);
  }
  const long nt = n / tile;
  const std::size_t block_bytes = sizeof(double) * tile * tile;
  std::vector<void *> blocks(nt * nt, nullptr);
  for (long j = 0; j < nt; ++j)
    for (long i = j; i < nt; ++i) {
      void *block = mmap(nullptr, block_bytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (block == MAP_FAILED) {
        std::perror("mmap");
        return 1;
      }
      blocks[j * nt + i] = block;
    }
  auto A = [&](long j, long i) { return blocks[j * nt + i]; }; // block (row i, column j), i >= j
  // The inverse's workspace: one block, renamed at every step as in the example.
  void *W = mmap(nullptr, block_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (W == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  css_start();
  const auto start = std::chrono::steady_clock::now();
  for (long k = 0; k < nt; ++k) {
    submit("chol_dpotrf", {{A(k, k), CSS_INOUT}});
    if (inverse_trsm && k + 1 < nt) {
      submit("chol_dtrtri", {{A(k, k), CSS_IN}, {W, CSS_OUT}});
      for (long i = k + 1; i < nt; ++i)
        submit("chol_dtrmm", {{W, CSS_IN}, {A(k, i), CSS_INOUT}});
    } else {
      for (long i = k + 1; i < nt; ++i)
        submit("chol_dtrsm", {{A(k, k), CSS_IN}, {A(k, i), CSS_INOUT}});
    }
    for (long i = k + 1; i < nt; ++i) {
      for (long j = k + 1; j < i; ++j)
        submit("chol_dgemm", {{A(k, i), CSS_IN}, {A(k, j), CSS_IN}, {A(j, i), CSS_INOUT}});
      submit("chol_dsyrk", {{A(k, i), CSS_IN}, {A(i, i), CSS_INOUT}});
    }
  }
  css_barrier();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double flops = static_cast<double>(n) * n * n / 3.0;
  std::printf("ooc_cholesky n=%ld t=%ld seconds=%.3f tflops=%.2f\n", n, tile, seconds,
              flops / seconds / 1e12);
  std::fflush(stdout);
  css_finish();
  return 0;
}
