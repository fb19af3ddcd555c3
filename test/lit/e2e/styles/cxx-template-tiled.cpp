// A C++ tiled-matrix class template whose member functions submit
// function-template tasks instantiated with the class's own parameters
// (`gemm_tile<T, BS>(...)` inside `TiledMatrix<T, BS>::multiply_add`), used
// with float and double. Tiles live in one std::vector, addressed by offset.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: float trace
// CHECK: double trace

#include <cstddef>
#include <cstdio>
#include <vector>

namespace tiles {

#pragma css task input(a[BS * BS], b[BS * BS]) inout(c[BS * BS])
template <typename T, int BS>
void gemm_tile(const T *a, const T *b, T *c) {
  for (int i = 0; i < BS; ++i)
    for (int k = 0; k < BS; ++k)
      for (int j = 0; j < BS; ++j)
        c[i * BS + j] += a[i * BS + k] * b[k * BS + j];
}

#pragma css task input(seed) output(t[BS * BS])
template <typename T, int BS>
void fill_tile(T *t, int seed) {
  for (int i = 0; i < BS * BS; ++i)
    t[i] = T((i * 7 + seed * 3) % 11 - 5) / T(4);
}

#pragma css task input(t[BS * BS]) output(s)
template <typename T, int BS>
void trace_tile(const T *t, double *s) {
  double acc = 0;
  for (int i = 0; i < BS; ++i)
    acc += t[i * BS + i];
  *s = acc;
}

} // namespace tiles

template <typename T, int BS>
class TiledMatrix {
public:
  explicit TiledMatrix(int nt) : nt_(nt), data_(std::size_t(nt) * nt * BS * BS, T(0)) {}

  T *tile(int i, int j) { return data_.data() + (std::size_t(i) * nt_ + j) * BS * BS; }

  void randomize(int seed) {
    for (int i = 0; i < nt_; ++i)
      for (int j = 0; j < nt_; ++j)
        tiles::fill_tile<T, BS>(tile(i, j), seed + i * nt_ + j);
  }

  // this += a * b
  void multiply_add(TiledMatrix &a, TiledMatrix &b) {
    for (int i = 0; i < nt_; ++i)
      for (int j = 0; j < nt_; ++j)
        for (int k = 0; k < nt_; ++k)
          tiles::gemm_tile<T, BS>(a.tile(i, k), b.tile(k, j), tile(i, j));
  }

  double trace() {
    std::vector<double> parts(nt_);
    for (int i = 0; i < nt_; ++i)
      tiles::trace_tile<T, BS>(tile(i, i), &parts[i]);
#pragma css barrier
    double s = 0;
    for (double p : parts)
      s += p;
    return s;
  }

  double checksum() {
#pragma css barrier
    double s = 0;
    for (std::size_t i = 0; i < data_.size(); ++i)
      s += double(data_[i]) * double(i % 7 + 1);
    return s;
  }

private:
  int nt_;
  std::vector<T> data_;
};

template <typename T, int BS>
void run(const char *name) {
  TiledMatrix<T, BS> a(3), b(3), c(3), d(3);
  a.randomize(1);
  b.randomize(40);
  c.multiply_add(a, b);
  c.multiply_add(b, a);   // a second chain of updates on every tile of c
  d.multiply_add(c, c);
  std::printf("%s trace %.4f checksum %.4f\n", name, d.trace(), d.checksum());
}

int main() {
  run<float, 8>("float");
  run<double, 12>("double");
  return 0;
}
