// Array references as C++ code takes fixed-size blocks: `double (&a)[4]`
// written by a task and `const double (&b)[4]` read by another. The body's
// cast was spelled `*(double[4] *)`, and the const form got a const array
// member in the argument struct: neither compiled (a helper's C++ sweep,
// 2026-11-29). Same output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: a=4 8 12 16 s=40 t=80
#include <cstdio>

#pragma css task inout(a)
void twice(double (&a)[4]);
#pragma css task input(b) inout(*s)
void total(const double (&b)[4], double *s);

int main() {
  double a[4] = {1, 2, 3, 4}, s = 0, t = 0;
  twice(a);
  twice(a);
  total(a, &s); // after both: 40
  twice(a);
  total(a, &t); // 80
  twice(a);
  twice(a); // read back below: divided by 4
#pragma css barrier
  std::printf("a=%g %g %g %g s=%g t=%g\n", a[0] / 8, a[1] / 8, a[2] / 8, a[3] / 8, s, t);
}

void twice(double (&a)[4]) {
  for (double &e : a)
    e *= 2;
}
void total(const double (&b)[4], double *s) {
  for (double e : b)
    *s += e;
}
