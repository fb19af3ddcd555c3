/* Blocked Cholesky building blocks on the host (plain C loops), annotated as
 * in the paper; TS x TS blocks stored row-major. */
#ifndef CHOL_HOST_H
#define CHOL_HOST_H
#define TS 4
#define NB 3

#pragma css task inout(A[TS][TS])
void chol_spotrf(float *A);

#pragma css target device(smp) copy_in(T[TS][TS], B[TS][TS])\
copy_out(B[TS][TS])
#pragma css task input(T[TS][TS]) inout(B[TS][TS])
void chol_strsm(float *T, float *B);

#pragma css target device(smp) copy_in(A[TS][TS], C[TS][TS])\
copy_out(C[TS][TS])
#pragma css task input(A[TS][TS]) inout(C[TS][TS])
void chol_ssyrk(float *A, float *C);

#pragma css target device(smp) copy_in(A[TS][TS], B[TS][TS],\
C[TS][TS])\
copy_out(C[TS][TS])
#pragma css task input(A[TS][TS], B[TS][TS]) inout(C[TS][TS])
void chol_sgemm(float *A, float *B, float *C);
#endif
