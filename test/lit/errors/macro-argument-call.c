// A task call written whole in an argument of a function-like macro
// (`IF_ON(c, addk(g, r))`, `CHECK(f(x))`): the macro does not make the call,
// so the message says where the call is and what to do, not to rename the
// function by an object-like macro; an argument expanded twice is reported
// once.
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --implicit-check-not=error: %s
#pragma css task inout(*g) input(k)
void addk(long *g, long k);
#define IF_ON(c, call) if (c) call
#define DO_TWICE(s) do { s; s; } while (0)
void run(long *g) {
  for (int r = 0; r < 4; r++)
    IF_ON(r % 2 == 0, addk(g, r));
  // CHECK: macro-argument-call.c:[[@LINE-1]]:23: error: the call of task function 'addk' is written in an argument of macro 'IF_ON', which the translator cannot rewrite yet: write the call outside the macro (for example, expand the macro's code by hand around it)
  DO_TWICE(addk(g, 1));
  // CHECK: macro-argument-call.c:[[@LINE-1]]:12: error: the call of task function 'addk' is written in an argument of macro 'DO_TWICE'
}
