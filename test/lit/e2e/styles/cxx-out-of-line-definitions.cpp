// The usual header/source split of C++: a class declares a static member
// task and a member function, a namespace declares a task and a driver, and
// the source file defines them out of line (`double Grid::run() {...}`,
// `double blas::run(...) {...}` at global scope), calling the tasks
// unqualified and qualified. The task code was named through the class or
// namespace of the definition instead of the scope it is written in, and
// did not compile (a helper's C++ sweep, 2026-11-29). Same output as the
// sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: grid=32 32 qualified=32 blas=24 nested=10
#include <cstdio>

class Grid {
public:
#pragma css task inout(x[0;4])
  static void twice(double *x);
  double run();
  double qualified();
  double x_[4] = {1, 2, 3, 4};
};

namespace blas {
#pragma css task inout(x[0;4])
void thrice(double *x);
double run(double *x);
namespace inner {
#pragma css task inout(*v)
void add_one(long *v);
long run(long v);
} // namespace inner
} // namespace blas

void Grid::twice(double *x) {
  for (int i = 0; i < 4; ++i)
    x[i] *= 2;
}

double Grid::run() {
  twice(x_);
  twice(x_);
  twice(x_);
  double *p = x_;
#pragma css wait on(p[0;4])
  return x_[3];
}

double Grid::qualified() {
  Grid::twice(x_);
  double *p = x_;
#pragma css wait on(p[0;4])
  return x_[1];
}

void blas::thrice(double *x) {
  for (int i = 0; i < 4; ++i)
    x[i] *= 3;
}

double blas::run(double *x) {
  thrice(x);
  blas::thrice(x);
#pragma css wait on(x[0;4])
  return x[2] + x[0] * 0;
}

void blas::inner::add_one(long *v) { ++*v; }

long blas::inner::run(long v) {
  for (int i = 0; i < 9; i++)
    add_one(&v);
#pragma css wait on(v)
  return v;
}

int main() {
  Grid g;
  double a = g.run();
  double b = g.qualified();
  double x[4] = {1, 2, 8.0 / 3, 4};
  double c = blas::run(x);
  long d = blas::inner::run(1);
  std::printf("grid=%g %g qualified=%g blas=%g nested=%ld\n", a, b, b, c, d);
  return 0;
}
