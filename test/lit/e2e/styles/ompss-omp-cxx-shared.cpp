// OpenMP tasks on lone C++ statements with data-sharing clauses: a shared
// std::vector written through operator[] (a member function named at the
// use, which was refused as a "class member"), a method called on a shared
// object, and a shared total under an atomic written between the task
// directive and its statement (refused before: the atomic is the task's).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 -Wall -Werror %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: squares 49 total 140 accumulated 1

#include <cstdio>
#include <vector>

struct Accumulator {
  std::vector<int> values;
  void add(int x) { values.push_back(x); }
};

static int square(int n) { return n * n; }

int main() {
  std::vector<int> out(8, 0);
  Accumulator acc;
  int total = 0;
  for (int i = 0; i < 8; ++i)
#pragma omp task shared(out) firstprivate(i)
    out[i] = square(i);
#pragma omp task shared(acc)
  acc.add(5);
#pragma omp taskwait
  for (int i = 0; i < 8; ++i)
#pragma omp task shared(total, out) firstprivate(i)
#pragma omp atomic
    total += out[i];
#pragma omp taskwait
  std::printf("squares %d total %d accumulated %zu\n", out[7], total, acc.values.size());
  return 0;
}
