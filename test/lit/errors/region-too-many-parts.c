// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a{0:2}{1}{0})
void corner(double a[4][4]);
// CHECK: region-too-many-parts.c:3:33: error: too many parts for 'a', which has 2 dimension(s) here; remove this one, or give 'a' more dimensions with a shape, e.g. '[n][m]a'
