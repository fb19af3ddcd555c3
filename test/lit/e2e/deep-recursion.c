// A recursion that calls a task at every level goes as deep as the
// sequential program. The submit helpers are never inlined: inlined into the
// recursive function, their descriptor, accesses and arguments made each of
// its frames 3.7 times larger (176 bytes instead of 48 with gcc -O2), and
// 1 MiB of stack overflowed at about 6,000 levels, 48,000 in 8 MiB.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O2 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %gpuss-cc -O2 %s -o %t/par
// RUN: sh -c 'ulimit -s 1024 && exec %t/seq 12000' | FileCheck %s
// RUN: sh -c 'ulimit -s 1024 && CSS_NUM_CPUS=1 exec %t/par 12000' | FileCheck %s
// RUN: %gpuss-cc --translate-only %s -o %t/translated.c
// RUN: FileCheck --check-prefix=CODE %s < %t/translated.c
// CHECK: levels=12000 sum=12000
// CODE: GPUSS_SUBMIT_HELPER static void __css_submit_bump(
#include <stdio.h>
#include <stdlib.h>

#pragma css task inout(x[1])
void bump(long *x) { x[0] += 1; }

long counter, work[8];

// Not a tail call: the frame stays until the levels below return.
void descend(long depth) {
  if (depth == 0) return;
  bump(&counter);
  descend(depth - 1);
  work[depth % 8] += depth;
}

int main(int argc, char **argv) {
  long depth = argc > 1 ? atol(argv[1]) : 1000;
  descend(depth);
#pragma css barrier
  printf("levels=%ld sum=%ld\n", depth, counter);
  return 0;
}
