// A task on a lambda's capture by copy uses the closure's copy, a local of
// the lambda's body for the tasks called in it: it is released where the
// body ends and before its returns, naming the copy (the same name inside
// the body), as the lambda's locals and parameters are; not where the
// captured variable dies. Init-captures too. A capture by reference names
// the variable itself: released where that variable dies, as before; so is
// a copy seen through a nested lambda's capture by reference, at the end of
// the lambda that copied it.
// RUN: %gpuss-translate %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx -fsyntax-only -Wall -std=c++17 -Wno-unknown-pragmas -I %gpuss-include %t.cpp
#pragma css task input(*v) inout(*acc)
void add(const double *v, double *acc);

void run(double *acc, int n) {
  for (int k = 0; k < n; ++k) {
    double v = k, r = k;
    [=] { add(&v, acc); }();
    // CHECK: [=] { ::__css_submit_add(&v, acc, "{{.*}}", [[@LINE-1]]); do { {{.*}}css_contiguous(__builtin_addressof(v), sizeof v); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use v */ }();
    [w = v, acc] { add(&w, acc); }();
    // CHECK: [w = v, acc] { ::__css_submit_add(&w, acc, "{{.*}}", [[@LINE-1]]); do { {{.*}}css_contiguous(__builtin_addressof(w), sizeof w); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use w */ }();
    auto f = [v, acc](int j) {
      if (j)
        return;
      add(&v, acc);
    };
    // CHECK: auto f = [v, acc](int j) {
    // CHECK-NEXT: if (j)
    // CHECK-NEXT: { do { {{.*}}css_contiguous(__builtin_addressof(v), sizeof v); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use v */ return; }
    // CHECK-NEXT: ::__css_submit_add(&v, acc, "{{.*}}", [[@LINE-5]]);
    // CHECK-NEXT: do { {{.*}}css_contiguous(__builtin_addressof(v), sizeof v); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use v */ };
    f(0);
    f(1);
    [=] { [&] { add(&v, acc); }(); }();
    // CHECK: [=] { [&] { ::__css_submit_add(&v, acc, "{{.*}}", [[@LINE-1]]); }(); do { {{.*}}css_contiguous(__builtin_addressof(v), sizeof v); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use v */ }();
    [&] { add(&r, acc); }();
    // CHECK: [&] { ::__css_submit_add(&r, acc, "{{.*}}", [[@LINE-1]]); }();
    // CHECK-NEXT: do { {{.*}}css_contiguous(__builtin_addressof(r), sizeof r); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use r */ }
  }
}
