// Names of the class around a directive: a static constant in the clauses of
// the class's own static member tasks, and data members (through `this`) in
// a `wait on` and a call-site directive inside a member function. Same
// output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: total
#include <cstdio>

void add_one(double *v, int n) {
  for (int i = 0; i < n; ++i)
    v[i] += 1.0;
}

class Blocks {
public:
  static constexpr int BS = 8;
#pragma css task inout(b[BS]) input(f)
  static void scale(double *b, double f);

  explicit Blocks(int nb) : nb_(nb), p_(new double[nb * BS]) {
    for (int i = 0; i < nb_ * BS; ++i)
      p_[i] = i;
  }
  ~Blocks() {
    delete[] p_;
  }

  double run() {
    for (int b = 0; b < nb_; ++b)
      Blocks::scale(p_ + b * BS, 1.5);
#pragma css task inout(p_[0; nb_ * BS])
    add_one(p_, nb_ * BS);
#pragma css wait on(p_[0; nb_ * BS])
    double s = 0;
    for (int i = 0; i < nb_ * BS; ++i)
      s += p_[i];
    return s;
  }

private:
  int nb_;
  double *p_;
};

void Blocks::scale(double *b, double f) {
  for (int i = 0; i < BS; ++i)
    b[i] *= f;
}

int main() {
  Blocks blocks(5);
  std::printf("total %.2f\n", blocks.run());
  return 0;
}
