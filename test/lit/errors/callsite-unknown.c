// At a call site, names are the variables in scope there.
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
void f(int *a, int n);
void g(void) {
  int v[8];
#pragma css task inout(w[8]) input(n)
  f(v, 8);
}
// CHECK: callsite-unknown.c:7:24: error: unknown name 'w'
// CHECK: callsite-unknown.c:7:36: error: unknown name 'n'
