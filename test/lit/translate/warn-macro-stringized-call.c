// A task call written in a function-like macro's argument is rewritten where
// it is written; where a macro also turns that argument into a string (`#`,
// directly or through another macro), the string holds the rewritten call
// (the program printed `__css_submit_inc(&x, "FILE", 12)` for `inc(&x)`,
// with no word from the translator). A warning at the call, and a note at
// the `#`; the call is still a task. No warning where no macro stringizes
// the call, nor for an argument stringized beside it.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --implicit-check-not=warning: %s
// RUN: FileCheck --check-prefix=CODE %s < %t.c
// RUN: %cc -fsyntax-only -Wall -Wno-unknown-pragmas -I %gpuss-include %t.c
#include <stdio.h>
#define LOG(...) (puts(#__VA_ARGS__), __VA_ARGS__)
#define STR(x) #x
#define LOG2(...) (puts(STR(__VA_ARGS__)), __VA_ARGS__)
#define PLAIN(...) __VA_ARGS__
#define TAGGED(tag, call) (puts(#tag), call)
#pragma css task inout(*v)
void inc(int *v);

int main(void) {
  int x = 0;
  LOG(inc(&x));
  // CHECK: warn-macro-stringized-call.c:[[@LINE-1]]:7: warning: the task call 'inc(...)' is written in an argument of macro 'LOG', which also turns that argument into a string with '#': the translator rewrites the call where it is written, so the string holds the rewritten call '__css_submit_inc(...)' where the program's holds 'inc(...)'; write the call outside the macro's argument where that text matters
  // CHECK: warn-macro-stringized-call.c:12:24: note: macro 'LOG' turns its argument into a string here
  // CODE: LOG(__css_submit_inc(&x, "{{.*}}warn-macro-stringized-call.c", [[@LINE-3]]));
  LOG2(inc(&x));
  // CHECK: warn-macro-stringized-call.c:[[@LINE-1]]:8: warning: the task call 'inc(...)' is written in an argument of macro 'LOG2', whose text macro 'STR' also turns into a string with '#'
  // CHECK: warn-macro-stringized-call.c:13:16: note: macro 'STR' turns its argument into a string here
  PLAIN(inc(&x));
  TAGGED(x, inc(&x));
  // CODE: TAGGED(x, __css_submit_inc(&x, "{{.*}}warn-macro-stringized-call.c", [[@LINE-1]]));
  return 0;
}
