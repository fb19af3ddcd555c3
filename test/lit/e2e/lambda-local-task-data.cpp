// Tasks on the locals and parameters of a lambda: each call of the lambda
// makes new locals at the same stack addresses, and returns before the next
// barrier. The translator waits for the tasks where a lambda's local stops
// living (the end of its body, a return), as it does in a function; it
// skipped lambda bodies, so the tasks read locals a later call had
// overwritten (host workers: a denormal for 0x1.14fa4fa4fa4fap+7), and under
// wb the runtime copied results back into dead stack frames (SIGSEGV). Jumps
// inside a lambda leave none of the scopes around it. Same output as the
// sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 timeout 60 %t/par | diff %t/expected -
// RUN: %gpuss-cxx -std=c++17 --translate-only %s -o %t/translated.cpp
// RUN: FileCheck --check-prefix=CODE %s < %t/translated.cpp
// RUN: FileCheck %s < %t/expected
// CHECK: acc 0x1.14fa4fa4fa4fap+7
// CHECK: par 0x1.03adf3bf00443p+7
// CODE: css_release(__css_wait, 1); } while (0); /* gpuss: tasks use t */ };
// CODE: /* gpuss: tasks use p */ return;
// CODE: css_release(__css_wait, 1); } while (0); /* gpuss: tasks use p */ };
#include <cstdio>

#pragma css task input(x[4]) inout(acc[0;1])
void sum4(const double *x, double *acc) {
  for (int i = 0; i < 4; ++i)
    *acc = *acc * 0.5 + x[i];
}

#pragma css task inout(v[0;1])
void twice(double *v) { *v *= 2; }

#pragma css task input(*src) inout(*acc)
void addp(const double *src, double *acc) { *acc = *acc * 0.5 + *src; }

int main() {
  double acc = 0, par = 0;
  auto f = [&](int k) { double t[4] = {1.0 * k, 2.0 * k, 3.0, 4.0}; sum4(t, &acc); };
  for (int k = 0; k < 200; ++k)
    f(k);
  // a parameter used by tasks, and a return before the end of the body
  auto h = [&](double p, int k) {
    twice(&p);
    addp(&p, &par);
    if (k % 3 == 0)
      return;
    twice(&p);
    addp(&p, &par);
  };
  for (int k = 0; k < 100; ++k)
    h(k * 0.25, k);
#pragma css barrier
  std::printf("acc %a\n", acc);
  std::printf("par %a\n", par);
}
