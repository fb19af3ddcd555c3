// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
void scale(double *v, int n);
static const double table[4] = {1, 2, 3, 4};
void run(void) {
#pragma css task inout(table)
  scale((double *)table, 4);
}
// CHECK: inout-const-variable.c:6:24: error: 'table' is const data (type 'const double[4]') and cannot be named in 'inout'
