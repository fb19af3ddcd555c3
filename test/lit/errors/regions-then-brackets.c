// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a{0:2}[8])
void rows(double (*a)[8]);
// CHECK: regions-then-brackets.c:3:30: error: '[...]' after '{...}' in 'a{0:2}': write the dimensions '[...]' first, then the regions '{...}'
