// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(c[4]) input(a[4], alpha)
void real_axpy(const double *a, double *c, double alpha);
#define AXPY(a, c) real_axpy(a, c, 1.0)
void run(const double *a, double *c) {
  AXPY(a, c);
}
// CHECK: macro-function-like-call.c:7:3: error: the call of task function 'real_axpy' is made by macro 'AXPY', which the translator cannot rewrite: call 'real_axpy' directly, or let the macro name the function only (an object-like macro such as '#define AXPY real_axpy')
