// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
template <typename T>
struct Grid {
#pragma css task inout([n]v) input(n)
  static void relax(int n, T *v);
};
// CHECK: member-of-template.cpp:6:15: error: static member function 'Grid::relax' of a class template cannot be a task; make it a free function template
