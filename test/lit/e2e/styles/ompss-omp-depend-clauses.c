// OpenMP 4 style dependences in an OmpSs program: `depend(in: ...)`,
// `depend(out: ...)`, `depend(inout: ...)` instead of in/out/inout, as OmpSs
// programs ported from (or to) OpenMP write them. The items are whole names
// (a global coefficient array `depend(out: coef)`, `depend(inout: coef)`,
// global scalars `depend(out: total)`, `depend(inout: folded)`), pointees
// `depend(out: *mx)`, `depend(in: *mx) depend(inout: *acc)`
// and OmpSs sections `depend(inout: blk[0;BS])` (never `a[lo:hi]`, whose
// meaning differs between OmpSs and OpenMP), on function tasks and on inline
// tasks. Two rounds of blocked polynomial evaluation with a fold of block
// maxima into one scalar; between the rounds a task rewrites the
// coefficients in place (it must wait for every reader of the first round)
// and only a `#pragma omp taskwait on(total)` lets the master read the
// first round's result before it submits the second.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: round 0 total
// CHECK: round 1 total
// CHECK: maxima
// CHECK: checksum

#include <stdio.h>

#define N 8192
#define BS 512
#define NB (N / BS)
#define NC 6
#define MOD 1000003L

static long coef[NC];
static long data[N];
static long blkmax[NB];
static long total, folded;

#pragma omp task depend(in: c[0;NC]) depend(inout: blk[0;BS])
void poly_block(const long *c, long *blk)
{
	for (int i = 0; i < BS; i++) {
		long x = blk[i] % MOD, y = 0;
		for (int k = NC - 1; k >= 0; k--)
			y = (y * x + c[k]) % MOD;
		blk[i] = y;
	}
}

#pragma omp task depend(in: blk[0;BS]) depend(out: *mx)
void block_max(const long *blk, long *mx)
{
	long m = blk[0];
	for (int i = 1; i < BS; i++)
		if (blk[i] > m)
			m = blk[i];
	*mx = m;
}

#pragma omp task depend(in: *mx) depend(inout: *acc)
void fold_max(const long *mx, long *acc)
{
	*acc = (*acc * 31 + *mx) % MOD;
}

int main(void)
{
	long checksum = 0;

#pragma omp task depend(out: coef)
	{
		for (int k = 0; k < NC; k++)
			coef[k] = (k * 7919 + 13) % 101 + 1;
	}

	for (int b = 0; b < NB; b++) {
		long *blk = &data[b * BS];
		int first = b * BS;
#pragma omp task depend(out: blk[0;BS])
		{
			for (int i = 0; i < BS; i++)
				blk[i] = (first + i) * 2654435761L % 65521;
		}
	}

	for (int round = 0; round < 2; round++) {
#pragma omp task depend(out: total)
		{
			total = round + 1;
		}

		for (int b = 0; b < NB; b++)
			poly_block(coef, &data[b * BS]);
		for (int b = 0; b < NB; b++)
			block_max(&data[b * BS], &blkmax[b]);
		for (int b = 0; b < NB; b++)
			fold_max(&blkmax[b], &total);

		/* rewrites the coefficients: after every poly_block of this round */
#pragma omp task depend(inout: coef) depend(in: total)
		{
			for (int k = 0; k < NC; k++)
				coef[k] = (coef[k] * 3 + total % 17) % 101 + 1;
		}

#pragma omp taskwait on(total)
		printf("round %d total %ld\n", round, total);
#pragma omp task depend(in: total) depend(inout: folded)
		{
			folded = (folded * 1009 + total) % MOD;
		}
	}
#pragma omp taskwait

	printf("maxima");
	for (int b = 0; b < NB; b += 3)
		printf(" %ld", blkmax[b]);
	printf("\nfolded %ld coef %ld %ld\n", folded, coef[0], coef[NC - 1]);
	for (int i = 0; i < N; i++)
		checksum = (checksum * 131 + data[i]) % MOD;
	printf("checksum %ld\n", checksum);
	return 0;
}
