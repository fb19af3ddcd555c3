// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout([n]a) input(n) priority(level)
void work(int n, double *a);
// CHECK: priority-unknown-name.c:3:48: error: unknown name 'level'; a clause may use the parameters of 'work' and the macros, enumerators and globals declared before the pragma
