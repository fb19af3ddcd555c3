/* An iterative solver whose trip count depends on task results: power
 * iteration on a symmetric banded matrix in row blocks (`input(A[r0;RB][0;N],
 * x[N]) output(y[r0;RB])`), partial squared norms `output(part[b;1])`, a
 * reduction task `input(part[0;NB]) output(*nrm)`, `wait on(*nrm)` every
 * iteration and a `break` when the Rayleigh quotient settles, the
 * normalisation factor then passed by value to the scaling tasks; the
 * outer loop runs a shifted problem whose shift comes from the first
 * answer, and a Jacobi solve that stops on `while (res > tol)` with
 * `wait on(res)`. Prints the iteration counts and %a results. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -lm -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -lm -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: power 0 iterations
// CHECK: power 1 iterations
// CHECK: jacobi iterations

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 96
#define RB 16
#define NB (N / RB)

#pragma css task input(r0, shift, A[r0;RB][0;N], x[N]) output(y[r0;RB], part[0;1])
void matvec_blk(double (*A)[N], const double *x, double *y, double *part, int r0, double shift)
{
	int i, j;
	double s2 = 0.0;

	for (i = r0; i < r0 + RB; i++) {
		double s = -shift * x[i];
		for (j = 0; j < N; j++)
			s += A[i][j] * x[j];
		y[i] = s;
		s2 += s * s;
	}
	*part = s2;
}

#pragma css task input(x[lo;RB], y[lo;RB], lo) output(part[0;1])
void dot_blk(const double *x, const double *y, int lo, double *part)
{
	int i;
	double s = 0.0;

	for (i = lo; i < lo + RB; i++)
		s += x[i] * y[i];
	*part = s;
}

#pragma css task input(n, part[0;n]) output(*out)
void sum_parts(int n, const double *part, double *out)
{
	int i;
	double s = 0.0;

	for (i = 0; i < n; i++)
		s += part[i];
	*out = s;
}

#pragma css task input(lo, f, y[lo;RB]) output(x[lo;RB])
void scale_blk(const double *y, double *x, int lo, double f)
{
	int i;

	for (i = lo; i < lo + RB; i++)
		x[i] = y[i] * f;
}

/* one Jacobi sweep on rows r0..r0+RB: xn = (b - (A - D) x) / D */
#pragma css task input(r0, A[r0;RB][0;N], b[r0;RB], x[N]) output(xn[r0;RB], res[0;1])
void jacobi_blk(double (*A)[N], const double *b, const double *x, double *xn, int r0, double *res)
{
	int i, j;
	double r = 0.0;

	for (i = r0; i < r0 + RB; i++) {
		double s = b[i];
		for (j = 0; j < N; j++)
			if (j != i)
				s -= A[i][j] * x[j];
		xn[i] = s / A[i][i];
		r += fabs(xn[i] - x[i]);
	}
	*res = r;
}

static double power(double (*A)[N], double *x, double *y, double shift, int *iters)
{
	double part[NB], nrm2 = 0.0, rq = 0.0, old = 0.0;
	int b, it;

	for (it = 0; it < 300; it++) {
		for (b = 0; b < NB; b++)
			matvec_blk(A, x, y, &part[b], b * RB, shift);
		sum_parts(NB, part, &nrm2);
		for (b = 0; b < NB; b++)
			dot_blk(x, y, b * RB, &part[b]);
		sum_parts(NB, part, &rq);
#pragma css wait on(nrm2, rq)
		if (it > 0 && fabs(rq - old) <= 1e-9 * fabs(rq))
			break;
		old = rq;
		for (b = 0; b < NB; b++)
			scale_blk(y, x, b * RB, 1.0 / sqrt(nrm2));
	}
	*iters = it;
	/* the caller rewrites x: the last scaling tasks write it */
#pragma css wait on(x[0;N])
	return rq;
}

int main(void)
{
	double (*A)[N] = malloc(sizeof(double[N][N]));
	double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
	double *bv = malloc(N * sizeof *bv), *x2 = malloc(N * sizeof *x2);
	double lambda, shift = 0.0, res = 1.0, parts[NB];
	int i, j, k, iters, sweeps;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			int d = abs(i - j);
			A[i][j] = d == 0 ? 2.0 + (i == N / 3 ? 3.0 : 0.0) + (double)(i % 5) / 4.0 : d <= 2 ? -1.0 / (double)(d + 1) : 0.0;
		}

	for (k = 0; k < 2; k++) {
		for (i = 0; i < N; i++)
			x[i] = 1.0 / sqrt((double)N) * (1.0 + (double)(i % 3) / 8.0);
		lambda = power(A, x, y, shift, &iters);
		printf("power %d iterations %d lambda %a\n", k, iters, lambda + shift);
		shift = lambda + shift;     /* next: the other end of the spectrum */
	}

	/* Jacobi on A x = b until the update is small */
	for (i = 0; i < N; i++) {
		bv[i] = (double)(i % 7) - 3.0;
		x[i] = 0.0;
	}
	for (sweeps = 0; res > 1e-12 && sweeps < 1000; sweeps++) {
		double *t;
		int b;

		for (b = 0; b < NB; b++)
			jacobi_blk(A, bv, x, x2, b * RB, &parts[b]);
		sum_parts(NB, parts, &res);
#pragma css wait on(res)
		t = x;
		x = x2;
		x2 = t;
	}
#pragma css barrier
	{
		double s = 0.0;
		for (i = 0; i < N; i++)
			s += x[i] * (double)(i + 1);
		printf("jacobi iterations %d %a\n", sweeps, s);
	}
	free(A); free(x); free(y); free(bv); free(x2);
	return 0;
}
