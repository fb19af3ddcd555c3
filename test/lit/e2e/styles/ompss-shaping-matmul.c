// OmpSs array shaping expressions inside css pragmas: a pointer parameter
// given its shape in the clause, `input([bs][bs]A, [bs][bs]B)`,
// `inout([bs][bs]C)`, `input([bs]x)`, with `bs` a parameter. Tiled
// matrix-matrix and matrix-vector products over arrays of tile pointers.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: y[0]
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define NT 3

#pragma css task input(bs, [bs][bs]A, [bs][bs]B) inout([bs][bs]C)
void gemm_tile(int bs, const double *A, const double *B, double *C)
{
	for (int i = 0; i < bs; i++)
		for (int k = 0; k < bs; k++)
			for (int j = 0; j < bs; j++)
				C[i * bs + j] += A[i * bs + k] * B[k * bs + j];
}

#pragma css task input(bs, [bs][bs]A, [bs]x) inout([bs]y)
void gemv_tile(int bs, const double *A, const double *x, double *y)
{
	for (int i = 0; i < bs; i++) {
		double s = 0;
		for (int k = 0; k < bs; k++)
			s += A[i * bs + k] * x[k];
		y[i] += s;
	}
}

#pragma css task input(bs, seed) output([bs][bs]T)
void fill_tile(int bs, double *T, int seed)
{
	for (int i = 0; i < bs * bs; i++)
		T[i] = (double)((i * 13 + seed * 7) % 19 - 9) / 4.0;
}

int main(int argc, char *argv[])
{
	int bs = argc > 1 ? atoi(argv[1]) : 12;
	double *A[NT][NT], *B[NT][NT], *C[NT][NT];
	double *x[NT], *y[NT];
	double checksum = 0;

	for (int i = 0; i < NT; i++) {
		for (int j = 0; j < NT; j++) {
			A[i][j] = malloc(bs * bs * sizeof(double));
			B[i][j] = malloc(bs * bs * sizeof(double));
			C[i][j] = calloc(bs * bs, sizeof(double));
			fill_tile(bs, A[i][j], i * NT + j);
			fill_tile(bs, B[i][j], 50 + j * NT + i);
		}
		x[i] = malloc(bs * sizeof(double));
		y[i] = calloc(bs, sizeof(double));
		for (int k = 0; k < bs; k++)
			x[i][k] = (double)(i * bs + k) / 16.0;
	}

	for (int i = 0; i < NT; i++)
		for (int j = 0; j < NT; j++)
			for (int k = 0; k < NT; k++)
				gemm_tile(bs, A[i][k], B[k][j], C[i][j]);
	/* y = C x */
	for (int i = 0; i < NT; i++)
		for (int k = 0; k < NT; k++)
			gemv_tile(bs, C[i][k], x[k], y[i]);
#pragma css barrier

	printf("y[0] %.4f y[last] %.4f\n", y[0][0], y[NT - 1][bs - 1]);
	for (int i = 0; i < NT; i++)
		for (int k = 0; k < bs; k++)
			checksum += y[i][k] * (k % 5 + 1);
	for (int i = 0; i < NT; i++)
		for (int j = 0; j < NT; j++)
			for (int k = 0; k < bs * bs; k++)
				checksum += C[i][j][k] * ((i + j + k) % 3);
	printf("checksum %.4f\n", checksum);
	for (int i = 0; i < NT; i++) {
		for (int j = 0; j < NT; j++) {
			free(A[i][j]);
			free(B[i][j]);
			free(C[i][j]);
		}
		free(x[i]);
		free(y[i]);
	}
	return 0;
}
