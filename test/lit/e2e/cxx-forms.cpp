// C++ as people write it: tasks declared in a namespace and defined with a
// qualified name, taking that namespace's types by value; a static member
// function and a function of an anonymous namespace as tasks; tasks over
// class objects made with new[], over std::vector::data(), a std::array
// and std::complex values. Called from another namespace. Same output as
// the sequential program, on host workers and on simulated devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -O1 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 -O1 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <array>
#include <complex>
#include <cstdio>
#include <vector>

namespace blocks {
struct Affine {
  double a, b;
};
struct Particle {
  double x, v;
  Particle() : x(0), v(1) {}
};
#pragma css task input(f, n) inout([n]x)
void apply(Affine f, int n, double *x);

#pragma css task input(n, dt) inout([n]p)
void advance(int n, double dt, Particle *p);

struct Kernels {
#pragma css task input(n, [n]x) inout([n]y)
  static void accumulate(int n, const double *x, double *y);
};
} // namespace blocks

void blocks::apply(Affine f, int n, double *x) {
  for (int i = 0; i < n; ++i)
    x[i] = f.a * x[i] + f.b;
}

void blocks::advance(int n, double dt, Particle *p) {
  for (int i = 0; i < n; ++i) {
    p[i].v += dt * -p[i].x;
    p[i].x += dt * p[i].v;
  }
}

void blocks::Kernels::accumulate(int n, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] += x[i];
}

namespace {
#pragma css task input(n, w) inout([n]z)
void rotate(int n, std::complex<double> w, std::complex<double> *z) {
  for (int i = 0; i < n; ++i)
    z[i] *= w;
}

#pragma css task inout(a)
void bump(std::array<double, 4> *a) {
  for (double &v : *a)
    v = 2 * v + 1;
}
} // namespace

namespace app {
void run() {
  std::vector<double> v(16), w(16, 1.0);
  for (int i = 0; i < 16; ++i)
    v[i] = i;
  blocks::Particle *p = new blocks::Particle[8];
  std::complex<double> *z = new std::complex<double>[4];
  for (int i = 0; i < 4; ++i)
    z[i] = {1.0 * i, 1.0};
  std::array<double, 4> arr{1, 2, 3, 4};
  for (int step = 0; step < 3; ++step) {
    blocks::apply(blocks::Affine{0.5, 1.0}, 8, v.data());
    blocks::apply({2.0, -1.0}, 8, v.data() + 8);
    blocks::Kernels::accumulate(16, v.data(), w.data());
    blocks::advance(8, 0.1, p);
    rotate(4, std::complex<double>(0.0, 1.0), z);
    bump(&arr);
  }
#pragma css barrier
  double sv = 0, sw = 0;
  for (int i = 0; i < 16; ++i) {
    sv += v[i] * (i + 1);
    sw += w[i];
  }
  std::printf("vector %.4f %.4f\n", sv, sw);
  std::printf("particle %.6f %.6f\n", p[0].x, p[7].v);
  std::printf("complex %.1f%+.1fi %.1f%+.1fi\n", z[1].real(), z[1].imag(), z[3].real(), z[3].imag());
  std::printf("array %.0f %.0f\n", arr[0], arr[3]);
  delete[] p;
  delete[] z;
}
} // namespace app

int main() {
  app::run();
  return 0;
}
// CHECK: vector
// CHECK: array 15 39
