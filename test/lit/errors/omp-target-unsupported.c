// OmpSs target clauses GPUSs has no use for are refused with what to do;
// copy_deps (what GPUSs always does) is accepted.
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
#pragma omp target device(smp) copy_deps
#pragma omp task inout(x[0;n])
void fine(int n, double *x);
// CHECK-NOT: omp-target-unsupported.c:4
#pragma omp target device(cuda) ndrange(1, n, 128) copy_deps
#pragma omp task inout(x[0;n])
void kernel(int n, double *x);
// CHECK: omp-target-unsupported.c:8:33: error: clause 'ndrange' of an OmpSs target is not supported by GPUSs: a CUDA task is a host function that launches its kernels on css_cuda_stream(); launch the kernel in the task's body
#pragma omp target device(smp) implements(fine)
#pragma omp task inout(x[0;n])
void fine2(int n, double *x);
// CHECK: omp-target-unsupported.c:12:32: error: clause 'implements' of an OmpSs target is not supported by GPUSs: one task function has one body per device; write the task once, with target device(cuda) for a CUDA body
