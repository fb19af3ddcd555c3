// OmpSs array sum as a reduction tree, written with css pragmas: inclusive
// sections `a[lo:hi]`, `in`/`out` clause names, `priority(1)` on the
// combining tasks, and `#pragma css taskwait on(total)` to wait for the
// final value only (the rest is waited for by a plain taskwait at the end).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: total 
// CHECK: checksum

#include <stdio.h>

#define N 8192
#define LEAVES 32

static int a[N];
static long level0[LEAVES], level1[LEAVES / 2], level2[LEAVES / 4];
static long level3[LEAVES / 8], level4[LEAVES / 16];
static long total;

#pragma css task in(lo, hi, seed) out(a[lo:hi])
void init_range(int *a, int lo, int hi, int seed)
{
	for (int i = lo; i <= hi; i++)
		a[i] = (i * 37 + seed) % 101 - 50;
}

#pragma css task in(a[lo:hi]) out(s)
void sum_range(int *a, int lo, int hi, long *s)
{
	long t = 0;
	for (int i = lo; i <= hi; i++)
		t += (long)a[i] * ((i % 3) + 1);
	*s = t;
}

#pragma css task priority(1) in(src[2*k:2*k+1]) out(dst[k;1])
void combine(long *src, long *dst, int k)
{
	dst[k] = src[2 * k] + src[2 * k + 1];
}

static void reduce(long *src, long *dst, int n)
{
	for (int k = 0; k < n / 2; k++)
		combine(src, dst, k);
}

int main(void)
{
	const int leaf = N / LEAVES;
	long checksum = 0;

	for (int l = 0; l < LEAVES; l++)
		init_range(a, l * leaf, (l + 1) * leaf - 1, 11);
	for (int l = 0; l < LEAVES; l++)
		sum_range(a, l * leaf, (l + 1) * leaf - 1, &level0[l]);
	reduce(level0, level1, LEAVES);
	reduce(level1, level2, LEAVES / 2);
	reduce(level2, level3, LEAVES / 4);
	reduce(level3, level4, LEAVES / 8);
	reduce(level4, &total, LEAVES / 16);
#pragma css taskwait on(total)
	printf("total %ld\n", total);

	/* second round on a modified array */
	for (int l = 0; l < LEAVES; l += 2)
		init_range(a, l * leaf, l * leaf + leaf / 2, 5 + l);
	for (int l = 0; l < LEAVES; l++)
		sum_range(a, l * leaf, (l + 1) * leaf - 1, &level0[l]);
	reduce(level0, level1, LEAVES);
#pragma css taskwait
	for (int l = 0; l < LEAVES / 2; l++) {
		printf("%ld ", level1[l]);
		checksum += level1[l] * (l + 1);
	}
	printf("\nchecksum %ld\n", checksum);
	return 0;
}
