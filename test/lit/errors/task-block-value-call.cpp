// A task directive before a call of a function that returns a value
// (`std::memcpy`) makes a task block, not a call-site task (a task function
// returns void). When that block cannot be outlined, the error spoke of a
// block the user had not written; a note now says why the call is one (a
// helper's C++ sweep, 2026-11-29).
// RUN: not %gpuss-translate %s -o %t.cpp -- 2>&1 | FileCheck --implicit-check-not=error: %s
#include <cstring>
class Acc {
public:
  void copy_part(const double *src, int lo, int n) {
#pragma css task input(src[lo;n]) output(r_[lo;n])
    std::memcpy(r_ + lo, src + lo, n * sizeof(double));
    // CHECK: task-block-value-call.cpp:[[@LINE-1]]:17: error: a task block cannot be outlined into a task when it uses 'this' (a member function's object)
    // CHECK: task-block-value-call.cpp:[[@LINE-2]]:5: note: 'memcpy' returns a value, so the statement after the directive is a task block, not a call of a task function (which returns void)
  }
  double r_[16];
};
