// Shared accumulators updated inside concurrent tasks under `#pragma omp
// critical`, as OmpSs histogram and counting examples do instead of naming
// the accumulator in inout (which would serialise the tasks). 64 function
// tasks, each only reading its own block of samples (`in(v[0;n])`), so they
// run at the same time, add every sample into one global histogram under an
// unnamed `#pragma omp critical` (on one statement) and into a global sum and
// count under a named `#pragma omp critical(totals)` (on a block): thousands
// of read-modify-writes of the same integers per task, so a lost update is
// all but certain if the critical sections were not honoured. With no
// taskwait in between, a second round regenerates the samples in place (each
// generator must wait for its block's first-round reader) and bins them with
// inline tasks (`#pragma omp task in(samples[lo;BS])` + block) that update
// other accumulators under a second name, `critical(weights)`, and the sum
// and count under `critical(totals)` again, possibly at the same time as the
// first round's tasks. Everything is integer, so the result is exact; one
// `#pragma omp taskwait` before the master reads.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: count 1048576 total
// CHECK: hist
// CHECK: weights
// CHECK: checksum

#include <stdio.h>

#define NTASKS 64
#define BS 2048
#define PASSES 4
#define NBINS 32

static unsigned samples[NTASKS * BS];
static long hist[NBINS];
static long weight[NBINS];
static long total, count, wcount;

#pragma omp task out(v[0;n])
void generate(unsigned *v, int n, unsigned seed)
{
	unsigned x = seed * 2654435761u + 12345u;
	for (int i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u;
		v[i] = x >> 8;
	}
}

#pragma omp task in(v[0;n])
void bin_block(const unsigned *v, int n)
{
	for (int pass = 0; pass < PASSES; pass++) {
		for (int i = 0; i < n; i++) {
			unsigned x = v[i] ^ (pass * 0x9e3779b9u);
			int bin = (int)((x >> 5) % NBINS);
#pragma omp critical
			hist[bin] += (long)(x % 7) + 1;
#pragma omp critical(totals)
			{
				total += (long)(x % 1000);
				count += 1;
			}
		}
	}
}

int main(void)
{
	long checksum = 0;

	for (int t = 0; t < NTASKS; t++)
		generate(&samples[t * BS], BS, (unsigned)t + 1u);
	for (int t = 0; t < NTASKS; t++)
		bin_block(&samples[t * BS], BS);

	/* second round, no taskwait before it: each block is regenerated once
	   its first-round reader is done */
	for (int t = 0; t < NTASKS; t++)
		generate(&samples[t * BS], BS, (unsigned)t * 7u + 3u);
	for (int t = 0; t < NTASKS; t++) {
		int lo = t * BS;
#pragma omp task in(samples[lo;BS])
		{
			for (int pass = 0; pass < PASSES; pass++) {
				for (int i = lo; i < lo + BS; i++) {
					unsigned x = samples[i] ^ (pass * 0x85ebca6bu);
					int bin = (int)((x >> 9) % NBINS);
#pragma omp critical(weights)
					{
						weight[bin] += (long)(x % 13) + 1;
						wcount += 1;
					}
#pragma omp critical(totals)
					{
						total += (long)(x % 1000);
						count += 1;
					}
				}
			}
		}
	}
#pragma omp taskwait

	printf("count %ld total %ld wcount %ld\n", count, total, wcount);
	printf("hist");
	for (int b = 0; b < NBINS; b++)
		printf(" %ld", hist[b]);
	printf("\n");
	printf("weights");
	for (int b = 0; b < NBINS; b++)
		printf(" %ld", weight[b]);
	printf("\n");
	for (int b = 0; b < NBINS; b++)
		checksum = (checksum * 31 + hist[b] * 3 + weight[b]) % 1000000007L;
	for (int i = 0; i < NTASKS * BS; i += 97)
		checksum = (checksum * 7 + samples[i] % 1009) % 1000000007L;
	printf("checksum %ld\n", checksum);
	return 0;
}
