// Tasks on loop variables, as C++ loops are written: the address of a
// range-for copy (`for (double x : v) acc(&x, &s);`), a reference to each
// element (`for (auto &e : v) bump(e);`), the for-init counter
// (`acc(&i, &s)`), bodies with and without braces, a continue. The wait for
// a variable that a loop declares went after the whole loop, where the
// variable is out of scope (or between the call and its `;`), and did not
// compile (a helper's C++ sweep, 2026-11-29); it goes at the end of each
// iteration now, and at a continue. A reference names storage that
// outlives it: nothing is waited for (each element's task was waited for at
// the end of its block, which serialised the loop: early_releases=15 counts
// the 15 iterations of the loops that copy or count, none of the others).
// Same output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: env CSS_STATS=1 CSS_NUM_CPUS=2 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: {{.*}} early_releases=15 {{.*}}
// CHECK: v=2 3 4 5 s=25 t=36 u=8 w=14
#include <cstdio>
#include <vector>

#pragma css task inout(e)
void bump(double &e);
#pragma css task input(*x) inout(*s)
void acc(const double *x, double *s);
#pragma css task input(*i) inout(*t)
void count(const int *i, long *t);

int main() {
  std::vector<double> v{1, 2, 3, 4};
  for (auto &e : v)
    bump(e);
#pragma css barrier
  double s = 0; // the loops below copy v's elements on the main thread
  for (double x : v)
    acc(&x, &s);
  for (double x : v) {
    if (x == 3)
      continue;
    acc(&x, &s);
  }
  long t = 0;
  for (int i = 0; i < 4; ++i)
    count(&i, &t);
  for (int i = 0; i < 4; ++i) {
    count(&i, &t);
#pragma css wait on(i)
  }
  double u = 0, w = 0;
  for (const auto &e : v) {
    double &r = v[0];
    acc(&r, &u);
    acc(&e, &w);
  }
#pragma css barrier
  std::printf("v=%g %g %g %g s=%g t=%ld u=%g w=%g\n", v[0], v[1], v[2], v[3], s, t, u, w);
}

void bump(double &e) { e += 1; }
void acc(const double *x, double *s) { *s += *x; }
void count(const int *i, long *t) { *t += *i * 3 + 0; }
