// SMPSs 2.x Cholesky with a block typedef: the task parameters are declared
// as `block` (float[BS][BS]) and named whole in the clauses, the diagonal
// factorisation is `highpriority`, and the runtime is started and stopped
// with the css_start()/css_finish() calls instead of pragmas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -lm -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -lm -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: diag
// CHECK: checksum

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Sequential builds have no runtime: make the calls no-ops there. */
#if defined(__has_include)
#if __has_include(<gpuss.h>)
#include <gpuss.h>
#define HAVE_CSS_RUNTIME 1
#endif
#endif
#ifndef HAVE_CSS_RUNTIME
#define css_start()
#define css_finish()
#endif

#define BS 8
#define NB 5

typedef float block[BS][BS];

#pragma css task highpriority inout(a)
void spotrf_tile(block a)
{
	int i, j, k;
	for (j = 0; j < BS; j++) {
		for (k = 0; k < j; k++)
			a[j][j] -= a[j][k] * a[j][k];
		a[j][j] = sqrtf(a[j][j]);
		for (i = j + 1; i < BS; i++) {
			for (k = 0; k < j; k++)
				a[i][j] -= a[i][k] * a[j][k];
			a[i][j] /= a[j][j];
		}
		for (i = 0; i < j; i++)
			a[i][j] = 0.0f;
	}
}

#pragma css task input(t) inout(b)
void strsm_tile(block t, block b)
{
	int r, j, k;
	for (r = 0; r < BS; r++)
		for (j = 0; j < BS; j++) {
			for (k = 0; k < j; k++)
				b[r][j] -= b[r][k] * t[j][k];
			b[r][j] /= t[j][j];
		}
}

#pragma css task input(a, b) inout(c)
void sgemm_tile(block a, block b, block c)
{
	int i, j, k;
	for (i = 0; i < BS; i++)
		for (j = 0; j < BS; j++)
			for (k = 0; k < BS; k++)
				c[i][j] -= a[i][k] * b[j][k];
}

#pragma css task input(a) inout(c)
void ssyrk_tile(block a, block c)
{
	int i, j, k;
	for (i = 0; i < BS; i++)
		for (j = 0; j < BS; j++)
			for (k = 0; k < BS; k++)
				c[i][j] -= a[i][k] * a[j][k];
}

static block *M[NB][NB];

int main(void)
{
	int bi, bj, i, j, k;
	const int n = NB * BS;
	double checksum = 0.0;

	for (bi = 0; bi < NB; bi++)
		for (bj = 0; bj < NB; bj++)
			M[bi][bj] = (block *)malloc(sizeof(block));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			(*M[i / BS][j / BS])[i % BS][j % BS] =
				1.0f / (1.0f + (float)abs(i - j)) + (i == j ? (float)n : 0.0f);

	css_start();
	for (k = 0; k < NB; k++) {
		spotrf_tile(*M[k][k]);
		for (i = k + 1; i < NB; i++)
			strsm_tile(*M[k][k], *M[i][k]);
		for (i = k + 1; i < NB; i++) {
			for (j = k + 1; j < i; j++)
				sgemm_tile(*M[i][k], *M[j][k], *M[i][j]);
			ssyrk_tile(*M[i][k], *M[i][i]);
		}
	}
	css_finish();

	printf("diag");
	for (i = 0; i < n; i += 7)
		printf(" %.5f", (*M[i / BS][i / BS])[i % BS][i % BS]);
	printf("\n");
	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++)
			checksum += (*M[i / BS][j / BS])[i % BS][j % BS] * (1 + (i * 3 + j) % 11);
	printf("checksum %.5f\n", checksum);
	for (bi = 0; bi < NB; bi++)
		for (bj = 0; bj < NB; bj++)
			free(M[bi][bj]);
	return 0;
}
