// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css target device(opencl)
#pragma css task inout(a[4])
void f(int *a);
// CHECK: unknown-device.c:3:27: error: unknown device 'opencl' (expected cuda or smp)
