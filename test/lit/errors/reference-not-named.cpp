// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
#pragma css task input(b[4])
void add(double &total, const double *b);
void run(double &t, const double *b) {
  add(t, b);
}
// CHECK: reference-not-named.cpp:4:18: error: parameter 'total' of task 'add' is a reference (type 'double
// &') that no clause names: the task would reach the caller's object with no dependencies; name it in
// input(...), output(...) or inout(...), or take it by value or by const reference
