// Old C that gcc accepts and Clang 19 rejects by default (implicit int, K&R
// definitions, implicit declarations, int-to-pointer): the translator is as
// lenient as gcc, and translates.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: error
// RUN: grep -q __css_submit_twice %t.c
#pragma css task inout(v[4])
void twice(int *v);
static scale = 1;
first(v) int *v; { return v[0] * scale; }
int h(void) { int *p = 5; (void)p; return; }
int main(void) {
  int v[4] = {1, 2, 3, 4};
  twice(v);
  printf("%d\n", first(v));
  return 0;
}
