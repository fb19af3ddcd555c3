// C99 variable-length array parameters, as SMPSs users declare them:
// `void f(int n, double a[n][n])` with the whole array named in the clause
// (`inout(a)`, `input(src) output(dst)`), the size a scalar input. A blocked
// Jacobi relaxation on a grid whose size comes from the command line, with
// one task per band of rows and the bands passed as VLA row blocks.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq 24 > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par 24
// RUN: CSS_STATS=1 timeout 60 %t/par 24 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: n = 24
// CHECK: residual
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#pragma css task input(n) output(a)
void init_grid(int n, double a[n][n])
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			a[i][j] = (i == 0 || j == 0 || i == n - 1 || j == n - 1)
				? (double)(i + 2 * j) : 0.0;
}

/* One band: rows r0 .. r0+nr-1 of dst from rows r0-1 .. r0+nr of src. */
#pragma css task input(n, nr, r0, src) output(dst)
void relax_band(int n, int nr, int r0, double src[n][n], double dst[nr][n])
{
	for (int i = 0; i < nr; i++) {
		int gi = r0 + i;
		for (int j = 0; j < n; j++) {
			if (gi == 0 || gi == n - 1 || j == 0 || j == n - 1)
				dst[i][j] = src[gi][j];
			else
				dst[i][j] = 0.25 * (src[gi - 1][j] + src[gi + 1][j] +
						    src[gi][j - 1] + src[gi][j + 1]);
		}
	}
}

#pragma css task input(n, a, b) output(res)
void residual(int n, double a[n][n], double b[n][n], double *res)
{
	double s = 0.0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			s += (a[i][j] - b[i][j]) * (a[i][j] - b[i][j]);
	*res = s;
}

#pragma css task input(n) inout(a)
void damp(int n, double a[n][n])
{
	for (int i = 1; i < n - 1; i++)
		for (int j = 1; j < n - 1; j++)
			a[i][j] *= 0.999;
}

int main(int argc, char *argv[])
{
	int n = argc > 1 ? atoi(argv[1]) : 16;
	int bands = 4, it;
	double res[8];

	if (n < 8 || n % bands != 0) {
		fprintf(stderr, "bad size %d\n", n);
		return 1;
	}
	int nr = n / bands;
	double (*u)[n] = malloc(sizeof(double[n][n]));
	double (*v)[n] = malloc(sizeof(double[n][n]));

	printf("n = %d\n", n);
	init_grid(n, u);
	init_grid(n, v);
	for (it = 0; it < 8; it++) {
		double (*src)[n] = (it % 2 == 0) ? u : v;
		double (*dst)[n] = (it % 2 == 0) ? v : u;
		for (int b = 0; b < bands; b++)
			relax_band(n, nr, b * nr, src, &dst[b * nr]);
		if (it % 3 == 2)
			damp(n, dst);
		residual(n, src, dst, &res[it]);
	}
#pragma css barrier

	for (it = 0; it < 8; it++)
		printf("residual %d %.6f\n", it, res[it]);
	double checksum = 0.0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			checksum += u[i][j] * ((i * 7 + j) % 13 + 1);
	printf("checksum %.6f\n", checksum);
	free(u);
	free(v);
	return 0;
}
