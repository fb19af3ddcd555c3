// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#define TS 16
#pragma css task input(a[TS][BS]) inout(q[TS])
void f(float *a, float *b);
// CHECK: unknown-name.c:4:30: error: unknown name 'BS'; a clause may use the parameters of 'f' and the macros, enumerators and globals declared before the pragma{{$}}
// CHECK: unknown-name.c:4:41: error: unknown name 'q'
