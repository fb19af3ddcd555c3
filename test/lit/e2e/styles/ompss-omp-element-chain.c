// OpenMP and OmpSs element dependences in #pragma omp: `depend(in: x[k-1])
// depend(out: x[k])` and `in(y[k-1]) out(y[k])` are elements k-1 and k (C's
// subscripts), chaining the tasks one after another. (In #pragma css, StarSs'
// `x[k]` is k elements from x[0]: ompss-element-items.c.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par 2>&1 | FileCheck --allow-empty --implicit-check-not=warning: %s
// RUN: CSS_NUM_CPUS=3 timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// STATS: css-stats: tasks={{[1-9][0-9]}}
#include <stdio.h>
#define N 16
static long x[N], y[N];

#pragma omp task in(y[k-1]) out(y[k])
void step(long *y, int k)
{
	y[k] = y[k - 1] * 3 - k;
}

int main(void)
{
	x[0] = 1;
	y[0] = 2;
	for (int k = 1; k < N; k++) {
#pragma omp task depend(in: x[k-1]) depend(out: x[k])
		{ x[k] = x[k - 1] * 2 + k; }
		step(y, k);
	}
#pragma omp taskwait
	for (int k = 0; k < N; k++)
		printf("%ld %ld\n", x[k], y[k]);
	return 0;
}
