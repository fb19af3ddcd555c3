// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
#include <vector>
#pragma css task input(v) inout(s)
void total(std::vector<double> v, double *s);
// CHECK: not-trivially-copyable.cpp:5:32: error: parameter 'v' of task function 'total' has type 'std::vector<double>', which is not trivially copyable, so it cannot be copied into a task; pass a pointer to the data instead (for a container, its data() and size, e.g. 'inout([n]v)' for 'T *v')
