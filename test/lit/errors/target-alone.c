// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
#pragma css target device(cuda)
void f(int *a);
// CHECK: target-alone.c:2:13: error: a target directive must be next to a task directive
