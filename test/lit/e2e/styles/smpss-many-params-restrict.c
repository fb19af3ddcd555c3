/* Kernels with long parameter lists, as codes ported from Fortran or BLAS
 * write them: a 15-parameter task mixing `int`, `long`, `short`, `char`,
 * `unsigned`, `float` and `double` scalars by value with four
 * `restrict`-qualified pointers (`const double *restrict x`, `double
 * *restrict z`, ...) named in input/output/inout sections that use several
 * of the scalars (`x[off;n]`, `z[off * inc;n * inc]`), called from a
 * function whose own parameters are `restrict`; a second 11-parameter task
 * whose scalars come after its pointers; C99 `static`-qualified array
 * parameters `double v[static 4]`. %a output. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c99 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc -std=c99 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: z 0
// CHECK: w 3
// CHECK: count

#include <stdio.h>
#include <stdlib.h>

#define LEN 256
#define CH 32

#pragma css task input(n, off, inc, alpha, beta, gamma, shift, mode, mask, seed) \
                 input(x[off;n], y[off;n], v) \
                 inout(z[off * inc;n * inc]) \
                 output(count[0;1])
void axpbyz(int n, long off, int inc, double alpha, double beta, float gamma,
            short shift, char mode, unsigned mask, long seed,
            const double *restrict x, const double *restrict y,
            double *restrict z, int *restrict count, double v[static 4])
{
	int i, c = 0;

	for (i = 0; i < n; i++) {
		long k = off + i;
		double t = alpha * x[k] + beta * y[k] + (double)gamma * v[i & 3];
		if (mode == 'm')
			t = -t;
		if (((unsigned)(k + seed) & mask) == 0u) {
			t += (double)shift / 64.0;
			c++;
		}
		z[k * inc] = z[k * inc] * 0.5 + t;
	}
	*count = c;
}

#pragma css task input(a[lo;n], b[lo;n]) output(w[lo;n]) \
                 input(lo, n, p, q, r, s, t, sign)
void blend(const float *restrict a, const float *restrict b, double *restrict w,
           long lo, int n, double p, double q, float r, float s, short t, signed char sign)
{
	int i;

	for (i = 0; i < n; i++) {
		long k = lo + i;
		double u = p * a[k] + q * b[k] + (double)(r * s) + (double)t / 8.0;
		w[k] = sign < 0 ? -u : u;
	}
}

static void sweep(int round, const double *restrict x, const double *restrict y,
                  double *restrict z, int *restrict counts, double *restrict vv)
{
	long off;

	for (off = 0; off < LEN; off += CH)
		axpbyz(CH, off, 2, 0.75 + round / 8.0, -1.25, 0.5f + (float)round,
		       (short)(off / CH - 3), (round & 1) ? 'm' : 'p', 7u, (long)round * 5,
		       x, y, z, &counts[off / CH], vv + 4 * (off / CH));
}

int main(void)
{
	double *x = malloc(LEN * sizeof *x);
	double *y = malloc(LEN * sizeof *y);
	double *z = calloc(2 * LEN, sizeof *z);
	double *w = malloc(LEN * sizeof *w);
	float *fa = malloc(LEN * sizeof *fa);
	float *fb = malloc(LEN * sizeof *fb);
	double vv[4 * (LEN / CH)];
	int counts[LEN / CH];
	int i, round, total = 0;

	for (i = 0; i < LEN; i++) {
		x[i] = (double)(i % 19) / 16.0 - 0.5;
		y[i] = (double)((i * 7) % 23) / 32.0;
		fa[i] = (float)(i % 5) * 0.375f;
		fb[i] = (float)((i * 3) % 11) * -0.125f;
	}
	for (i = 0; i < 4 * (LEN / CH); i++)
		vv[i] = (double)(i % 9) / 4.0;

	for (round = 0; round < 4; round++) {
		long lo;

		sweep(round, x, y, z, counts, vv);
		for (lo = 0; lo < LEN; lo += CH)
			blend(fa, fb, w, lo, CH, 0.5 * round, 1.5, 0.25f * (float)round, -3.0f,
			      (short)(lo / CH), (signed char)((round & 1) ? -1 : 1));
#pragma css wait on(z[0;2 * LEN], w[0;LEN])
		{
			double tz = 0.0, tw = 0.0;
			for (i = 0; i < 2 * LEN; i++)
				tz += z[i] * (double)(i % 13 + 1);
			for (i = 0; i < LEN; i++)
				tw += w[i] * (double)(i % 7 + 1);
			printf("z %d %a\n", round, tz);
			printf("w %d %a\n", round, tw);
		}
		/* the master feeds the next round */
		for (i = 0; i < LEN; i += 17)
			w[i] = 0.0;
	}
#pragma css barrier
	for (i = 0; i < LEN / CH; i++)
		total = total * 3 + counts[i];
	printf("count %d\n", total);
	free(x); free(y); free(z); free(w); free(fa); free(fb);
	return 0;
}
