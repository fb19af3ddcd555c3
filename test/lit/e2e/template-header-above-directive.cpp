// The task directive written between a function template's header and the
// function (`template <typename T>` / `#pragma css task` / `void f(T *)`),
// as some OmpSs C++ codes write it, on a declaration and on a definition:
// the function is still the template's. It was taken for a plain function,
// and the generated code named an undeclared `T`.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks=12
// CHECK: float 22.5 double 45

#include <cstdio>

template <typename T>
#pragma css task inout(a[n]) input(n)
void scale(T *a, int n, T factor);

template <typename T>
#pragma css task input(a[n], n) inout(*sum)
void add_up(const T *a, int n, T *sum) {
  for (int i = 0; i < n; ++i)
    *sum += a[i];
}

template <typename T> void scale(T *a, int n, T factor) {
  for (int i = 0; i < n; ++i)
    a[i] *= factor;
}

int main() {
  float f[3][4];
  double d[3][4];
  float fsum = 0;
  double dsum = 0;
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < 4; ++i) {
      f[b][i] = 0.25f * (i + 1);
      d[b][i] = 0.5 * (i + 1);
    }
  for (int b = 0; b < 3; ++b) {
    scale(f[b], 4, 3.0f);
    scale(d[b], 4, 3.0);
    add_up(f[b], 4, &fsum);
    add_up(d[b], 4, &dsum);
  }
#pragma css barrier
  std::printf("float %.1f double %.0f\n", fsum, dsum);
  return 0;
}
