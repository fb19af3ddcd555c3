// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(v[4])
void bump(int *v);
void run(int *x) {
#pragma css task input(x[4])
  bump(x);
}
// CHECK: callsite-weakens-declared.c:6:13: error: this task directive replaces the directive of 'bump' for this call and names argument 1 ('x') as input only, where the function's directive writes it (parameter 'v'): the task's writes would not be ordered with other tasks; name it in inout(...) or output(...) here too, or remove this directive
// CHECK: callsite-weakens-declared.c:3:13: note: the directive of 'bump' is here
