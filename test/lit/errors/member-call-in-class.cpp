// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
struct Grid {
#pragma css task inout([n]v) input(n)
  static void relax(int n, double *v);
  void step(double *v) { relax(8, v); }
};
// CHECK: member-call-in-class.cpp:6:26: error: a call of static member task function 'Grid::relax' inside the definition of class 'Grid' cannot be translated: the task's code must come after the class; call it from a member function defined after the class, or from a free function
