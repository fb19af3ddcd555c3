// `wait on` of tiles reached through an array of tile pointers: SMPSs's
// `wait on(C[t])` waits for the tile C[t] points to (it waited on the
// pointers, and the program read a tile still on a device), OmpSs's
// `taskwait on(*C[t])` the same, and `wait on(C[t][0;BS*BS])` names the
// tile's elements. Each tile is read right after its wait. Same output as
// the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: tile 0
// CHECK: tile 5
#include <stdio.h>
#include <stdlib.h>

#define NT 6
#define BS 64

#pragma css task inout(c[BS * BS]) input(k)
void update(double *c, int k) {
  for (int i = 0; i < BS * BS; i++)
    c[i] = c[i] * 0.5 + k + i % 7;
}

int main(void) {
  double *C[NT];
  for (int t = 0; t < NT; t++) {
    C[t] = malloc(BS * BS * sizeof(double));
    for (int i = 0; i < BS * BS; i++)
      C[t][i] = t;
  }
  for (int k = 0; k < 4; k++)
    for (int t = 0; t < NT; t++)
      update(C[t], k + t);
  for (int t = 0; t < NT; t++) {
    if (t % 3 == 0) {
#pragma css wait on(C[t])
    } else if (t % 3 == 1) {
#pragma css taskwait on(*C[t])
    } else {
#pragma css wait on(C[t][0;BS * BS])
    }
    double s = 0;
    for (int i = 0; i < BS * BS; i++)
      s += C[t][i] * (i % 5 + 1);
    printf("tile %d %.6f\n", t, s);
  }
  for (int t = 0; t < NT; t++)
    free(C[t]);
  return 0;
}
