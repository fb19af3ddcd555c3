// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
#pragma css task input(n) inout(a)
void scale(long n, double a[n][n]);
// CHECK: vla-in-cxx.cpp:4:27: error: parameter 'a' of task function 'scale' has a variable-length array type ('double[n][n]'), which C++ does not have; declare it as a plain pointer and give its shape in the clause, e.g. 'inout([n][n]a)'
