// A `T &` parameter of a type that is not trivially copyable (a
// std::vector) gives the task the object's bytes, not the elements it holds
// elsewhere: tasks that reach those through data() are not ordered with it
// (wrong sums, found by a helper's C++ sweep; only a warning at the
// clause before 2026-11-29). Refused, as the `const T &` form is.
// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck --implicit-check-not=error: %s
#include <vector>
#pragma css task inout(v)
void grow(std::vector<double> &v);
// CHECK: cxx-reference-to-container.cpp:[[@LINE-1]]:32: error: parameter 'v' of task function 'grow' is a reference to type 'std::vector<double>', which is not trivially copyable: a task gets the object's bytes, not what it holds elsewhere; pass a pointer to the data instead (for a container, its data() and size, e.g. 'inout([n]v)' for 'T *v')
void run(std::vector<double> &v) { grow(v); }
