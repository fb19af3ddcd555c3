/* mm_kernels.c -- plain C kernels for smpss-matmul-header.c. */
#include "mm_tasks.h"

void block_addmul(float *A, float *B, float *C)
{
	int i, j, k;
	for (i = 0; i < BS; i++)
		for (k = 0; k < BS; k++) {
			float a = A[i*BS + k];
			for (j = 0; j < BS; j++)
				C[i*BS + j] += a * B[k*BS + j];
		}
}

void block_zero(float *C)
{
	int i;
	for (i = 0; i < BS*BS; i++)
		C[i] = 0.0f;
}

void block_fill(int seed, float *A)
{
	int i;
	unsigned s = (unsigned)seed * 2654435761u + 12345u;
	for (i = 0; i < BS*BS; i++) {
		s = s * 1103515245u + 12345u;
		A[i] = (float)((s >> 16) % 17) / 8.0f - 1.0f;
	}
}

void block_sum(float *A, double *sum)
{
	int i;
	double s = 0.0;
	for (i = 0; i < BS*BS; i++)
		s += A[i] * (double)((i % 7) + 1);
	*sum = s;
}
