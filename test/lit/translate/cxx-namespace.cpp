// C++: task functions in namespaces; qualified names in the generated code.
// RUN: %gpuss-translate %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx -fsyntax-only -Wall -std=c++17 -I %gpuss-include %t.cpp
#include <cstddef>
namespace lin {
#pragma css task input(n, x[n]) inout(y[n])
void add(std::size_t n, const float *x, float *y);
}

namespace app {
void run(float *x, float *y) { lin::add(8, x, y); }
} // namespace app

// CHECK: namespace app {
// CHECK-NEXT: #line 7
// CHECK: struct __css_args_add {
// CHECK-NEXT:   std::size_t n;
// CHECK: ::lin::add(__css_a->n,
// CHECK: void run(float *x, float *y) { ::app::__css_submit_add(8, x, y, "{{.*}}cxx-namespace.cpp", 12); }
