// malloc_hooks: what libgpuss's allocation hooks cost a program that links
// it, per malloc+free pair (and calloc+free, realloc, new+delete), with
// CSS_CHECK_REGIONS off (the default) and on.
//
// libgpuss defines free, realloc, reallocarray and munmap (page locks,
// releases before a barrier: HostReleaseHooks.hpp) and malloc and its kin
// (CSS_CHECK_REGIONS: RegionCheck.hpp). Every call of the program reaches
// them first. This times pairs of calls of a small block, the worst case
// (the allocator's own work is least), single-threaded and with no runtime
// started: the fast paths alone. Run it with the variable unset and with
// CSS_CHECK_REGIONS=1; build it against an older libgpuss to compare.
// Usage: malloc_hooks [pairs] [bytes] [rounds]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

namespace {

// Through volatile pointers: the compiler may not pair the calls up and
// drop them, and the calls go where the program's own calls go (the first
// definition in the process, libgpuss's where its hooks are active).
void *(*volatile allocate)(std::size_t) = std::malloc;
void *(*volatile allocate_zeroed)(std::size_t, std::size_t) = std::calloc;
void *(*volatile reallocate)(void *, std::size_t) = std::realloc;
void (*volatile release)(void *) = std::free;

template <typename Body> double best_ns_per_pair(long pairs, int rounds, Body body) {
  double best = 1e300;
  for (int round = 0; round < rounds; ++round) {
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < pairs; ++i)
      body();
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, ns / static_cast<double>(pairs));
  }
  return best;
}

} // namespace

int main(int argc, char **argv) {
  long pairs = argc > 1 ? std::atol(argv[1]) : 10'000'000;
  std::size_t bytes = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 64;
  int rounds = argc > 3 ? std::atoi(argv[3]) : 7;
  const char *checking = std::getenv("CSS_CHECK_REGIONS");
  double malloc_free = best_ns_per_pair(pairs, rounds, [&] { release(allocate(bytes)); });
  double calloc_free = best_ns_per_pair(pairs, rounds, [&] { release(allocate_zeroed(1, bytes)); });
  double realloc_pair = best_ns_per_pair(pairs, rounds, [&] {
    void *p = allocate(bytes);
    release(reallocate(p, 2 * bytes));
  });
  double new_delete = best_ns_per_pair(pairs, rounds, [&] {
    char *volatile p = new char[bytes];
    delete[] p;
  });
  std::printf("malloc_hooks: bytes=%zu pairs=%ld best_of=%d CSS_CHECK_REGIONS=%s malloc+free=%.2fns "
              "calloc+free=%.2fns malloc+realloc+free=%.2fns new[]+delete[]=%.2fns\n",
              bytes, pairs, rounds, checking ? checking : "unset", malloc_free, calloc_free, realloc_pair,
              new_delete);
  return 0;
}
