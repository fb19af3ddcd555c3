// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
class Grid {
#pragma css task inout([n]v) input(n)
  static void relax(int n, double *v);
};
// CHECK: member-not-public.cpp:5:15: error: static member function 'Grid::relax' is not public (it or a class around it is private or protected): the generated task code calls it from outside the class; make it public
