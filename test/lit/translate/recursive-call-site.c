// A call-site task inside the function it calls (recursion): the task code
// before the function declares it first (Clang and gcc 14 rejected the
// implicit declaration, gcc 12 warned).
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Werror -Wall -Wno-unknown-pragmas -I %gpuss-include %t.c
static void fib(int n, long *r) {
  long a, b;
  if (n < 2) {
    *r = n;
    return;
  }
#pragma css task output(a)
  fib(n - 1, &a);
  fib(n - 2, &b);
#pragma css wait on(a)
  *r = a + b;
}
long run(int n) {
  long r;
  fib(n, &r);
  return r;
}
// CHECK: static void fib(int, long *);
// CHECK-NEXT: /* gpuss: task fib: #pragma css task output(a) */
// CHECK: static void __css_body_fib_l14(
// CHECK: static void fib(int n, long *r) {
