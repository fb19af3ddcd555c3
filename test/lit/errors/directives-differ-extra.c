// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout([4]a)
void bump(double *a);

#pragma css task inout([4]a) highpriority
void bump(double *a) { a[0] += 1; }
// CHECK: directives-differ-extra.c:6:30: error: the task directives on two declarations of 'bump' differ: this one says 'highpriority', the other does not; write the same clauses on both, or annotate one declaration only
// CHECK: directives-differ-extra.c:3:13: note: the other declaration's directive is here
