// C++ reference parameters: `const T &` of a trivially copyable type is
// captured by value at the call; `T &` named in a clause is the object it
// refers to (the task writes the caller's variable). Same output as the
// sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: sum
#include <cstdio>

#define BS 16

struct Params {
  double scale, shift;
};

#pragma css task input(i, p) output(b[BS])
void init_block(const int &i, const Params &p, double *b) {
  for (int k = 0; k < BS; ++k)
    b[k] = p.scale * (i * BS + k) + p.shift;
}

#pragma css task inout(sum) input(b[BS])
void accumulate(double &sum, const double *b) {
  for (int k = 0; k < BS; ++k)
    sum += b[k];
}

int main() {
  double blocks[4][BS];
  double sum = 0;
  Params p{0.5, 1.0};
  for (int i = 0; i < 4; ++i) {
    init_block(i, p, blocks[i]);
    p.shift += 1.0; // the task keeps the value at its call
  }
  for (int i = 0; i < 4; ++i)
    accumulate(sum, blocks[i]);
#pragma css wait on(sum)
  std::printf("sum %.3f\n", sum);
  return 0;
}
