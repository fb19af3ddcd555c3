// A pointer parameter that no clause names gets no dependencies: a warning
// at the parameter (declaration pragma) or at the argument (call site).
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
#pragma css task input(n) inout(a[n])
void f(int n, double *a, double *scratch);
// CHECK: warn-pointer-unnamed.c:[[@LINE-1]]:34: warning: parameter 'scratch' of task 'f' is a pointer that no clause names: the task gets no dependencies on the data it points to and may run before that data is written, or while other tasks use it; name it in input(...), output(...) or inout(...)

void h(double *a, double *t);
void g(double *a, double *s) {
#pragma css task inout(a[4])
  h(a, s);
  // CHECK: warn-pointer-unnamed.c:[[@LINE-1]]:8: warning: argument 2 of task 'h' (parameter 't') is a pointer that no clause of this directive names
}
