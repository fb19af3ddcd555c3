// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task depend(in: a[0;n]) input(n)
void use(int n, const double *a);
// CHECK: unsupported-depend.c:3:18: error: clause 'depend' is not supported by GPUSs: write depend(in: x) as input(x), depend(out: x) as output(x) and depend(inout: x) as inout(x)
