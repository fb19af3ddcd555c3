// SMPSs/CellSs histogram in rounds: every block task adds into one shared
// accumulator array (`inout(hist[NBINS])`, so those tasks run one after
// another), per-block counts go to `output(count)` elements of a global
// array, and the master reads the counts as they come with
// `#pragma css wait on(counts[b;1])` in a loop. Between rounds the master
// itself rewrites the input array and the accumulator: after a
// `#pragma css barrier` in even rounds and after `#pragma css wait on(hist,
// data)` (whole global arrays) in odd rounds, so the next round's tasks must
// see the master's writes, not copies of the old blocks.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: round 0 half reached in block
// CHECK: round 3 top bins
// CHECK: checksum

#include <stdio.h>

#define N 32768
#define BLK 2048
#define NBLK (N / BLK)
#define NBINS 64
#define ROUNDS 4

unsigned data[N];
long hist[NBINS];
long counts[NBLK];

#pragma css task input(block[BLK]) inout(hist[NBINS])
void hist_block(unsigned *block, long *hist)
{
	int i;

	for (i = 0; i < BLK; i++)
		hist[(block[i] >> 4) % NBINS]++;
}

#pragma css task input(block[BLK], threshold) output(count)
void count_above(unsigned *block, unsigned threshold, long *count)
{
	int i;
	long c = 0;

	for (i = 0; i < BLK; i++)
		if (block[i] > threshold)
			c++;
	*count = c;
}

static void print_top_bins(int round)
{
	int shown, b, best;
	long taken[NBINS] = { 0 };

	printf("round %d top bins", round);
	for (shown = 0; shown < 4; shown++) {
		best = -1;
		for (b = 0; b < NBINS; b++)
			if (!taken[b] && (best < 0 || hist[b] > hist[best]))
				best = b;
		taken[best] = 1;
		printf(" %d:%ld", best, hist[best]);
	}
	printf("\n");
}

int main(void)
{
	int i, b, round;
	unsigned x = 2463534242u;
	unsigned threshold = 1u << 20;
	long checksum = 0;

	for (i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		data[i] = x % (1u << 21);
	}

	for (round = 0; round < ROUNDS; round++) {
		long running = 0;
		int half_at = -1;

		for (b = 0; b < NBLK; b++) {
			hist_block(&data[b * BLK], hist);
			count_above(&data[b * BLK], threshold, &counts[b]);
		}
		for (b = 0; b < NBLK; b++) {
#pragma css wait on(counts[b;1])
			running += counts[b];
			if (half_at < 0 && running >= N / 4)
				half_at = b;
		}
		printf("round %d half reached in block %d, above %ld\n", round,
		       half_at, running);

		if (round % 2 == 0) {
#pragma css barrier
		} else {
#pragma css wait on(hist, data)
		}
		print_top_bins(round);

		/* the master rewrites the data from the histogram */
		for (i = 0; i < N; i++) {
			long h = hist[(data[i] >> 4) % NBINS];
			data[i] = (unsigned)((data[i] * 2654435761u + (unsigned)h * 40503u) %
					     (1u << 21));
		}
		if (round % 2 == 1)
			for (b = 0; b < NBINS; b++)
				hist[b] = b; /* a fresh start, not zero */
		threshold = threshold / 2 + (unsigned)round * 100000u;
	}

#pragma css barrier
	for (b = 0; b < NBINS; b++)
		checksum += hist[b] * (b + 1);
	for (i = 0; i < N; i += 3)
		checksum += data[i] % 1000;
	printf("checksum %ld\n", checksum);
	return 0;
}
