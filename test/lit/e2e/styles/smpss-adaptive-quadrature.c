/* Adaptive refinement driven by task results: Gauss-Legendre estimates on
 * intervals (`output(est[k;1], err[k;1])`) with the nodes and weights in
 * `static const` tables (read-only data, `input(gx[5], gw[5])`); the master
 * waits on the error estimates (`wait on(err[0;n], est[0;n])`), splits the
 * intervals whose error is too large into newly allocated arrays (freeing
 * the old ones), grows the estimate arrays with `realloc` between levels,
 * and stops when no
 * interval splits, so both the number of tasks per level and the number
 * of levels come from earlier results; then a reduction task sums the
 * accepted estimates in interval order. %a output. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -lm -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -lm -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: level 0 intervals 4
// CHECK: integral

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double gx[5] = {
	-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831, 0.9061798459386640
};
static const double gw[5] = {
	0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665, 0.2369268850561891
};

static double f(double x)
{
	return sin(8.0 * x) / (0.05 + x * x) + sqrt(fabs(x - 0.3));
}

static double gauss(double a, double b, const double *x, const double *w)
{
	double c = (a + b) / 2.0, h = (b - a) / 2.0, s = 0.0;
	int i;

	for (i = 0; i < 5; i++)
		s += w[i] * f(c + h * x[i]);
	return s * h;
}

#pragma css task input(a, b, x[5], w[5]) output(est[0;1], err[0;1])
void estimate(double a, double b, const double *x, const double *w, double *est, double *err)
{
	double m = (a + b) / 2.0;
	double whole = gauss(a, b, x, w);
	double halves = gauss(a, m, x, w) + gauss(m, b, x, w);

	*est = halves;
	*err = fabs(halves - whole);
}

#pragma css task input(n, v[n]) output(*sum)
void ordered_sum(int n, const double *v, double *sum)
{
	int i;
	double s = 0.0;

	for (i = 0; i < n; i++)
		s += v[i];
	*sum = s;
}

int main(void)
{
	int n = 4, cap = 4, nacc = 0, capacc = 16, level, i;
	double *lo = malloc(cap * sizeof *lo), *hi = malloc(cap * sizeof *hi);
	double *est = malloc(cap * sizeof *est), *err = malloc(cap * sizeof *err);
	double *acc = malloc(capacc * sizeof *acc);
	double total = 0.0, tol = 1e-11;

	for (i = 0; i < n; i++) {
		lo[i] = -1.0 + 0.75 * i;
		hi[i] = lo[i] + 0.75;
	}

	for (level = 0; n > 0 && level < 40; level++) {
		int m = 0;

		for (i = 0; i < n; i++)
			estimate(lo[i], hi[i], gx, gw, &est[i], &err[i]);
#pragma css wait on(err[0;n], est[0;n])
		printf("level %d intervals %d\n", level, n);
		/* keep the accurate ones, split the others into new arrays */
		{
			double *nlo = malloc((size_t)(2 * n) * sizeof *nlo);
			double *nhi = malloc((size_t)(2 * n) * sizeof *nhi);

			for (i = 0; i < n; i++) {
				double w = hi[i] - lo[i];
				if (err[i] <= tol || w < 1e-5) {
					if (nacc == capacc) {
						capacc *= 2;
						acc = realloc(acc, capacc * sizeof *acc);
					}
					acc[nacc++] = est[i];
				} else {
					nlo[m] = lo[i];
					nhi[m] = lo[i] + w / 2.0;
					nlo[m + 1] = nhi[m];
					nhi[m + 1] = hi[i];
					m += 2;
				}
			}
			free(lo);
			free(hi);
			lo = nlo;
			hi = nhi;
		}
		n = m;
		if (n > cap) {
			/* the estimate arrays grow with the next level */
			cap = n;
			est = realloc(est, (size_t)cap * sizeof *est);
			err = realloc(err, (size_t)cap * sizeof *err);
		}
	}
	ordered_sum(nacc, acc, &total);
#pragma css barrier
	printf("integral %a accepted %d levels %d\n", total, nacc, level);
	free(lo); free(hi); free(est); free(err); free(acc);
	return 0;
}
