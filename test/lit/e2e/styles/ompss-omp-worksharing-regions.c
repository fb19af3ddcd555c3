// An OpenMP task program that reads what its tasks wrote right after the
// constructs whose end is a barrier, without a taskwait of its own: inside
// one `#pragma omp parallel default(none) shared(...) num_threads(4)`, a
// `for schedule(dynamic, 2)` whose iterations call task functions, then a
// `single` reading the results; a `for nowait` followed by an explicit
// `barrier` and a `master` reading; `sections` with one `section` per half
// of the blocks; a `taskloop grainsize(4)`; a `scope` block; a `single
// nowait` as the last statement of the region (the region's own end
// waits). Outside it: the combined `parallel for reduction(+: ...)`,
// `parallel sections`, `parallel master`, and a `taskgroup` whose results are
// read right after it. Each task is long enough that a read that did not
// wait sees stale blocks (the sums differ every phase).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: for
// CHECK: barrier
// CHECK: sections
// CHECK: taskloop
// CHECK: scope
// CHECK: parallel-for
// CHECK: parallel-sections
// CHECK: parallel-master
// CHECK: taskgroup
// CHECK: checksum

#include <stdio.h>

#define NB 32
#define BS 256
#define ROUNDS 600

static long grid[NB * BS];
static long part[NB];

#pragma omp task out(p[0;BS])
void fill(long *p, long seed)
{
	for (long i = 0; i < BS; i++) {
		long x = i + seed;
		for (int r = 0; r < ROUNDS; r++)
			x = (x * 31 + seed) % 1000003;
		p[i] = x;
	}
}

#pragma omp task in(p[0;BS]) out(*s)
void block_sum(const long *p, long *s)
{
	long t = 0;
	for (int i = 0; i < BS; i++)
		t += p[i] % 1009;
	*s = t;
}

static long total(void)
{
	long s = 0;
	for (int i = 0; i < NB * BS; i++)
		s += grid[i];
	return s;
}

int main(void)
{
	long checksum = 0;
	int b;

#pragma omp parallel default(none) shared(grid, part, checksum) private(b) num_threads(4)
	{
#pragma omp for schedule(dynamic, 2)
		for (int k = 0; k < NB; k++)
			fill(&grid[k * BS], k + 1);
#pragma omp single
		{
			printf("for %ld\n", total());
			checksum += total() % 1000;
		}

#pragma omp for nowait
		for (int k = 0; k < NB; k++)
			block_sum(&grid[k * BS], &part[k]);
#pragma omp barrier
#pragma omp master
		{
			long s = 0;
			for (b = 0; b < NB; b++)
				s += part[b];
			printf("barrier %ld\n", s);
		}

#pragma omp sections
		{
#pragma omp section
			for (b = 0; b < NB / 2; b++)
				fill(&grid[b * BS], b + 100);
#pragma omp section
			for (b = NB / 2; b < NB; b++)
				fill(&grid[b * BS], b + 200);
		}
#pragma omp single
		printf("sections %ld\n", total());

#pragma omp single
#pragma omp taskloop grainsize(4)
		for (int k = 0; k < NB; k++)
			fill(&grid[k * BS], 3 * k + 7);
#pragma omp single
		printf("taskloop %ld\n", total());

#pragma omp scope
		{
			for (b = 0; b < NB; b += 2)
				fill(&grid[b * BS], b + 55);
		}
#pragma omp single nowait
		printf("scope %ld\n", total());
	}

	long red = 0;
#pragma omp parallel for reduction(+: red) schedule(static)
	for (int k = 0; k < NB; k++) {
		fill(&grid[k * BS], k + 300);
		red += k;
	}
	printf("parallel-for %ld %ld\n", total(), red);

#pragma omp parallel sections
	{
#pragma omp section
		fill(&grid[0], 1000);
#pragma omp section
		fill(&grid[(NB - 1) * BS], 1001);
	}
	printf("parallel-sections %ld\n", total());

#pragma omp parallel master
	for (int k = 1; k < NB - 1; k++)
		fill(&grid[k * BS], k + 400);
	printf("parallel-master %ld\n", total());

#pragma omp taskgroup
	{
		for (int k = 0; k < NB; k++)
			fill(&grid[k * BS], k * k + 9);
	}
	printf("taskgroup %ld\n", total());

	for (int i = 0; i < NB * BS; i += 37)
		checksum = (checksum * 7 + grid[i]) % 1000000007L;
	printf("checksum %ld\n", checksum);
	return 0;
}
