/* Old C written by SMPSs/CellSs users: the interface in a header of
 * old-style declarations (`extern void vaxpy();`, Inputs/kr_tasks.h),
 * `main` first, then the task definitions in K&R style with their
 * directives (`void vaxpy(n, a, x, y) int n; float a; ...`), whose float,
 * short and char parameters arrive promoted through the old-style
 * declaration; `static` tasks forward-declared old style; C89 only
 * (declarations at the top of blocks, `register`), built with -std=gnu89. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=gnu89 -Wno-unknown-pragmas -I %S/Inputs %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc -std=gnu89 -I %S/Inputs %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: dot 0
// CHECK: dot 7
// CHECK: clipped

#include <stdio.h>
#include "kr_tasks.h"

#define N 2048
#define NB 8
#define BL (N / NB)

static void vscale();
static void vshift();

float X[N], Y[N], Z[N];
double dots[NB];

int main()
{
	register int b;
	int round;
	long clipped = 0;
	double total;

	for (b = 0; b < NB; b++)
		vfill(&X[b * BL], BL, (float)(b + 1) * 0.25f);
	for (b = 0; b < NB; b++)
		vfill(&Y[b * BL], BL, 1.5f - b * 0.125f);
	for (round = 0; round < 3; round++) {
		for (b = 0; b < NB; b++) {
			vaxpy(BL, 0.5f + round, &X[b * BL], &Y[b * BL]);
			vscale(&Y[b * BL], BL, (short)(round + 2));
			vshift(&Y[b * BL], &Z[b * BL], BL, (char)('a' + b));
		}
		for (b = 0; b < NB; b++)
			vdot(BL, &Z[b * BL], &X[b * BL], &dots[b]);
	}
	for (b = 0; b < NB; b++)
		vclip(&Z[b * BL], BL, 40.0f, &clipped);
#pragma css barrier
	total = 0;
	for (b = 0; b < NB; b++) {
		printf("dot %d %a\n", b, dots[b]);
		total += dots[b];
	}
	printf("total %a z %a %a\n", total, Z[0], Z[N - 1]);
	printf("clipped %ld\n", clipped);
	return 0;
}

#pragma css task input(n, seed) output(v[n])
void vfill(v, n, seed)
	float *v;
	int n;
	float seed;
{
	int i;
	for (i = 0; i < n; i++)
		v[i] = seed * (float)((i * 13) % 17) / 16.0f;
}

#pragma css task input(n, a, x[n]) inout(y[n])
void vaxpy(n, a, x, y)
	int n;
	float a;
	float *x, *y;
{
	register int i;
	for (i = 0; i < n; i++)
		y[i] += a * x[i];
}

#pragma css task inout(v[n]) input(n, k)
static void vscale(v, n, k)
	float *v;
	int n;
	short k;
{
	int i;
	for (i = 0; i < n; i++)
		v[i] = v[i] * k / (k + 1);
}

#pragma css task input(src[n], n, c) output(dst[n])
static void vshift(src, dst, n, c)
	float *src, *dst;
	int n;
	char c;
{
	int i;
	for (i = 0; i < n; i++)
		dst[i] = src[i] + (c - 'a') * 0.5f;
}

#pragma css task input(n, x[n], y[n]) output(d)
void vdot(n, x, y, d)
	int n;
	float *x, *y;
	double *d;
{
	int i;
	double s = 0;
	for (i = 0; i < n; i++)
		s += (double)x[i] * y[i];
	*d = s;
}

#pragma css task inout(v[n], count) input(n, hi)
void vclip(v, n, hi, count)
	float *v;
	int n;
	float hi;
	long *count;
{
	int i;
	for (i = 0; i < n; i++)
		if (v[i] > hi) {
			v[i] = hi;
			++*count;
		}
}
