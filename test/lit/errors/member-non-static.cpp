// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
struct Grid {
#pragma css task inout([n]v) input(n)
  void relax(int n, double *v);
};
// CHECK: member-non-static.cpp:5:8: error: non-static member function 'Grid::relax' cannot be a task: a task has no object to call it on; make it a static member function, or a free function that takes the object by pointer and names it in a data clause
