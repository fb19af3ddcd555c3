// Constants of a task's namespace in its clauses: the generated code, which
// stands outside the namespace, names them qualified (it did not compile).
// RUN: %gpuss-translate %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx -std=c++17 -fsyntax-only -I %gpuss-include %t.cpp
namespace lib {
const int BS = 4;
enum { ROWS = 2 };
#pragma css task inout(y[BS]) input(x[ROWS][BS])
void axpy(const double *x, double *y);
} // namespace lib

void lib::axpy(const double *x, double *y) {
  for (int i = 0; i < BS; ++i)
    y[i] += x[i] + x[BS + i];
}

int main() {
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[4] = {0};
  lib::axpy(x, y);
#pragma css barrier
  return static_cast<int>(y[0]);
}
// CHECK: css_contiguous(y, css_mul((size_t)(::lib::BS), sizeof(*y)));
// CHECK: css_contiguous(x, css_mul(css_mul((size_t)(::lib::ROWS), (size_t)(::lib::BS)), sizeof(*x)));
