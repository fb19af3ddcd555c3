// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task inout(a[0..3])
void rows(double *a);
// CHECK: range-in-brackets.c:3:27: error: unexpected '..': a range 'lo..hi' belongs in an SMPSs region '{lo..hi}'; in '[...]' write 'lo:hi'
