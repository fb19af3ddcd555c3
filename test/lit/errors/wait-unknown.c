// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
void g(int *a) {
  int x = 0;
#pragma css wait on(x, y)
  (void)a;
}
// CHECK: wait-unknown.c:5:24: error: unknown name 'y'
