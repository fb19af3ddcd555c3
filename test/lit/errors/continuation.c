// Errors on a continued line point at that line.
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css target device(cuda) copy_in(a[4]) \
  copy_out(b[4])
#pragma css task input(a[4]) inout(b[4])
void f(int *a, int *c);
// CHECK: continuation.c:6:36: error: unknown name 'b'
// CHECK: continuation.c:5:12: error: unknown name 'b'
