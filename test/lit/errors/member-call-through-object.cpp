// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
struct Grid {
#pragma css task inout([n]v) input(n)
  static void relax(int n, double *v);
};
void step(Grid &g, double *v) { g.relax(8, v); }
// CHECK: member-call-through-object.cpp:7:33: error: call static member task function 'Grid::relax' by its class's name, as 'Grid::relax(...)', not through an object
