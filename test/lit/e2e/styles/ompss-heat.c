// OmpSs heat-diffusion tutorial style with css pragmas: row bands of a
// `double (*)[NY]` grid named with inclusive ranges on rows and lengths on
// columns (`u[r0-1:r0+nr][0;NY]`), `in`/`out`/`inout` clause names, a
// per-band residual written to `res[b;1]`, and a fixed number of Jacobi
// iterations followed by a red-black Gauss-Seidel smoothing of each band.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: iter 9
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define NX 34
#define NY 20
#define BANDS 4
#define ROWS ((NX - 2) / BANDS)

#pragma css task in(r0, nr, u[r0-1:r0+nr][0;NY]) out(v[r0;nr][0;NY], res[b;1])
void jacobi_band(double (*u)[NY], double (*v)[NY], double *res, int r0, int nr, int b)
{
	double s = 0.0;
	for (int i = r0; i < r0 + nr; i++) {
		v[i][0] = u[i][0];
		v[i][NY - 1] = u[i][NY - 1];
		for (int j = 1; j < NY - 1; j++) {
			v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
			s += (v[i][j] - u[i][j]) * (v[i][j] - u[i][j]);
		}
	}
	res[b] = s;
}

#pragma css task in(r0, nr, color) inout(u[r0;nr][0;NY]) \
	in(u[r0-1;1][0;NY], u[r0+nr;1][0;NY])
void redblack_band(double (*u)[NY], int r0, int nr, int color)
{
	for (int i = r0; i < r0 + nr; i++)
		for (int j = 1 + (i + color) % 2; j < NY - 1; j += 2)
			u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
}

int main(void)
{
	double (*u)[NY] = calloc(NX, sizeof *u);
	double (*v)[NY] = calloc(NX, sizeof *v);
	double res[BANDS];
	double checksum = 0.0;

	for (int j = 0; j < NY; j++) {
		u[0][j] = v[0][j] = 1.0 + j / 10.0;     /* hot top edge */
		u[NX - 1][j] = v[NX - 1][j] = 0.0;
	}
	for (int i = 0; i < NX; i++) {
		u[i][0] = v[i][0] = 0.5;
		u[i][NY - 1] = v[i][NY - 1] = 0.25;
	}

	for (int it = 0; it < 10; it++) {
		double (*src)[NY] = (it % 2) ? v : u;
		double (*dst)[NY] = (it % 2) ? u : v;
		for (int b = 0; b < BANDS; b++)
			jacobi_band(src, dst, res, 1 + b * ROWS, ROWS, b);
#pragma css barrier
		double total = 0.0;
		for (int b = 0; b < BANDS; b++)
			total += res[b];
		printf("iter %d residual %.10f\n", it, total);
	}
	for (int color = 0; color < 2; color++)
		for (int b = 0; b < BANDS; b++)
			redblack_band(u, 1 + b * ROWS, ROWS, color);
#pragma css barrier

	for (int i = 0; i < NX; i++)
		for (int j = 0; j < NY; j++)
			checksum += u[i][j] * ((i * 3 + j) % 7 + 1);
	printf("checksum %.10f\n", checksum);
	free(u);
	free(v);
	return 0;
}
