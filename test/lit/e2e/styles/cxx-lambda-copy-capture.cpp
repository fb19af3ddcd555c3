// A lambda that captures by copy and passes the address of its copy to a
// task, as C++ code that wraps a submit in an immediately invoked lambda
// writes it: `[=, &acc]() { add(&v, &acc); }();` in a loop. The task's data
// is the closure's member, which dies with the closure at the end of the
// statement; the next iteration's closure, at the same address, holds the
// next value while the previous task has not read it yet.
// The translator waited where the captured variable `v` of the enclosing
// function dies (`css_release(&v)` at the end of the loop body, naming the
// loop's `v`, not the closure's copy), so nothing waited for the tasks on
// the copy: host workers printed 0x1.37ffec8p+5 where the program prints
// 0x1.2800018p+5. A capture by copy is now a local of the lambda's body,
// waited for where it ends (e2e/lambda-copy-capture-task-data.cpp).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: acc 0x1.2800018p+5
#include <cstdio>

#pragma css task inout(*acc)
void slow(double *acc) {
  for (volatile int i = 0; i < 2000000; ++i)
    ;
  *acc += 1;
}

#pragma css task input(*v) inout(*acc)
void add(const double *v, double *acc) { *acc = *acc * 0.5 + *v; }

int main() {
  double acc = 0;
  for (int k = 0; k < 20; ++k) {
    double v = k;
    slow(&acc);
    [=, &acc]() { add(&v, &acc); }();
  }
#pragma css barrier
  std::printf("acc %a\n", acc);
}
