// C++ containers as task data: chunks of a std::vector passed with
// `v.data() + off`, a std::array passed whole through a pointer to it
// (`inout(hist)` on `std::array<long, 8> *`), and std::complex<double>
// arrays with a complex factor passed by value. A chirp signal is rotated,
// filtered and binned.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: power
// CHECK: checksum

#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

using cd = std::complex<double>;
constexpr int CH = 128;

#pragma css task input(k0) output(z[CH])
void make_chirp(cd *z, int k0) {
  for (int i = 0; i < CH; ++i) {
    double t = (k0 + i) / 512.0;
    z[i] = std::polar(1.0 + 0.5 * std::cos(7 * t), 40.0 * t * t);
  }
}

#pragma css task input(f) inout(z[CH])
void rotate(cd *z, cd f) {
  for (int i = 0; i < CH; ++i)
    z[i] *= f;
}

#pragma css task input(z[CH]) output(p[CH])
void power(const cd *z, double *p) {
  for (int i = 0; i < CH; ++i)
    p[i] = std::norm(z[i]);
}

#pragma css task input(p[CH]) inout(hist)
void bin(const double *p, std::array<long, 8> *hist) {
  for (int i = 0; i < CH; ++i) {
    int b = static_cast<int>(p[i] * 2.0);
    if (b > 7)
      b = 7;
    (*hist)[b] += 1;
  }
}

#pragma css task input(p[CH]) output(s)
void chunk_sum(const double *p, double *s) {
  double t = 0;
  for (int i = 0; i < CH; ++i)
    t += p[i] * (i % 3 + 1);
  *s = t;
}

int main() {
  const int chunks = 12, n = chunks * CH;
  std::vector<cd> z(n);
  std::vector<double> p(n);
  std::vector<double> sums(chunks);
  std::array<long, 8> hist{};

  for (int c = 0; c < chunks; ++c)
    make_chirp(z.data() + c * CH, c * CH);
  const cd f = std::polar(1.0, 0.3);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < chunks; ++c)
      rotate(z.data() + c * CH, r == 1 ? std::conj(f) : f);
  for (int c = 0; c < chunks; ++c) {
    power(z.data() + c * CH, &p[c * CH]);
    bin(&p[c * CH], &hist);
    chunk_sum(p.data() + c * CH, &sums[c]);
  }
#pragma css barrier

  double total = 0, checksum = 0;
  for (int c = 0; c < chunks; ++c)
    total += sums[c];
  std::printf("power %.8f\n", total);
  std::printf("hist");
  for (long h : hist)
    std::printf(" %ld", h);
  std::printf("\n");
  for (int i = 0; i < n; i += 97)
    std::printf("z[%d] = (%.8f, %.8f)\n", i, z[i].real(), z[i].imag());
  for (int i = 0; i < n; ++i)
    checksum += z[i].real() * (i % 5) - z[i].imag() * (i % 3);
  std::printf("checksum %.8f\n", checksum);
  return 0;
}
