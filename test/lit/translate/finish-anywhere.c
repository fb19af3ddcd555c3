// '#pragma css finish' wherever a statement may stand: twice, in a helper
// function, with tasks after it.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c

#pragma css task inout(x)
void bump(int *x);

static void done(void) {
#pragma css finish
}

int main(void) {
  int x = 0;
#pragma css start
  bump(&x);
#pragma css finish
  bump(&x);
  done();
  if (x)
#pragma css finish
    ;
  return 0;
}

// CHECK: static void done(void) {
// CHECK-NEXT: css_finish(); /* #pragma css finish */
// CHECK: css_start(); /* #pragma css start */
// CHECK-NEXT: __css_submit_bump(&x,
// CHECK-NEXT: css_finish(); /* #pragma css finish */
// CHECK-NEXT: __css_submit_bump(&x,
// CHECK: css_finish(); /* #pragma css finish */
