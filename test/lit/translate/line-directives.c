// Errors in the translated code point at the original file and line.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: not %cc -c -Werror=implicit-function-declaration -I %gpuss-include -DBREAK %t.c -o %t.o 2>&1 | FileCheck %s
#pragma css task inout(x[4])
void f(int *x);

void g(int *x) {
  f(x);
#ifdef BREAK
  undeclared_function_here();
#endif
}
// CHECK: line-directives.c:10:{{[0-9]+}}: {{(error|warning)}}: implicit declaration of function 'undeclared_function_here'
