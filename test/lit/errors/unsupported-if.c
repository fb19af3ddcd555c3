// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout([n]a) input(n) if(n > 100)
void work(int n, double *a);
// CHECK: unsupported-if.c:3:39: error: clause 'if' is not supported by GPUSs: every call of a task function is a task in GPUSs; remove the clause, and where some calls must run as plain calls, annotate only the calls that are tasks ('#pragma css task' before the call)
