/* A tiled matrix held as SMPSs codes that allocate tile by tile hold it: a
 * `double **A` of nb*nb tile pointers indexed `A[i*nb + j]`, nb chosen at
 * run time, each tile a malloc'd BS*BS block. The tasks get tile pointers
 * and name them with OmpSs shapes (`inout([BS][BS]c)`) or StarSs sizes
 * (`input(a[BS*BS])`); the program waits on several tiles and a vector at
 * once, `#pragma css wait on(C[0], C[nb*nb-1], x[0;n])` (the tiles through
 * the `double **`), calls `#pragma css barrier` inside its rounds loop and
 * `#pragma css wait on` inside another loop, and prints with %a.
 * C = A * B by tiles, then rounds of C := C + diag-shift, then y = C x. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq 4 > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par 4
// RUN: CSS_STATS=1 timeout 60 %t/par 4 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: round 0
// CHECK: round 2
// CHECK: y 0
// CHECK: y 3

#include <stdio.h>
#include <stdlib.h>

#define BS 24

#pragma css task input([BS][BS]a, [BS][BS]b) inout([BS][BS]c)
void tile_gemm(const double *a, const double *b, double *c)
{
	int i, j, k;
	for (i = 0; i < BS; i++)
		for (k = 0; k < BS; k++)
			for (j = 0; j < BS; j++)
				c[i * BS + j] += a[i * BS + k] * b[k * BS + j];
}

#pragma css task output(t[BS*BS]) input(seed)
void tile_init(double *t, int seed)
{
	int i;
	for (i = 0; i < BS * BS; i++)
		t[i] = ((i * 31 + seed * 17) % 23) / 8.0 - 1.0;
}

#pragma css task inout(t[BS*BS]) input(s)
void tile_shift(double *t, double s)
{
	int i;
	for (i = 0; i < BS; i++)
		t[i * BS + i] += s;
}

#pragma css task input(c[BS * BS], x[BS]) inout(y[BS])
void tile_gemv(const double *c, const double *x, double *y)
{
	int i, j;
	for (i = 0; i < BS; i++) {
		double s = y[i];
		for (j = 0; j < BS; j++)
			s += c[i * BS + j] * x[j];
		y[i] = s;
	}
}

static double **alloc_tiles(int nb)
{
	double **T = malloc(nb * nb * sizeof(double *));
	int t;
	for (t = 0; t < nb * nb; t++)
		T[t] = malloc(BS * BS * sizeof(double));
	return T;
}

int main(int argc, char **argv)
{
	int nb = argc > 1 ? atoi(argv[1]) : 4;
	int n = nb * BS;
	double **A = alloc_tiles(nb), **B = alloc_tiles(nb), **C = alloc_tiles(nb);
	double *x = malloc(n * sizeof(double)), *y = calloc(n, sizeof(double));
	int i, j, k, r;

	for (i = 0; i < nb; i++)
		for (j = 0; j < nb; j++) {
			tile_init(A[i * nb + j], i * nb + j);
			tile_init(B[i * nb + j], j * nb + i + 5);
			tile_init(C[i * nb + j], 0);
		}
	for (i = 0; i < n; i++)
		x[i] = (i % 7) * 0.25;
	for (i = 0; i < nb; i++)
		for (j = 0; j < nb; j++)
			for (k = 0; k < nb; k++)
				tile_gemm(A[i * nb + k], B[k * nb + j], C[i * nb + j]);
#pragma css wait on(C[0], C[nb*nb-1], x[0;n])
	printf("c00 %a clast %a\n", C[0][0], C[nb * nb - 1][BS * BS - 1]);
	x[0] = C[0][1] / 64;
	for (r = 0; r < 3; r++) {
		for (i = 0; i < nb; i++)
			tile_shift(C[i * nb + i], 0.5 * (r + 1));
		for (i = 0; i < nb; i++)
			for (j = 0; j < nb; j++)
				tile_gemv(C[i * nb + j], &x[j * BS], &y[i * BS]);
#pragma css barrier
		printf("round %d y %a %a\n", r, y[0], y[n - 1]);
		y[r] = 0;
	}
	for (i = 0; i < nb; i++) {
#pragma css wait on(y[i * BS;BS])
		printf("y %d %a\n", i, y[i * BS + BS / 2]);
	}
	for (i = 0; i < nb * nb; i++) {
		free(A[i]);
		free(B[i]);
		free(C[i]);
	}
	free(A);
	free(B);
	free(C);
	free(x);
	free(y);
	return 0;
}
