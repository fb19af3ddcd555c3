// SMPSs 2.x blocked Gauss-Seidel with region clauses on a whole-grid
// parameter: each task gets the full array `double A[N][N]` and names the
// block it updates, `A{i..i+B-1}{j..j+B-1}`, and its four halos, two of them
// column strips (`A{i..i+B-1}{j-1}`). The grid is initialised through
// `A{}{}` regions and the block sums use the `{lo:len}` form.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: sweep 0
// CHECK: checksum

#include <stdio.h>

#define NBLK 4
#define B 6
#define N (NBLK * B + 2)   /* one ring of boundary cells around the blocks */
#define SWEEPS 5

static double grid[N][N];
static double blocksum[NBLK][NBLK];

#pragma css task output(A{}{})
void init(double A[N][N])
{
	int i, j;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			A[i][j] = (i == 0) ? 100.0 : (j == N - 1) ? 50.0 : (i * 3 + j) % 7;
}

#pragma css task input(i, j) \
		 input(A{i-1}{j..j+B-1}, A{i+B}{j..j+B-1}) \
		 input(A{i..i+B-1}{j-1}, A{i..i+B-1}{j+B}) \
		 inout(A{i..i+B-1}{j..j+B-1})
void gs_block(int i, int j, double A[N][N])
{
	int ii, jj;
	for (ii = i; ii < i + B; ii++)
		for (jj = j; jj < j + B; jj++)
			A[ii][jj] = 0.25 * (A[ii - 1][jj] + A[ii + 1][jj] +
					    A[ii][jj - 1] + A[ii][jj + 1]);
}

#pragma css task input(i, j, A{i:B}{j:B}) output(s)
void sum_block(int i, int j, double A[N][N], double *s)
{
	int ii, jj;
	double t = 0.0;
	for (ii = i; ii < i + B; ii++)
		for (jj = j; jj < j + B; jj++)
			t += A[ii][jj];
	*s = t;
}

int main(void)
{
	int it, bi, bj, i, j;
	double checksum = 0.0;

#pragma css start
	init(grid);
	for (it = 0; it < SWEEPS; it++) {
		for (bi = 0; bi < NBLK; bi++)
			for (bj = 0; bj < NBLK; bj++)
				gs_block(1 + bi * B, 1 + bj * B, grid);
		if (it == 0) {
#pragma css barrier
			printf("sweep 0: corner %.6f centre %.6f\n", grid[1][1], grid[N / 2][N / 2]);
		}
	}
	for (bi = 0; bi < NBLK; bi++)
		for (bj = 0; bj < NBLK; bj++)
			sum_block(1 + bi * B, 1 + bj * B, grid, &blocksum[bi][bj]);
#pragma css finish

	for (bi = 0; bi < NBLK; bi++) {
		for (bj = 0; bj < NBLK; bj++)
			printf(" %9.4f", blocksum[bi][bj]);
		printf("\n");
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			checksum += grid[i][j] * (1 + (i + 2 * j) % 5);
	printf("checksum %.6f\n", checksum);
	return 0;
}
