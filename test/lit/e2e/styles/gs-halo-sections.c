// Blocked Gauss-Seidel heat diffusion where each task names five regions of
// one `double (*a)[N]` parameter with array sections: the inout centre block
// and four 1-wide halo strips read from the neighbours, two of them strided
// column strips (`a[i0;BS][j0-1;1]`). The wavefront order of the sequential
// sweep must be kept; a Jacobi pass with two grids follows.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: after gauss-seidel
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define BS 8
#define NBL 4
#define N (BS * NBL + 2)

#pragma css task input(i0, j0) inout(a[i0;BS][j0;BS]) \
	input(a[i0-1;1][j0;BS], a[i0+BS;1][j0;BS]) \
	input(a[i0;BS][j0-1;1], a[i0;BS][j0+BS;1])
void gs_relax(double (*a)[N], int i0, int j0)
{
	for (int i = i0; i < i0 + BS; i++)
		for (int j = j0; j < j0 + BS; j++)
			a[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}

#pragma css task input(i0, j0) output(b[i0;BS][j0;BS]) \
	input(a[i0-1;BS+2][j0-1;BS+2])
void jacobi_relax(double (*a)[N], double (*b)[N], int i0, int j0)
{
	for (int i = i0; i < i0 + BS; i++)
		for (int j = j0; j < j0 + BS; j++)
			b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}

#pragma css task input(i0, j0, a[i0;BS][j0;BS]) output(s)
void block_norm(double (*a)[N], int i0, int j0, double *s)
{
	double t = 0;
	for (int i = i0; i < i0 + BS; i++)
		for (int j = j0; j < j0 + BS; j++)
			t += a[i][j] * a[i][j];
	*s = t;
}

static void boundary(double (*a)[N])
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			a[i][j] = (i == 0 || i == N - 1) ? 1.0 : (j == 0) ? 0.5 : (j == N - 1) ? 2.0 : 0.0;
}

int main(void)
{
	double (*u)[N] = malloc(sizeof(double[N][N]));
	double (*v)[N] = malloc(sizeof(double[N][N]));
	double norms[NBL][NBL];
	double checksum = 0;

	boundary(u);
	boundary(v);
	for (int it = 0; it < 6; it++)
		for (int bi = 0; bi < NBL; bi++)
			for (int bj = 0; bj < NBL; bj++)
				gs_relax(u, 1 + bi * BS, 1 + bj * BS);
#pragma css barrier
	printf("after gauss-seidel: %.9f %.9f %.9f\n", u[1][1], u[N / 2][N / 2], u[N - 2][N - 2]);

	for (int it = 0; it < 4; it++) {
		double (*src)[N] = it % 2 ? v : u, (*dst)[N] = it % 2 ? u : v;
		for (int bi = 0; bi < NBL; bi++)
			for (int bj = 0; bj < NBL; bj++)
				jacobi_relax(src, dst, 1 + bi * BS, 1 + bj * BS);
	}
	for (int bi = 0; bi < NBL; bi++)
		for (int bj = 0; bj < NBL; bj++)
			block_norm(u, 1 + bi * BS, 1 + bj * BS, &norms[bi][bj]);
#pragma css barrier
	for (int bi = 0; bi < NBL; bi++) {
		for (int bj = 0; bj < NBL; bj++)
			printf(" %.8f", norms[bi][bj]);
		printf("\n");
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			checksum += u[i][j] * (1 + (i * 5 + j) % 9);
	printf("checksum %.9f\n", checksum);
	free(u);
	free(v);
	return 0;
}
