// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a{0:2}{1:2}{0:3})
void corner(double a[4][4][4]);
// CHECK: region-three-dims.c:3:30: error: 'a{0:2}{1:2}{0:3}' names a part of more than two dimensions; a task's region is a block of rows (one run of elements, or rows of equal runs at a fixed stride): split it into items of one row index each, or name a larger block
