// Inside a task body, a child that writes a value and then a child that takes
// it by `const double &`: the second child's copy is taken at its call, once
// the body's children that write it have finished (css_wait_written waits for
// them there; it returned at once in a task body, and the copy held the
// value from before the first children: 10 and 30 where the program gives
// 12 and 32). Children that do not write the value are not waited for.
// Same output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: env CSS_NUM_CPUS=4 timeout 60 %t/par | diff %t/expected -
// RUN: env CSS_NESTED=inline timeout 60 %t/par | diff %t/expected -
// RUN: FileCheck %s < %t/expected
// CHECK: 2 2 12 12 22 22 32 32
#include <chrono>
#include <cstdio>
#include <thread>

#pragma css task inout(x)
void inc(double &x) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20)); // still running at the copy's call
  x += 1;
}
#pragma css task input(x) output(y)
void copy(const double &x, double &y) { y = x; }

#pragma css task inout(v[0;2])
void work(double *v) {
  inc(v[0]);
  inc(v[0]);
  copy(v[0], v[1]);
}

int main() {
  double v[4][2] = {{0, -1}, {10, -1}, {20, -1}, {30, -1}};
  for (int i = 0; i < 4; i++)
    work(v[i]);
#pragma css barrier
  for (int i = 0; i < 4; i++)
    std::printf("%g %g ", v[i][0], v[i][1]);
  std::printf("\n");
}
