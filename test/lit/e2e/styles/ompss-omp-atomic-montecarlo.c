// Shared counters updated with `#pragma omp atomic` (update form `x += v;`)
// in an OpenMP task program of the kind OmpSs also compiles: `#pragma omp
// parallel` + `#pragma omp single` around the task creation, tasks with
// `depend(out: *ch)` / `depend(in: *ch)` on chunk structs reached through
// pointers, one `#pragma omp taskwait` at the end of the single. An integer
// Monte Carlo count (points of a 2^16 x 2^16 square inside the quarter
// circle, each point used with its antithetic twin) in two rounds over the
// same 64 chunks of 4096 points: each round's generator of a chunk must wait
// for the previous round's counter of that chunk, but no taskwait separates
// the rounds, so the counters of both rounds may run at the same time. The
// counters are 64 concurrent tasks per round, each doing thousands of atomic
// read-modify-writes of the same globals: in round 0 (point and hit counts,
// a distance histogram) from a plain function called by the task (the
// atomics are orphaned, as OpenMP allows), in round 1 (a sum of products, a
// point count, a below-the-diagonal count) from an inline task block. All
// integers, so the result is exact and equals the sequential one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: points 1048576
// CHECK: hits
// CHECK: hist
// CHECK: checksum

#include <stdio.h>

#define NCHUNKS 64
#define BS 4096
#define NBINS 16
#define ROUNDS 2

struct chunk {
	unsigned short x[BS], y[BS];
};

static struct chunk chunks[NCHUNKS];
static long points, hits;
static long hist[NBINS];
static long sumsq, below;

static void generate(struct chunk *ch, unsigned seed)
{
	unsigned s = seed * 2654435761u + 1u;
	for (int i = 0; i < BS; i++) {
		s = s * 1664525u + 1013904223u;
		ch->x[i] = (unsigned short)(s >> 16);
		s = s * 1664525u + 1013904223u;
		ch->y[i] = (unsigned short)(s >> 16);
	}
}

/* called inside tasks: the atomics are orphaned. Each point is used with
 * its antithetic twin (65535 - x, 65535 - y). */
static void count_chunk(const struct chunk *ch)
{
	for (int i = 0; i < BS; i++) {
		for (int twin = 0; twin < 2; twin++) {
			long dx = twin ? 65535 - ch->x[i] : ch->x[i];
			long dy = twin ? 65535 - ch->y[i] : ch->y[i];
			long d2 = dx * dx + dy * dy;
#pragma omp atomic
			points += 1;
			if (d2 < 65536L * 65536L) {
#pragma omp atomic
				hits += 1;
			}
#pragma omp atomic
			hist[(d2 >> 29) % NBINS] += 1;
		}
	}
}

int main(void)
{
	long checksum = 0;

#pragma omp parallel
	{
#pragma omp single
		{
			for (int r = 0; r < ROUNDS; r++) {
				for (int c = 0; c < NCHUNKS; c++) {
					struct chunk *ch = &chunks[c];
					unsigned seed = (unsigned)(r * NCHUNKS + c);
#pragma omp task depend(out: *ch)
					generate(ch, seed);
				}
				for (int c = 0; c < NCHUNKS; c++) {
					struct chunk *ch = &chunks[c];
					if (r == 0) {
#pragma omp task depend(in: *ch)
						count_chunk(ch);
					} else {
#pragma omp task depend(in: *ch)
						{
							for (int i = 0; i < BS; i++) {
								for (int twin = 0; twin < 2; twin++) {
									long px = twin ? 65535 - ch->x[i] : ch->x[i];
									long py = twin ? ch->y[i] : 65535 - ch->y[i];
									long q = (px * py) >> 20;
#pragma omp atomic
									sumsq += q;
#pragma omp atomic
									points += 1;
									if (px < py) {
#pragma omp atomic
										below += 1;
									}
								}
							}
						}
					}
				}
			}
#pragma omp taskwait
		}
	}

	printf("points %ld\n", points);
	printf("hits %ld: pi ~ %ld/%d\n", hits, 4 * hits, 2 * NCHUNKS * BS);
	printf("hist");
	for (int b = 0; b < NBINS; b++)
		printf(" %ld", hist[b]);
	printf("\nsumsq %ld below %ld\n", sumsq, below);
	for (int c = 0; c < NCHUNKS; c++)
		for (int i = 0; i < BS; i += 31)
			checksum = (checksum * 17 + chunks[c].x[i] + 3L * chunks[c].y[i]) % 1000000007L;
	printf("checksum %ld\n", checksum);
	return 0;
}
