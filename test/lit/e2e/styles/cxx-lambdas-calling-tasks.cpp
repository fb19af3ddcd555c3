// Modern C++ drivers around task functions: the tasks are plain functions,
// and the code that calls them is lambdas (capturing by reference and by
// value), a generic lambda, a `std::function` (a recursive one, for a tree
// reduction), `std::for_each` over block indices with a lambda, a functor's
// `operator()`, and a lambda whose own local array is written and read by
// tasks before it returns. None of these is a task itself. Printed with %a.
// The lambda's local was not waited for where it stops living (the
// translator skipped lambda bodies): on one simulated device with no host
// workers, `local` came out wrong under wt and the program crashed under wb
// (results written back into dead stack frames); a helper's sweep of
// program styles, 2026-11-29 (e2e/lambda-local-task-data.cpp).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 timeout 60 %t/par | diff %t/expected -
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: tree
// CHECK: local
// CHECK: y0

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

constexpr int BS = 32;
constexpr int NB = 8;

#pragma css task input(n, a, x[n]) inout(y[n])
void axpy(int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

#pragma css task input(n, x[n]) output(s[0;1])
void block_sum(int n, const double *x, double *s)
{
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += x[i];
  *s = t;
}

#pragma css task input(a[0;1], b[0;1]) output(c[0;1])
void add2(const double *a, const double *b, double *c)
{
  *c = *a * 0.5 + *b;
}

#pragma css task inout(v[n]) input(n, f)
void scale(int n, double f, double *v)
{
  for (int i = 0; i < n; ++i)
    v[i] = v[i] * f - 0.0625;
}

struct Damp {
  double f;
  void operator()(double *blk) const { scale(BS, f, blk); }
};

int main()
{
  std::vector<double> x(BS * NB), y(BS * NB), part(NB), tree(NB);
  for (int i = 0; i < BS * NB; ++i) {
    x[i] = (i % 13) * 0.25;
    y[i] = (i % 5) - 2.0;
  }

  auto step = [&](int b, double a) { axpy(BS, a, &x[b * BS], &y[b * BS]); };
  for (int b = 0; b < NB; ++b)
    step(b, 0.5 + b);

  std::vector<int> idx(NB);
  std::iota(idx.begin(), idx.end(), 0);
  double *yp = y.data();
  std::for_each(idx.begin(), idx.end(), [yp](int b) { scale(BS, 0.75, yp + b * BS); });

  auto twice = [&](auto *p, int b) { axpy(BS, 2.0, p + b * BS, &y[((b + 1) % NB) * BS]); };
  for (int b = 0; b < NB; b += 2)
    twice(x.data(), b);

  Damp damp{0.9375};
  for (int b = 1; b < NB; b += 3)
    damp(&y[b * BS]);

  std::function<void(int)> sums = [&](int b) { block_sum(BS, &y[b * BS], &part[b]); };
  for (int b = 0; b < NB; ++b)
    sums(b);

  // pairwise tree: tree[lo] = reduce(part[lo .. lo+len-1])
  std::function<void(int, int)> reduce = [&](int lo, int len) {
    if (len == 1) {
      add2(&part[lo], &part[lo], &tree[lo]);
      return;
    }
    int h = len / 2;
    reduce(lo, h);
    reduce(lo + h, len - h);
    add2(&tree[lo], &tree[lo + h], &tree[lo]);
  };
  reduce(0, NB);

  auto with_local = [&](int b) {
    double tmp[BS];
    double s;
    std::fill(tmp, tmp + BS, 0.0);
    axpy(BS, -1.0, &y[b * BS], tmp);
    block_sum(BS, tmp, &s);
#pragma css taskwait on(s)
    return s;
  };
  double l = with_local(3) + with_local(5);

#pragma css barrier
  std::printf("tree %a\n", tree[0]);
  std::printf("local %a\n", l);
  for (int b = 0; b < NB; ++b)
    std::printf("y%d %a part %a\n", b, y[b * BS + 7], part[b]);
  return 0;
}
