// An error in the generated code of a directive's expressions points at the
// directive's line (it pointed at a line of the file that says something
// else: the directive's line plus the generated line's rank).
// RUN: %gpuss-translate %s -o %t.c --
// RUN: not %cc -c -I %gpuss-include %t.c -o %t.o 2>&1 | FileCheck %s
struct shape {
  int rows, cols;
};
struct shape dims = {4, 4};
#pragma css task inout(a[dims])
void f(double *a);
// CHECK: line-directives-regions.c:10:{{[0-9]+}}: error:

void g(double *a) {
  f(a);
}
