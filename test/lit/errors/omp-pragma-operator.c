// _Pragma("omp ...") cannot be re-read from the file: refused where the
// results depend on it (before, the construct was silently dropped: lost
// atomic updates, a taskwait that did not wait).
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#define OMP_ATOMIC _Pragma("omp atomic")
long total;
#pragma omp task in(x[0;1])
void add(const int *x) {
  OMP_ATOMIC
  total += x[0];
}
// CHECK: omp-pragma-operator.c:[[@LINE-3]]:3: error: '_Pragma("omp atomic")' is not read by GPUSs (OmpSs tasks and the OpenMP constructs around and inside them must be #pragma lines): write '#pragma omp atomic' on a line of its own
void run(const int *x) {
  add(x);
  _Pragma("omp taskwait")
}
// CHECK: omp-pragma-operator.c:[[@LINE-2]]:3: error: '_Pragma("omp taskwait")' is not read by GPUSs
