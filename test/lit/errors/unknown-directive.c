// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css taks inout(a[4])
void f(int *a);
// CHECK: unknown-directive.c:3:13: error: unknown directive 'taks' (expected task, target, barrier, taskwait, wait, start or finish)
