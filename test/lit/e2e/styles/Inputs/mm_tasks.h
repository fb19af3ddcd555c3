/*
 * mm_tasks.h -- task annotations for the blocked matrix multiply.
 * The kernels live in mm_kernels.c; this header is all the caller sees.
 */
#ifndef MM_TASKS_H
#define MM_TASKS_H

#define BS 16   /* block size */
#define NB 4    /* blocks per dimension */

#pragma css task input(A[BS][BS], B[BS][BS]) inout(C[BS][BS])
void block_addmul(float *A, float *B, float *C);

#pragma css task output(C[BS][BS])
void block_zero(float *C);

#pragma css task input(seed) output(A[BS][BS])
void block_fill(int seed, float *A);

#pragma css task input(A[BS][BS]) output(sum)
void block_sum(float *A, double *sum);

#endif
