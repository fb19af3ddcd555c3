// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a[0;2]{1:3})
void rows(double (*a)[8]);
// CHECK: section-with-regions.c:3:25: error: a section '[...]' and regions '{...}' in one item ('a[0;2]{1:3}'): give the part with one notation, e.g. 'a{lo:len}' for 'a[lo;len]'
