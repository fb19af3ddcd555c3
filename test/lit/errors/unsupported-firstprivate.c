// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task firstprivate(n) inout([n]a)
void work(int n, double *a);
// CHECK: unsupported-firstprivate.c:3:18: error: clause 'firstprivate' is not supported by GPUSs: task arguments are copied when the call happens (scalars by value) and pointers reach their data through input, output and inout; remove the clause
