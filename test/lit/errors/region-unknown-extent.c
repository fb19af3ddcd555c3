// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a{}) input(n)
void clear(int n, double *a);
// CHECK: region-unknown-extent.c:3:25: error: cannot tell how many elements 'a' points to (type 'double *'): '{}' needs a known extent; give the part, e.g. 'a{0:n}', or a shape, e.g. '[n]a'
