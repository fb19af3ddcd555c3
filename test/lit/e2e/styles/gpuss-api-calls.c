/* A program that synchronises through the API of gpuss.h instead of
 * directives, as code written against the runtime library does: the tasks
 * are annotated, but the master calls `css_start()`, `css_barrier()`,
 * `css_wait_on()` with regions it builds itself (`css_contiguous` for a
 * vector, a strided `css_region` by hand for a column block of a row-major
 * matrix, two regions in one call), `css_finish()` then more tasks after it
 * (a second start/finish cycle), and prints nothing of `css_version()` but
 * checks it is non-empty. The sequential build defines the calls away. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: cycle 0 vec
// CHECK: cycle 1 cols
// CHECK: version ok

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<gpuss.h>)
#include <gpuss.h>
#define HAVE_CSS_RUNTIME 1
#endif
#endif
#ifndef HAVE_CSS_RUNTIME
/* sequential build: no runtime, the calls do nothing */
typedef struct { void *base; size_t row_bytes, rows, stride; } css_region;
static css_region css_contiguous(const void *p, size_t n)
{
	css_region r = { (void *)p, n, 1, n };
	return r;
}
#define css_start() ((void)0)
#define css_finish() ((void)0)
#define css_barrier() ((void)0)
#define css_wait_on(r, n) ((void)(r), (void)(n))
#define css_version() "sequential"
#endif

#define N 32
#define CB 8

#pragma css task input(n, f) inout(v[n])
void vscale(int n, double *v, double f)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = v[i] * f + (double)i / 64.0;
}

#pragma css task input(c0, m[0;N][c0;CB]) output(colsum[c0;CB])
void col_sums(double (*m)[N], int c0, double *colsum)
{
	int i, j;

	for (j = c0; j < c0 + CB; j++) {
		double s = 0.0;
		for (i = 0; i < N; i++)
			s += m[i][j] * (double)(i % 3 + 1);
		colsum[j] = s;
	}
}

#pragma css task input(c0, f) inout(m[0;N][c0;CB])
void col_update(double (*m)[N], int c0, double f)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = c0; j < c0 + CB; j++)
			m[i][j] = m[i][j] * f - (double)(i - j) / 128.0;
}

int main(void)
{
	double (*m)[N] = malloc(sizeof(double[N][N]));
	double *v = malloc(4 * N * sizeof *v);
	double colsum[N];
	int i, j, c0, cycle;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			m[i][j] = (double)((i * 3 + j * 5) % 7) / 4.0;
	for (i = 0; i < 4 * N; i++)
		v[i] = (double)(i % 9);

	for (cycle = 0; cycle < 2; cycle++) {
		css_region two[2], cols;

		css_start();
		for (i = 0; i < 4; i++)
			vscale(N, v + i * N, 0.5 + cycle + i / 4.0);
		for (c0 = 0; c0 < N; c0 += CB)
			col_update(m, c0, 1.0 + (double)c0 / 32.0);
		for (c0 = 0; c0 < N; c0 += CB)
			col_sums(m, c0, colsum);

		/* the first and the last quarter of v, in one call */
		two[0] = css_contiguous(v, N * sizeof *v);
		two[1] = css_contiguous(v + 3 * N, N * sizeof *v);
		css_wait_on(two, 2);
		printf("cycle %d vec %a %a\n", cycle, v[0] + v[N - 1], v[3 * N] + v[4 * N - 1]);
		v[0] = -1.0;
		v[4 * N - 1] = -2.0;

		/* columns 8..15 of m: N rows of CB doubles, a row apart */
		cols.base = &m[0][CB];
		cols.row_bytes = CB * sizeof(double);
		cols.rows = N;
		cols.stride = sizeof m[0];
		css_wait_on(&cols, 1);
		for (i = 0; i < N; i++)
			m[i][CB + (i % CB)] += 1.0;

		css_barrier();
		{
			double s = 0.0;
			for (j = 0; j < N; j++)
				s += colsum[j];
			printf("cycle %d cols %a m %a\n", cycle, s, m[N - 1][N - 1]);
		}
		css_finish();
	}
	printf("version %s\n", strlen(css_version()) > 0 ? "ok" : "empty");
	free(m);
	free(v);
	return 0;
}
