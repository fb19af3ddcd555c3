// OmpSs C++ with `#pragma omp task` and array sections in the forms OmpSs
// users write in C++: inclusive ranges in OmpSs' own clauses
// (`in(x[lo - 1:hi + 1]) out(y[lo:hi])`, a 3-point smoother with a halo),
// `depend(in: row[0;n])` sections, one element of an output array
// (`depend(inout: acc[k])`), one row of a `double (*m)[N]` as a section of
// an element (`depend(inout: m[r][0;N])`), a `const double &` factor in
// `depend(in: f)`, a `double &` accumulator in `depend(inout: s)`; the data
// are `std::vector<double>` buffers swapped by pointer each round, and a
// `std::array` of row norms. Printed with %a.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: norm 0
// CHECK: norm 15
// CHECK: sum

#include <array>
#include <cstdio>
#include <utility>
#include <vector>

constexpr int N = 64;
constexpr int NB = 8;
constexpr int BL = N / NB;
constexpr int R = 16;

namespace sig {

#pragma omp task in(x[lo - 1:hi + 1]) out(y[lo:hi])
void smooth(const double *x, double *y, int lo, int hi)
{
  for (int i = lo; i <= hi; ++i)
    y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1];
}

#pragma omp task depend(in: row[0;n]) depend(inout: acc[k])
void row_norm(const double *row, int n, double *acc, int k)
{
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += row[i] * row[i];
  acc[k] += s;
}

#pragma omp task depend(inout: m[r][0;N]) depend(in: f, x[0;N])
void scale_row(double (*m)[N], int r, const double &f, const double *x)
{
  for (int c = 0; c < N; ++c)
    m[r][c] = m[r][c] * f + x[c];
}

#pragma omp task depend(in: acc[0;n]) depend(inout: s)
void add_all(const double *acc, int n, double &s)
{
  for (int i = 0; i < n; ++i)
    s = s * 0.5 + acc[i];
}

} // namespace sig

static double M[R][N];

int main()
{
  std::vector<double> a(N + 2), b(N + 2);
  for (int i = 0; i < N + 2; ++i)
    a[i] = b[i] = (i * 37 % 11) / 7.0;
  std::array<double, R> norms{};
  double *x = a.data(), *y = b.data();
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < N; ++c)
      M[r][c] = 1.0 / (1 + r + c);

  for (int round = 0; round < R; ++round) {
    for (int blk = 0; blk < NB; ++blk)
      sig::smooth(x, y, 1 + blk * BL, blk * BL + BL);
    std::swap(x, y);
    double f = 1.0 - round / 64.0;
    sig::scale_row(M, round, f, x + 1);
    for (int r = 0; r <= round; r += 3)
      sig::row_norm(M[r], N, norms.data(), r);
  }
  double s = 0;
  sig::add_all(norms.data(), R, s);
#pragma omp taskwait
  for (int r = 0; r < R; ++r)
    std::printf("norm %d %a\n", r, norms[r]);
  std::printf("sum %a x %a %a\n", s, x[1], x[N]);
  return 0;
}
