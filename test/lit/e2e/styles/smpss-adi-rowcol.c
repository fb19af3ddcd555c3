// SMPSs/OmpSs alternating-direction implicit (ADI) diffusion: the same
// N x N grid is cut differently in each phase of a step. The x sweep solves
// tridiagonal systems along rows on row bands of a `double (*a)[N]`
// (`inout(a[r0;RB][0;N])`, with `priority(r0 < N / 2)`); the y sweep solves
// along columns on full-height column strips of the same memory seen through
// a plain `double *` with an OmpSs shape (`inout([N][N]u[0;N][c0;CB])`, a
// strided region); a diagnostic phase reads square tiles (`in(a[i0;TB][j0;TB])
// out(*m)`). Every column strip overlaps every row band and tile. After each
// step a `#pragma css barrier` separates the task graphs, and the master
// reads the tile maxima and adds a heat source into the grid itself before
// the next step's tasks.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: step 0 max
// CHECK: step 3 max
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define N 64
#define RB 8 /* rows per band */
#define CB 8 /* columns per strip */
#define TB 16 /* tile edge of the diagnostic phase */
#define NT (N / TB)
#define LAMBDA 0.4
#define STEPS 4

/* solve (1 + 2L) v[i] - L v[i-1] - L v[i+1] = d[i], v[-1] = v[n] = 0,
 * for n values `stride` apart, in place (Thomas algorithm) */
static void thomas(double *v, int n, long stride)
{
	double cp[N], dp[N];
	const double b = 1.0 + 2.0 * LAMBDA, c = -LAMBDA;
	int i;

	cp[0] = c / b;
	dp[0] = v[0] / b;
	for (i = 1; i < n; i++) {
		double m = b - c * cp[i - 1];
		cp[i] = c / m;
		dp[i] = (v[i * stride] - c * dp[i - 1]) / m;
	}
	v[(n - 1) * stride] = dp[n - 1];
	for (i = n - 2; i >= 0; i--)
		v[i * stride] = dp[i] - cp[i] * v[(i + 1) * stride];
}

#pragma css task inout(a[r0;RB][0;N]) input(r0) priority(r0 < N / 2)
void sweep_x(double (*a)[N], int r0)
{
	int r;

	for (r = r0; r < r0 + RB; r++)
		thomas(a[r], N, 1);
}

#pragma css task inout([N][N]u[0;N][c0;CB]) input(c0)
void sweep_y(double *u, int c0)
{
	int c;

	for (c = c0; c < c0 + CB; c++)
		thomas(&u[c], N, N);
}

#pragma css task in(a[i0;TB][j0;TB]) out(*m) input(i0, j0)
void tile_max(double (*a)[N], int i0, int j0, double *m)
{
	double best = a[i0][j0];
	int i, j;

	for (i = i0; i < i0 + TB; i++)
		for (j = j0; j < j0 + TB; j++)
			if (a[i][j] > best)
				best = a[i][j];
	*m = best;
}

int main(void)
{
	double(*a)[N] = (double(*)[N])malloc(sizeof(double[N][N]));
	double tmax[NT][NT];
	double checksum = 0.0;
	int step, i, j;

	if (!a) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			a[i][j] = ((i * 7 + j * 13) % 17 == 0) ? 1.0 : 0.0;

	for (step = 0; step < STEPS; step++) {
		double mx = 0.0;
		int at_i = 0, at_j = 0;

		for (i = 0; i < N; i += RB)
			sweep_x(a, i);
		for (j = 0; j < N; j += CB)
			sweep_y(&a[0][0], j);
		for (i = 0; i < NT; i++)
			for (j = 0; j < NT; j++)
				tile_max(a, i * TB, j * TB, &tmax[i][j]);
#pragma css barrier
		for (i = 0; i < NT; i++)
			for (j = 0; j < NT; j++)
				if (tmax[i][j] > mx) {
					mx = tmax[i][j];
					at_i = i;
					at_j = j;
				}
		printf("step %d max %.6f in tile %d,%d\n", step, mx, at_i, at_j);

		/* the master adds a source between the task graphs */
		for (i = N / 3; i < N / 3 + 5; i++)
			for (j = (step * 29) % N; j < (step * 29) % N + 9 && j < N; j++)
				a[i][j] += 2.0;
	}

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			checksum += a[i][j] * ((i + 2 * j) % 11 + 1);
	printf("corner %.6f centre %.6f\n", a[1][1], a[N / 2][N / 2]);
	printf("checksum %.6f\n", checksum);
	free(a);
	return 0;
}
