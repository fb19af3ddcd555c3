// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task input(n, [n]v) concurrent(s)
void sum(int n, const double *v, double *s);
// CHECK: unsupported-concurrent.c:3:33: error: clause 'concurrent' is not supported by GPUSs: GPUSs orders every two tasks that write the same data; name the data in inout(...) instead (the tasks then run one after another, in program order)
