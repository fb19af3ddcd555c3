// Tasks on a lambda's captures by copy: in the lambda's body `v` names the
// closure's copy, which dies with the closure (an immediately invoked one at
// the end of its statement), and the next closure has its copy at the same
// address. The translator waits for those tasks where the body ends and at
// its returns, as for the lambda's locals and parameters; it waited where
// the enclosing function's `v` dies, naming that `v`, so nothing waited for
// the copy and the tasks read a later closure's values (host workers:
// 0x1.37ffec8p+5 for 0x1.2800018p+5 in the first loop). Covers [=], [v],
// init-captures, mutable lambdas, a named closure called twice, a return in
// the body, a copy seen through a nested lambda's capture by reference, and
// a generic lambda, and a task block in a mutable lambda. Same output as
// the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 120 %run-configs %t/expected %t/par
// RUN: env CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_CACHE_POLICY=wb timeout 60 %t/par | diff %t/expected -
// RUN: FileCheck %s < %t/expected
// CHECK: default 0x1.2800018p+5
// CHECK-NEXT: named 0x1.2800018p+5
// CHECK-NEXT: init 0x1.3800008p+5
// CHECK-NEXT: mutable 0x1.300001p+5
// CHECK-NEXT: twice 0x1.32aaaaaaaab8p+5
// CHECK-NEXT: return 0x1.2806p+5
// CHECK-NEXT: nested 0x1.2800018p+5
// CHECK-NEXT: generic 0x1.2800018p+5
// CHECK-NEXT: block 0x1.2800018p+5
#include <cstdio>

#pragma css task inout(*acc)
void slow(double *acc) {
  for (volatile int i = 0; i < 300000; ++i)
    ;
  *acc += 1;
}

#pragma css task input(*v) inout(*acc)
void add(const double *v, double *acc) { *acc = *acc * 0.5 + *v; }

int main() {
  double acc[9] = {0};
  for (int k = 0; k < 20; ++k) {
    double v = k;
    slow(&acc[0]);
    [=, &acc]() { add(&v, &acc[0]); }();
    slow(&acc[1]);
    [v, &acc] { add(&v, &acc[1]); }();
    slow(&acc[2]);
    [w = v + 1, &acc] { add(&w, &acc[2]); }();
    slow(&acc[3]);
    [=, &acc]() mutable {
      v += 0.5;
      add(&v, &acc[3]);
    }();
    slow(&acc[4]);
    auto f = [=, &acc] { add(&v, &acc[4]); };
    f();
    slow(&acc[4]);
    f();
    slow(&acc[5]);
    [=, &acc](int j) {
      if (j % 2) {
        add(&v, &acc[5]);
        return;
      }
      slow(&acc[5]);
    }(k);
    slow(&acc[6]);
    [=, &acc] { [&] { add(&v, &acc[6]); }(); }();
    slow(&acc[7]);
    [=, &acc](auto) { add(&v, &acc[7]); }(0);
    slow(&acc[8]);
    double &a8 = acc[8];
    [=, &a8]() mutable {
#pragma css task input(v) inout(a8)
      { a8 = a8 * 0.5 + v; }
    }();
  }
#pragma css barrier
  std::printf("default %a\n", acc[0]);
  std::printf("named %a\n", acc[1]);
  std::printf("init %a\n", acc[2]);
  std::printf("mutable %a\n", acc[3]);
  std::printf("twice %a\n", acc[4]);
  std::printf("return %a\n", acc[5]);
  std::printf("nested %a\n", acc[6]);
  std::printf("generic %a\n", acc[7]);
  std::printf("block %a\n", acc[8]);
}
