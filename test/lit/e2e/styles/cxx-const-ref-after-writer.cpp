// C++ programs pass values by const reference. A `const T &` named in a
// clause is copied at the call, as the sequential program reads it there:
// once the tasks called before that write it have run (it was copied at
// once, holding the value from before them: b=0, found by a helper's C++
// sweep). A parameter struct passed the same way to every task, and
// changed by the program after each call, keeps each call's value, and
// the tasks that only read it do not wait for each other. A struct taken
// by reference whose members are named (`b.v[0;4]`) reaches its data
// through the object (it did not compile).
// Same output as the sequential program, on host workers and simulated
// devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: a=3 b=1 c=3 sum=120 s=20 d3=16
#include <cstdio>

struct Params {
  double scale, shift;
};
struct Box {
  double *v;
  int n;
};

#pragma css task inout(x)
void inc(double &x) { x += 1; }
#pragma css task input(x) output(y)
void copy(const double &x, double &y) { y = x; }
#pragma css task input(p) output(*out)
void affine(const Params &p, double x, double *out) { *out = p.scale * x + p.shift; }
#pragma css task inout(b.v[0;4])
void twice(Box &b) {
  for (int i = 0; i < 4; i++) b.v[i] *= 2;
}
#pragma css task input(b.v[0;4]) inout(*s)
void total(const Box &b, double *s) {
  for (int i = 0; i < 4; i++) *s += b.v[i];
}

int main() {
  double a = 0, b = -1, c = -1;
  inc(a);
  copy(a, b); // 1
  inc(a);
  inc(a);
  copy(a, c); // 3
  Params p{2, 0};
  double out[5];
  for (int i = 0; i < 5; i++) {
    affine(p, i, &out[i]);
    p.shift += 10; // each task keeps its call's value
  }
  double d[4] = {1, 2, 3, 4}, s = 0;
  Box box{d, 4};
  twice(box);
  total(box, &s);
  twice(box);
#pragma css barrier
  double sum = 0;
  for (double v : out) sum += v;
  std::printf("a=%g b=%g c=%g sum=%g s=%g d3=%g\n", a, b, c, sum, s, d[3]);
}
