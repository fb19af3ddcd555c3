// PLASMA-on-SMPSs style tile kernels: the tile size is a parameter (`int NB`)
// named in its own clause and used in the others, clauses of one kind are
// repeated (`input(NB) input(A[NB][NB], X[NB][NB])`), long pragmas continue
// over several lines with `\` and carry comments, and a trailing `//`
// comment follows a pragma; tiles are passed through accessor macros
// (`L_(k, k)`). Tiled forward substitution L X = B.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: x[0][0]
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define MT 4   /* tile rows of L and B */
#define NT 3   /* tile columns of B */

/* PLASMA-like tile accessors */
#define L_(m, n) L[m][n]
#define B_(m, n) B[m][n]

////////////////////////////////////////////////////////////////////////////

#pragma css task input(NB, seed) output(A[NB][NB])   // generator
void tile_gen(double *A, int NB, int seed, int diag)
{
	int i, j;
	unsigned s = 40503u * (unsigned)seed + 1u;
	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++) {
			s = s * 69069u + 1u;
			A[i * NB + j] = ((int)(s >> 20) % 9 - 4) / 8.0;
			if (diag && j > i)
				A[i * NB + j] = 0.0;
			if (diag && i == j)
				A[i * NB + j] = NB + 1.0;
		}
}

////////////////////////////////////////////////////////////////////////////

#pragma css task highpriority \
	input(NB) \
	input(L[NB][NB]) /* lower triangular diagonal tile */ \
	inout(B[NB][NB]) /* right-hand side, overwritten by X */
void tile_trsm(double *L, double *B, int NB)
{
	int i, j, k;
	for (j = 0; j < NB; j++)
		for (i = 0; i < NB; i++) {
			double s = B[i * NB + j];
			for (k = 0; k < i; k++)
				s -= L[i * NB + k] * B[k * NB + j];
			B[i * NB + j] = s / L[i * NB + i];
		}
}

////////////////////////////////////////////////////////////////////////////

#pragma css task input(NB) input(A[NB][NB], X[NB][NB]) \
                 inout(B[NB][NB])
void tile_gemm(double *A, double *X, double *B, int NB)
{
	int i, j, k;
	for (i = 0; i < NB; i++)
		for (k = 0; k < NB; k++) {
			double a = A[i * NB + k];
			for (j = 0; j < NB; j++)
				B[i * NB + j] -= a * X[k * NB + j];
		}
}

////////////////////////////////////////////////////////////////////////////

int main(int argc, char **argv)
{
	int NB = argc > 1 ? atoi(argv[1]) : 8;
	double *L[MT][MT], *B[MT][NT];
	int i, j, k, m;
	double checksum = 0.0;

	for (i = 0; i < MT; i++) {
		for (j = 0; j < MT; j++)
			L[i][j] = malloc(NB * NB * sizeof(double));
		for (j = 0; j < NT; j++)
			B[i][j] = malloc(NB * NB * sizeof(double));
	}
	for (i = 0; i < MT; i++) {
		for (j = 0; j <= i; j++)
			tile_gen(L[i][j], NB, i * MT + j, i == j);
		for (j = 0; j < NT; j++)
			tile_gen(B[i][j], NB, 100 + i * NT + j, 0);
	}

	/* X = L^-1 B, one tile row of X at a time */
	for (k = 0; k < MT; k++) {
		for (j = 0; j < NT; j++)
			tile_trsm(L_(k, k), B_(k, j), NB);
		for (i = k + 1; i < MT; i++)
			for (j = 0; j < NT; j++)
				tile_gemm(L_(i, k), B_(k, j), B_(i, j), NB);
	}
#pragma css barrier

	printf("x[0][0] %.8f x[last] %.8f\n", B[0][0][0], B[MT - 1][NT - 1][NB * NB - 1]);
	for (i = 0; i < MT; i++)
		for (j = 0; j < NT; j++)
			for (m = 0; m < NB * NB; m++)
				checksum += B[i][j][m] * (1 + (i + j + m) % 4);
	printf("checksum %.8f\n", checksum);
	for (i = 0; i < MT; i++) {
		for (j = 0; j < MT; j++)
			free(L[i][j]);
		for (j = 0; j < NT; j++)
			free(B[i][j]);
	}
	return 0;
}
