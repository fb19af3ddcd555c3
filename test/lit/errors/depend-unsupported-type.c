// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task depend(mutexinoutset: *acc) input(n)
void add(int n, double *acc);
// CHECK: depend-unsupported-type.c:3:25: error: dependence type 'mutexinoutset' is not supported by GPUSs: GPUSs orders every two tasks that write the same data; name the data in inout(...) instead (the tasks then run one after another, in program order); write depend(inout: ...)
#pragma omp task depend(in x)
void other(double *x);
// CHECK: depend-unsupported-type.c:6:28: error: expected ':' after 'depend(in', found 'x'
