// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task untied inout(a)
void work(double *a);
// CHECK: unsupported-untied.c:3:18: error: clause 'untied' is not supported by GPUSs: a GPUSs task runs to its end on the worker that starts it; remove the clause
