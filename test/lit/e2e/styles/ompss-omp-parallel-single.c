// An OpenMP task program as OmpSs users also write it (and as BOTS/BAR
// ports are written): the task-creating code sits in `#pragma omp parallel`
// + `#pragma omp single` (both with braces), the tasks are `#pragma omp
// task depend(...)` on calls and on blocks, and a `#pragma omp taskwait`
// inside the single ends each sweep. The items are whole names (the
// residual `depend(inout: resid)`, a global) and pointees of struct
// pointers (`depend(in: *left, *mid, *right) depend(out: *dst)`), so the
// program is also a valid OpenMP program. A 1-D diffusion on an array of
// blocks (structs of 512 doubles) with ghost blocks at both ends, two
// generations of blocks swapped each step; per step each block's change is
// folded into one residual in block order, and each sweep's residual is
// copied by a task into a log through `depend(out: *slot)`; the results are
// printed after the parallel region.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: sweep 0 resid
// CHECK: sweep 3 resid
// CHECK: block 1
// CHECK: checksum

#include <stdio.h>

#define BS 512
#define NB 12
#define STEPS 8
#define SWEEPS 4

struct block {
	double v[BS];
};

/* blocks 0 and NB + 1 are ghosts: they stay 0 */
static struct block gen[2][NB + 2];
static double resid;
static double resid_log[SWEEPS];

static void relax(const struct block *left, const struct block *mid, const struct block *right,
                  struct block *dst)
{
	for (int i = 0; i < BS; i++) {
		double l = i > 0 ? mid->v[i - 1] : left->v[BS - 1];
		double r = i < BS - 1 ? mid->v[i + 1] : right->v[0];
		dst->v[i] = 0.25 * l + 0.5 * mid->v[i] + 0.25 * r;
	}
}

static double change(const struct block *a, const struct block *b)
{
	double s = 0.0;
	for (int i = 0; i < BS; i++)
		s += (a->v[i] - b->v[i]) * (a->v[i] - b->v[i]);
	return s;
}

int main(void)
{
	double checksum = 0.0;
	int cur = 0;

#pragma omp parallel
	{
#pragma omp single
		{
			for (int b = 1; b <= NB; b++) {
				struct block *blk = &gen[0][b];
#pragma omp task depend(out: *blk)
				{
					for (int i = 0; i < BS; i++)
						blk->v[i] = (double)(((b * BS + i) * 37) % 101) - 50.0;
				}
			}

			for (int sweep = 0; sweep < SWEEPS; sweep++) {
#pragma omp task depend(out: resid)
				{
					resid = 0.0;
				}
				for (int step = 0; step < STEPS; step++) {
					int nxt = 1 - cur;
					for (int b = 1; b <= NB; b++) {
						struct block *left = &gen[cur][b - 1];
						struct block *mid = &gen[cur][b];
						struct block *right = &gen[cur][b + 1];
						struct block *dst = &gen[nxt][b];
#pragma omp task depend(in: *left, *mid, *right) depend(out: *dst)
						relax(left, mid, right, dst);
					}
					for (int b = 1; b <= NB; b++) {
						struct block *old = &gen[cur][b];
						struct block *now = &gen[nxt][b];
#pragma omp task depend(in: *old, *now) depend(inout: resid)
						{
							resid = resid * 0.5 + change(old, now);
						}
					}
					cur = nxt;
				}
				double *slot = &resid_log[sweep];
#pragma omp task depend(in: resid) depend(out: *slot)
				{
					*slot = resid;
				}
#pragma omp taskwait
			}
		}
	}

	for (int s = 0; s < SWEEPS; s++)
		printf("sweep %d resid %.9e\n", s, resid_log[s]);
	for (int b = 1; b <= NB; b += 5)
		printf("block %d: %.9e %.9e\n", b, gen[cur][b].v[0], gen[cur][b].v[BS / 2]);
	for (int b = 1; b <= NB; b++)
		for (int i = 0; i < BS; i++)
			checksum += gen[cur][b].v[i] * (double)((b + i) % 9 + 1);
	printf("checksum %.9e\n", checksum);
	return 0;
}
