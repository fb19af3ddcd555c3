// C++ function templates as tasks: one directive on the template, calls that
// deduce its arguments and calls that name them, a non-type template
// parameter, a template in a namespace, a call-site task of a
// specialization, and calls inside a function template and a class
// template whose arguments depend on their parameters. Same output as the
// sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <cstddef>
#include <cstdio>

namespace blas {
#pragma css task input(n, alpha, x[n]) inout(y[n])
template <typename T>
void axpy(std::size_t n, T alpha, const T *x, T *y) {
  for (std::size_t i = 0; i < n; ++i)
    y[i] += alpha * x[i];
}
} // namespace blas

#pragma css task inout(v[N])
template <typename T, int N>
void twice(T *v) {
  for (int i = 0; i < N; ++i)
    v[i] *= 2;
}

template <typename T>
void fill(T *v, std::size_t n, T first) {
  for (std::size_t i = 0; i < n; ++i)
    v[i] = first + static_cast<T>(i);
}

// Calls resolved only at instantiation: they become task submissions too.
template <typename T>
void axpy_twice(std::size_t n, const T *x, T *y) {
  blas::axpy(n, T(1), x, y);
  blas::axpy<T>(n, T(1), x, y);
}

template <typename T>
struct Smoother {
  std::size_t n;
  void apply(const T *x, T *y) const { blas::axpy(n, T(-0.5), x, y); }
};

int main() {
  constexpr std::size_t n = 16;
  float xf[n], yf[n];
  double xd[n], yd[n];
  long counts[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  fill(xf, n, 1.0f);
  fill(yf, n, 0.0f);
  fill(xd, n, 0.5);
  fill(yd, n, 0.0);
  for (int round = 0; round < 3; ++round) {
    blas::axpy(n, 2.0f, xf, yf);           // deduced: T = float
    blas::axpy<double>(n, 0.5, xd, yd);    // named
    twice<long, 8>(counts);                // a non-type parameter
  }
  axpy_twice(n, xf, yf);
  Smoother<double>{n}.apply(xd, yd);
#pragma css task input(xd[n]) inout(yd[n])
  blas::axpy<double>(n, -1.0, xd, yd);     // a call-site task of a specialization
#pragma css barrier
  double sum_f = 0, sum_d = 0;
  long sum_counts = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sum_f += yf[i];
    sum_d += yd[i];
  }
  for (long c : counts)
    sum_counts += c;
  std::printf("yf %.1f yd %.2f counts %ld\n", sum_f, sum_d, sum_counts);
  return 0;
}
// CHECK: yf 1208.0 yd 120.00 counts 288
