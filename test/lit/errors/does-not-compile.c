// A source Clang cannot compile (a GNU nested function): Clang's error, no
// output, and exit status 3, which tells the wrappers the directives were
// never read.
// RUN: rm -f %t.c
// RUN: %gpuss-translate %s -o %t.c -- 2> %t.err; echo "exit $?" >> %t.err
// RUN: FileCheck %s < %t.err
// RUN: test ! -e %t.c
#pragma css task inout(v[4])
void twice(int *v);
int main(void) {
  int v[4] = {1, 2, 3, 4};
  int add(int a) { return a + v[0]; }
  twice(v);
  return add(1);
}
// CHECK: does-not-compile.c:12:{{[0-9]+}}: error: function definition is not allowed here
// CHECK: exit 3
