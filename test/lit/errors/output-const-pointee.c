// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task input(n) output(a[n])
void fill(int n, const double *a);
// CHECK: output-const-pointee.c:3:34: error: 'a' is const data (type 'const double *') and cannot be named in 'output': the task's result would be copied back into read-only memory; remove 'const', or name it in input(...)
