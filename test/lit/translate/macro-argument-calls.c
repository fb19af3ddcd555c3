// A call of a task annotated at its declaration, written in an argument of a
// function-like macro, is rewritten where it is written: the callee's name
// becomes the submit helper's and the call's file and line are appended,
// inside the argument, with no line directive in it (a directive cannot
// stand in a macro's arguments); an argument the macro uses twice is
// rewritten once.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
#pragma css task inout(*g) input(k)
void addk(long *g, long k);
#define IF_ON(c, call) if (c) call
#define DO_TWICE(s) do { s; s; } while (0)
void run(long *g) {
  for (int r = 0; r < 4; r++)
    IF_ON(r % 2 == 0, addk(g, r));
  // CHECK: IF_ON(r % 2 == 0, __css_submit_addk(g, r, "{{.*}}macro-argument-calls.c", [[@LINE-1]]));
  DO_TWICE(addk(g,
                1));
  // CHECK: DO_TWICE(__css_submit_addk(g,
  // CHECK-NEXT: 1, "{{.*}}macro-argument-calls.c", [[@LINE-3]]));
}
