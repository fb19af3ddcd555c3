/* File-scope global arrays as task data, the way small SMPSs/CellSs codes
 * keep their matrices: `double A[N][N]` globals passed to parameters
 * declared `double a[N][N]` with row/column block sections, a whole-array
 * parameter `inout(m)`, rows `A[i]` passed as `input(r[N])`, single
 * elements `&C[i][j]`, a global array of structs `&S[bi][bj]` with
 * `output(*st)`, a `static` global vector; the master waits on whole
 * globals (`wait on(C, A)`, `wait on(S)`) and on a section of one
 * (`wait on(norms[0;N])`) and rewrites them between phases. %a output. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: phase 0
// CHECK: phase 2
// CHECK: stats 2 2

#include <stdio.h>

#define N 24
#define B 8
#define NB (N / B)

typedef struct {
	double sum;
	double max;
	int argmax;
} tile_stats;

double A[N][N];
double Bm[N][N];
double C[N][N];
double norms[N];
tile_stats S[NB][NB];
static double diag[N];

#pragma css task input(i0, j0, a[i0;B][0;N], b[0;N][j0;B]) inout(c[i0;B][j0;B])
void gemm_blk(double a[N][N], double b[N][N], double c[N][N], int i0, int j0)
{
	int i, j, k;

	for (i = i0; i < i0 + B; i++)
		for (k = 0; k < N; k++)
			for (j = j0; j < j0 + B; j++)
				c[i][j] += a[i][k] * b[k][j];
}

#pragma css task inout(m)
void transpose_inplace(double m[N][N])
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = i + 1; j < N; j++) {
			double t = m[i][j];
			m[i][j] = m[j][i];
			m[j][i] = t;
		}
}

#pragma css task input(r[N]) output(*nrm)
void row_norm1(const double *r, double *nrm)
{
	int j;
	double s = 0.0;

	for (j = 0; j < N; j++)
		s += r[j] < 0 ? -r[j] : r[j];
	*nrm = s;
}

#pragma css task input(f) inout(*x)
void scale_elem(double *x, double f)
{
	*x = *x * f + 0.125;
}

#pragma css task input(i0, j0, c[i0;B][j0;B]) output(*st)
void tile_summary(double c[N][N], int i0, int j0, tile_stats *st)
{
	int i, j;

	st->sum = 0.0;
	st->max = c[i0][j0];
	st->argmax = 0;
	for (i = i0; i < i0 + B; i++)
		for (j = j0; j < j0 + B; j++) {
			st->sum += c[i][j];
			if (c[i][j] > st->max) {
				st->max = c[i][j];
				st->argmax = (i - i0) * B + (j - j0);
			}
		}
}

#pragma css task input(n, src[n * N]) output(dst[n])
void take_diag(int n, const double *src, double *dst)
{
	int i;

	for (i = 0; i < n; i++)
		dst[i] = src[i * (N + 1)];
}

int main(void)
{
	int i, j, phase;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			A[i][j] = (double)((i * 5 + j * 3) % 13) / 8.0 - 0.75;
			Bm[i][j] = (double)((i * 11 + j * 7) % 17) / 16.0 - 0.5;
			C[i][j] = 0.0;
		}

	for (phase = 0; phase < 3; phase++) {
		int bi, bj;

		for (bi = 0; bi < NB; bi++)
			for (bj = 0; bj < NB; bj++)
				gemm_blk(A, Bm, C, bi * B, bj * B);
		transpose_inplace(C);
		for (i = 0; i < N; i++)
			row_norm1(C[i], &norms[i]);
		for (i = 0; i < N; i++)
			scale_elem(&C[i][(i * 5) % N], 0.5 + (double)phase);
		take_diag(N, &C[0][0], diag);

#pragma css wait on(norms[0;N])
		{
			double t = 0.0;
			for (i = 0; i < N; i++)
				t += norms[i];
			printf("phase %d norms %a\n", phase, t);
		}
		/* the master changes A and C in place: name both (device
		 * copies of A would otherwise stay current) */
#pragma css wait on(C, A)
		for (i = 0; i < N; i++)
			A[i][(i + phase) % N] += C[i][i] / 64.0;
		for (i = 0; i < N; i++)
			C[i][N - 1 - i] -= 1.0 / 32.0;
	}

	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++)
			tile_summary(C, i * B, j * B, &S[i][j]);
#pragma css wait on(S)
	for (i = 0; i < NB; i++)
		for (j = 0; j < NB; j++)
			printf("stats %d %d %a %a %d\n", i, j, S[i][j].sum, S[i][j].max, S[i][j].argmax);
#pragma css barrier
	{
		double t = 0.0;
		for (i = 0; i < N; i++)
			t += diag[i] * (double)(i + 1);
		printf("diag %a\n", t);
	}
	return 0;
}
