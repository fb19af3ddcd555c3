// OpenMP/OmpSs if(e) clause: when e is false the task is undeferred, and the
// call returns only once it has run, so the program reads the result right
// after the call, without a taskwait (small blocks here; the large ones are
// ordinary tasks, read after the taskwait).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: CSS_NUM_CPUS=3 timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: small 0: 2016
// CHECK: total 4690176

#include <stdio.h>

#define NB 16

static long data[NB][1024];
static long sums[NB];

#pragma omp task in(v[0;n]) out(*sum) if(n >= 256)
void block_sum(int n, const long *v, long *sum)
{
	long s = 0;
	for (int r = 0; r < 50; r++)
		for (int i = 0; i < n; i++)
			s += v[i] * (r == 0);
	*sum = s;
}

int main(void)
{
	for (int b = 0; b < NB; b++)
		for (int i = 0; i < 1024; i++)
			data[b][i] = b * 7 + i;
	for (int b = 0; b < NB; b++) {
		int n = b % 2 ? 1024 : 64; /* small blocks: undeferred */
		block_sum(n, data[b], &sums[b]);
		if (n < 256)
			printf("small %d: %ld\n", b, sums[b]); /* no taskwait: the call has run it */
	}
#pragma omp taskwait
	long total = 0;
	for (int b = 0; b < NB; b++)
		total += sums[b];
	printf("total %ld\n", total);
	return 0;
}
