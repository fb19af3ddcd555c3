// SMPSs 1.x blocked matrix multiply: the task annotations sit on prototypes in
// a header, the kernels are compiled from another file, the matrices are
// hypermatrices (arrays of block pointers), and the program brackets its
// parallel part with #pragma css start / #pragma css finish.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas -I %S/Inputs %s %S/Inputs/mm_kernels.c -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc -I %S/Inputs %s %S/Inputs/mm_kernels.c -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: trace
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>
#include "mm_tasks.h"

float *A[NB][NB];
float *B[NB][NB];
float *C[NB][NB];
double partial[NB][NB];

static float *alloc_block(void)
{
	float *p = (float *)malloc(BS * BS * sizeof(float));
	if (p == NULL) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

static void matmul(float *a[NB][NB], float *b[NB][NB], float *c[NB][NB])
{
	int i, j, k;

	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++)
			for (k = 0; k < NB; k++)
				block_addmul(a[i][k], b[k][j], c[i][j]);
}

int main(int argc, char **argv)
{
	int i, j, ii;
	double trace = 0.0, checksum = 0.0;

	(void)argc;
	(void)argv;

	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++) {
			A[i][j] = alloc_block();
			B[i][j] = alloc_block();
			C[i][j] = alloc_block();
		}

#pragma css start
	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++) {
			block_fill(i * NB + j, A[i][j]);
			block_fill(1000 + j * NB + i, B[i][j]);
			block_zero(C[i][j]);
		}

	/* C += A*B twice: every C block is updated 2*NB times in order. */
	matmul(A, B, C);
	matmul(A, B, C);

	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++)
			block_sum(C[i][j], &partial[i][j]);
#pragma css finish

	for (i = 0; i < NB; i++)
		for (ii = 0; ii < BS; ii++)
			trace += C[i][i][ii * BS + ii];
	printf("trace %.4f\n", trace);
	for (i = 0; i < NB; i++) {
		for (j = 0; j < NB; j++) {
			printf(" %10.4f", partial[i][j]);
			checksum += partial[i][j] * (i + 2 * j + 1);
		}
		printf("\n");
	}
	printf("checksum %.4f\n", checksum);

	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++) {
			free(A[i][j]);
			free(B[i][j]);
			free(C[i][j]);
		}
	return 0;
}
