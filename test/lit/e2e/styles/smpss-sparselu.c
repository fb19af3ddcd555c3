// SMPSs sparse LU: a blocked matrix kept as an array of tile pointers where
// empty tiles are NULL; the factorisation allocates a fill-in tile (zeroed)
// inside the algorithm, right before the first task that writes it. The
// annotated prototypes come first and the task bodies after main.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: null blocks before
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define NB 6
#define BS 8

#pragma css task inout(diag[BS][BS])
void lu0(float *diag);

#pragma css task input(diag[BS][BS]) inout(row[BS][BS])
void fwd(float *diag, float *row);

#pragma css task input(diag[BS][BS]) inout(col[BS][BS])
void bdiv(float *diag, float *col);

#pragma css task input(row[BS][BS], col[BS][BS]) inout(inner[BS][BS])
void bmod(float *row, float *col, float *inner);

float *A[NB][NB];

static float *allocate_clean_block(void)
{
	float *p = (float *)malloc(BS * BS * sizeof(float));
	int i;
	if (!p) {
		fprintf(stderr, "allocation failed\n");
		exit(2);
	}
	for (i = 0; i < BS * BS; i++)
		p[i] = 0.0f;
	return p;
}

static void genmat(void)
{
	int ii, jj, i, j;
	int init = 1325;

	for (ii = 0; ii < NB; ii++)
		for (jj = 0; jj < NB; jj++) {
			/* a sparse pattern: diagonal, first row/column, some others */
			int present = (ii == jj) || (ii == jj + 1) || (jj == ii + 2) ||
				      ((ii + 2 * jj) % 7 == 0);
			if (!present) {
				A[ii][jj] = NULL;
				continue;
			}
			A[ii][jj] = allocate_clean_block();
			for (i = 0; i < BS; i++)
				for (j = 0; j < BS; j++) {
					init = (3125 * init) % 65536;
					A[ii][jj][i * BS + j] = (float)((init % 64) - 32) / 64.0f;
					if (ii == jj && i == j)
						A[ii][jj][i * BS + j] += 2.0f * NB * BS;
				}
		}
}

static int count_null(void)
{
	int ii, jj, n = 0;
	for (ii = 0; ii < NB; ii++)
		for (jj = 0; jj < NB; jj++)
			if (A[ii][jj] == NULL)
				n++;
	return n;
}

int main(void)
{
	int ii, jj, kk, i;
	double checksum = 0.0;

	genmat();
	printf("null blocks before %d\n", count_null());

	for (kk = 0; kk < NB; kk++) {
		lu0(A[kk][kk]);
		for (jj = kk + 1; jj < NB; jj++)
			if (A[kk][jj] != NULL)
				fwd(A[kk][kk], A[kk][jj]);
		for (ii = kk + 1; ii < NB; ii++)
			if (A[ii][kk] != NULL)
				bdiv(A[kk][kk], A[ii][kk]);
		for (ii = kk + 1; ii < NB; ii++) {
			if (A[ii][kk] == NULL)
				continue;
			for (jj = kk + 1; jj < NB; jj++) {
				if (A[kk][jj] == NULL)
					continue;
				if (A[ii][jj] == NULL)
					A[ii][jj] = allocate_clean_block();
				bmod(A[ii][kk], A[kk][jj], A[ii][jj]);
			}
		}
	}
#pragma css barrier

	printf("null blocks after %d\n", count_null());
	for (ii = 0; ii < NB; ii++) {
		double rowsum = 0.0;
		for (jj = 0; jj < NB; jj++)
			if (A[ii][jj] != NULL)
				for (i = 0; i < BS * BS; i++)
					rowsum += A[ii][jj][i] * (1.0 + (i % 5));
		printf("block row %d: %.5f\n", ii, rowsum);
		checksum += rowsum * (ii + 1);
	}
	printf("checksum %.5f\n", checksum);
	for (ii = 0; ii < NB; ii++)
		for (jj = 0; jj < NB; jj++)
			free(A[ii][jj]);
	return 0;
}

/* ------------------------------------------------------------ task bodies */

void lu0(float *diag)
{
	int i, j, k;
	for (k = 0; k < BS; k++)
		for (i = k + 1; i < BS; i++) {
			diag[i * BS + k] = diag[i * BS + k] / diag[k * BS + k];
			for (j = k + 1; j < BS; j++)
				diag[i * BS + j] -= diag[i * BS + k] * diag[k * BS + j];
		}
}

void bdiv(float *diag, float *col)
{
	int i, j, k;
	for (i = 0; i < BS; i++)
		for (k = 0; k < BS; k++) {
			col[i * BS + k] = col[i * BS + k] / diag[k * BS + k];
			for (j = k + 1; j < BS; j++)
				col[i * BS + j] -= col[i * BS + k] * diag[k * BS + j];
		}
}

void bmod(float *row, float *col, float *inner)
{
	int i, j, k;
	for (i = 0; i < BS; i++)
		for (j = 0; j < BS; j++)
			for (k = 0; k < BS; k++)
				inner[i * BS + j] -= row[i * BS + k] * col[k * BS + j];
}

void fwd(float *diag, float *row)
{
	int i, j, k;
	for (j = 0; j < BS; j++)
		for (k = 0; k < BS; k++)
			for (i = k + 1; i < BS; i++)
				row[i * BS + j] -= diag[i * BS + k] * row[k * BS + j];
}
