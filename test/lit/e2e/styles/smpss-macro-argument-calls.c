// SMPSs programs wrap calls in their own function-like macros: a condition
// (`IF_ON(c, f(x))`), a debugging wrapper (`CHECK(f(x))`), a call repeated
// (`DO_TWICE(f(x))`), a wrapper that hands its argument to another
// (`OUTER(x)` -> `CHECK(x)`), and a call spread over lines. Each task call
// is rewritten where it is written, so the macro expands the submit as it
// expanded the call: twice where the argument is used twice, in the
// sequential program's order. (They were refused until 2026-11-29.)
// The update is not commutative (g := 3 g + k), so an order lost, or a
// submit dropped or doubled, changes the result.
// Same output as the sequential program, on host workers and simulated
// devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: g=9169 v=30 14 28 18 0 0
#include <stdio.h>

#pragma css task inout(*g) input(k)
void addk(long *g, long k);

#pragma css task input(n, src[n]) output(dst[n])
void twice_of(int n, const long *src, long *dst);

#define IF_ON(c, call) if (c) call
#define DO_TWICE(s) do { s; s; } while (0)
#define CHECK(x) do { x; } while (0)
#define OUTER(x) CHECK(x)
#define WITH_COUNT(n, call) ((n)++, call)

int main(void) {
  long g = 1, v[6] = {15, 7, 14, 9, 0, 0}, w[6];
  int calls = 0;
  for (int r = 0; r < 6; r++)
    IF_ON(r % 2 == 0, addk(&g, r));
  DO_TWICE(addk(&g, 1));
  CHECK(addk(&g,
             7));
  OUTER(addk(&g, 2));
  WITH_COUNT(calls, addk(&g, calls));
  CHECK(twice_of(4, v, w));
  IF_ON(calls == 1, twice_of(4, w, v));
#pragma css barrier
  printf("g=%ld v=%ld %ld %ld %ld %ld %ld\n", g, v[0] / 2, v[1] / 2, v[2] / 2, v[3] / 2, v[4], v[5]);
  return 0;
}

void addk(long *g, long k) { *g = *g * 3 + k; }

void twice_of(int n, const long *src, long *dst) {
  for (int i = 0; i < n; i++)
    dst[i] = 2 * src[i];
}
