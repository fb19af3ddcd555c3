// A C++ header of templates: a task function template and a class template
// whose member functions call it and wait on their data. The header's task
// calls were not translated (they ran at once); now the header is translated
// and written into the output. Same output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas -I %inputs/header_tasks %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 -I %inputs/header_tasks %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: sums
#include "ttile.hpp"
#include <cstdio>

int main() {
  double xd[64], yd[64];
  float xf[64], yf[64];
  for (int i = 0; i < 64; ++i) {
    xd[i] = i * 0.5;
    yd[i] = 1;
    xf[i] = i;
    yf[i] = 2;
  }
  Vec<double> x{64, xd}, y{64, yd};
  Vec<float> u{64, xf}, w{64, yf};
  for (int r = 0; r < 3; ++r) {
    y.add_scaled(0.25, x);
    w.add_scaled(2.0f, u);
  }
  std::printf("sums %.3f %.3f\n", y.sum(), static_cast<double>(w.sum()));
  return 0;
}
