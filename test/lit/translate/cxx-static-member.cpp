// C++: a static member function as a task, annotated in its class and
// called by its class's name from outside the class; a task in an
// anonymous namespace.
// RUN: %gpuss-translate %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx -fsyntax-only -Wall -std=c++17 -I %gpuss-include %t.cpp

namespace la {
struct Kernels {
  struct Block {
    double v[4];
  };
#pragma css task input(s) inout(b)
  static void scale(double s, Block *b);
};
} // namespace la

namespace {
#pragma css task input(n) inout([n]v)
void negate(int n, double *v) {
  for (int i = 0; i < n; ++i)
    v[i] = -v[i];
}
} // namespace

void run(la::Kernels::Block *b) {
  la::Kernels::scale(2.0, b);
  negate(4, b->v);
}

// CHECK-LABEL: struct __css_args_scale {
// CHECK-NEXT:   double s;
// CHECK-NEXT:   ::la::Kernels::Block *b;
// CHECK: ::la::Kernels::scale(__css_a->s,
// CHECK: __css_desc.label = "Kernels::scale";
// CHECK-LABEL: struct __css_args_negate {
// CHECK: ::negate(__css_a->n,
// CHECK: void run(la::Kernels::Block *b) {
// CHECK-NEXT: ::__css_submit_scale(2.0, b, "{{.*}}", 27);
// CHECK-NEXT: ::__css_submit_negate(4, b->v, "{{.*}}", 28);
