// A task call that a macro's argument holds but that the translator cannot
// rewrite where it is written: one made by an object-like macro named in
// the argument (`CHECK(STEP)` with `#define STEP addk(g, 1)`), which is the
// macro making the call; and a call with a task directive before it, whose
// submit is a statement the argument cannot hold. Each is reported once, at
// the call. (Calls of functions annotated at their declaration written in
// a macro argument are rewritten: e2e/styles/smpss-macro-argument-calls.c.)
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --implicit-check-not=error: %s
#pragma css task inout(*g) input(k)
void addk(long *g, long k);
void plain(long *g, long k);
#define CHECK(x) do { x; } while (0)
#define DO_TWICE(s) do { s; s; } while (0)
#define M(x) x
#define STEP addk(g, 1)
void run(long *g) {
  CHECK(STEP);
  // CHECK: macro-argument-call.c:[[@LINE-1]]:3: error: the call of task function 'addk' is made by macro 'STEP', which the translator cannot rewrite: call 'addk' directly, or let the macro name the function only (an object-like macro such as '#define STEP addk')
  DO_TWICE(STEP);
  // CHECK: macro-argument-call.c:[[@LINE-1]]:3: error: the call of task function 'addk' is made by macro 'STEP'
#pragma css task inout(*g)
  M(plain(g, 3));
  // CHECK: macro-argument-call.c:[[@LINE-1]]:5: error: the call of task function 'plain' is written in an argument of macro 'M', where a task directive before it cannot be translated: write the call outside the macro, or annotate the function's declaration instead
}
