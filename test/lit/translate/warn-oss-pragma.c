// OmpSs-2's '#pragma oss' is not read by GPUSs: each such directive is
// warned about (it once was ignored in silence, and the program ran in
// order), and the program still builds and computes as its sequential code.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --implicit-check-not=warning: %s
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %gpuss-cc %s -o %t.dir/prog 2>&1 | FileCheck --check-prefix=CC %s
// RUN: %t.dir/prog | FileCheck --check-prefix=OUT %s
#include <stdio.h>
#pragma oss task inout(*a)
void inc(long *a) { *a += 1; }
// CHECK: warn-oss-pragma.c:[[@LINE-2]]:9: warning: '#pragma oss' (OmpSs-2) is not read by GPUSs: the directive is ignored and its code runs in order, as no task; write it as '#pragma omp ...' in the OmpSs forms GPUSs reads, or '#pragma css ...' (docs/language.md)
// CC: warn-oss-pragma.c:[[@LINE-3]]:9: warning: '#pragma oss' (OmpSs-2) is not read by GPUSs
int main(void) {
  long a = 0;
  for (int i = 0; i < 5; i++)
    inc(&a);
#pragma oss taskwait
  // CHECK: warn-oss-pragma.c:[[@LINE-1]]:9: warning: '#pragma oss'
  printf("%ld\n", a);
  // OUT: 5
  return 0;
}
