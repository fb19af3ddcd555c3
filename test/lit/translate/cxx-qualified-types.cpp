// C++: a task declared in a namespace and defined with a qualified name,
// taking a type of that namespace by value; the generated code stands at
// the call's scope and names every type fully qualified. (The definition's
// pragma leaves out input(m): a by-value parameter is copied anyway, so the
// two pragmas agree.)
// RUN: %gpuss-translate %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx -fsyntax-only -Wall -std=c++17 -I %gpuss-include %t.cpp
#include <array>
#include <complex>

namespace blocks {
struct Affine {
  double a, b;
};
enum class Mode { Add, Set };
#pragma css task input(f, m, n) inout([n]x)
void apply(Affine f, Mode m, int n, double *x);
} // namespace blocks

#pragma css task input(n, f) inout([n]x)
void blocks::apply(Affine f, Mode m, int n, double *x) {
  for (int i = 0; i < n; ++i)
    x[i] = m == Mode::Add ? x[i] + f.a * x[i] + f.b : f.b;
}

#pragma css task input(n) inout([n]z)
void rotate(int n, std::complex<double> *z);

// A class template specialization named only here (not instantiated yet):
// the generated sizeof instantiates it.
#pragma css task inout(a)
void bump(std::array<double, 4> *a);

namespace app {
void run(double *x, std::complex<double> *z) {
  blocks::apply({2, 1}, blocks::Mode::Add, 4, x);
  rotate(4, z);
  bump(nullptr);
}
} // namespace app

// CHECK-LABEL: struct __css_args_apply {
// CHECK-NEXT:   ::blocks::Affine f;
// CHECK-NEXT:   ::blocks::Mode m;
// CHECK: ::blocks::apply(__css_a->f,
// CHECK: static void __css_submit_apply(::blocks::Affine f, ::blocks::Mode m, int n, double *x,
// CHECK-LABEL: struct __css_args_rotate {
// CHECK-NEXT:   int n;
// CHECK-NEXT:   ::std::complex<double> *z;
// CHECK: (::std::complex<double> *)css_translate(__css_env, 0, __css_a->z)
// CHECK-LABEL: struct __css_args_bump {
// CHECK: __css_acc[0].region = css_contiguous(a, sizeof(*a));
