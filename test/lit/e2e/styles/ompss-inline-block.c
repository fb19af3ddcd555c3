// OmpSs tutorial style with tasks on compound statements: the css task
// pragma stands before a `{ ... }` block that uses the loop's variables, as
// OmpSs programs annotate code in place (`#pragma omp task in(...) out(...)`
// followed by a block) rather than outlining a function. A blocked
// prefix computation: per-block sums, a scan of the sums, then a fix-up.
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

#define N 4096
#define BS 256
#define NB (N / BS)

static long a[N], prefix[N];
static long block_sum[NB], block_off[NB];

int main(void)
{
	long checksum = 0;

	for (int i = 0; i < N; i++)
		a[i] = (i * 29 + 3) % 41 - 20;

	for (int b = 0; b < NB; b++) {
		int lo = b * BS;
#pragma css task in(a[lo;BS]) out(prefix[lo;BS], block_sum[b;1])
		{
			long s = 0;
			for (int i = lo; i < lo + BS; i++) {
				s += a[i];
				prefix[i] = s;
			}
			block_sum[b] = s;
		}
	}

#pragma css task in(block_sum[0;NB]) out(block_off[0;NB])
	{
		long run = 0;
		for (int b = 0; b < NB; b++) {
			block_off[b] = run;
			run += block_sum[b];
		}
	}

	for (int b = 1; b < NB; b++) {
		int lo = b * BS;
#pragma css task in(block_off[b;1]) inout(prefix[lo;BS])
		{
			for (int i = lo; i < lo + BS; i++)
				prefix[i] += block_off[b];
		}
	}
#pragma css barrier

	printf("total %ld\n", prefix[N - 1]);
	for (int i = 0; i < N; i += 512)
		printf("prefix[%d] = %ld\n", i, prefix[i]);
	for (int i = 0; i < N; i++)
		checksum += prefix[i] * (i % 7 + 1);
	printf("checksum %ld\n", checksum);
	return 0;
}
