// OpenMP's `atomic` and `critical` in the statement positions real task
// bodies put them, with no braces of their own: the body of a `while`, of a
// `do ... while`, of a `for`, each branch of an `if ... else if ... else`
// chain, a `case` of a `switch` (a critical around a whole inner `switch`
// whose `break`s stay inside it), after a label, the last statement of a
// function; and the clause forms `atomic update`, `atomic read` into a
// local, `atomic write`, `atomic capture` on a block `{ v = x; x += k; }`
// (a ticket counter handing out unique slots) and on `v = x++;`, named
// criticals nested in one another, `hint(...)` and spaces in the name.
// 48 function tasks read their own block (`in(v[0;n])` only), so they run
// at the same time and update the same counters thousands of times; inline
// tasks then bin the tickets they drew. Everything is integer, so the
// result is exact.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: sum 98208544 sum2 98208544 odd 98304 even 98304
// CHECK: switch 49152 81696 49152 49152 nested 98304 96
// CHECK: branches 0 48 48 flag 1 post 98304
// CHECK: tickets 98304 unique 1 checksum 889760998

#include <stdio.h>

#define NTASKS 48
#define BS 2048
#define NSLOTS (NTASKS * BS)

static int samples[NTASKS * BS];
static long sum_while, sum_do, odd, even, negative, big, small;
static long sw[4], nested_outer, nested_inner;
static long ticket, post_ticket, flag;
static int slot_owner[NSLOTS];
static long slot_hist[16];

#pragma omp task in(v[0;n])
void scan_block(const int *v, int n, int id)
{
	int i = 0;
	while (i < n)
#pragma omp atomic
		sum_while += v[i++];

	i = 0;
	do
#pragma omp atomic update
		sum_do += v[i];
	while (++i < n);

	for (i = 0; i < n; i++)
		if (v[i] & 1)
#pragma omp critical ( parity )
			odd++;
		else
#pragma omp critical(parity) hint(0)
			even++;

	for (i = 0; i < n; i++) {
		switch (v[i] % 4) {
		case 0:
#pragma omp atomic
			sw[0]++;
			break;
		case 1:
#pragma omp critical(sw)
			switch (v[i] % 3) {
			case 0: sw[1] += 3; break;
			default: sw[1]++; break;
			}
			break;
		default:
#pragma omp critical(sw)
			{
				sw[v[i] % 4]++;
#pragma omp critical(inner)
				nested_inner++;
			}
		}
	}

	/* tickets: each draws a unique number; `capture` on a block and on
	   one statement */
	for (i = 0; i < n; i += 2) {
		long mine, other;
#pragma omp atomic capture
		{ mine = ticket; ticket += 1; }
#pragma omp atomic capture
		other = post_ticket++;
		slot_owner[mine] = id + 1;
		(void)other;
	}
	if (n > 1000) {
		if (v[0] < 0)
#pragma omp atomic
			negative++;
		else if (v[0] > 500)
#pragma omp atomic
			big++;
		else
#pragma omp atomic
			small++;
	}
	long seen;
#pragma omp atomic read
	seen = flag;
	if (seen == 0)
#pragma omp atomic write
		flag = 1;
	goto finish;
finish:
#pragma omp critical(outer)
	nested_outer++;
}

int main(void)
{
	for (int i = 0; i < NTASKS * BS; i++)
		samples[i] = (int)(((unsigned)i * 2654435761u) >> 7) % 1000;
	for (int t = 0; t < NTASKS; t++)
		scan_block(&samples[t * BS], BS, t);
	for (int t = 0; t < NTASKS; t++)
		scan_block(&samples[t * BS], BS, t + NTASKS);
#pragma omp taskwait

	/* every ticket below the counter was drawn once: bin them by owner in
	   inline tasks, under a critical */
	for (int lo = 0; lo < (int)ticket; lo += BS) {
#pragma omp task in(slot_owner[lo;BS])
		{
			for (int k = lo; k < lo + BS; k++)
#pragma omp critical(bins)
				slot_hist[slot_owner[k] % 16]++;
		}
	}
#pragma omp taskwait

	long unique = 1, checksum = 0;
	for (int k = 0; k < (int)ticket; k++)
		if (slot_owner[k] == 0)
			unique = 0;
	for (int b = 0; b < 16; b++)
		checksum = (checksum * 131 + slot_hist[b]) % 1000000007L;
	printf("sum %ld sum2 %ld odd %ld even %ld\n", sum_while, sum_do, odd, even);
	printf("switch %ld %ld %ld %ld nested %ld %ld\n", sw[0], sw[1], sw[2], sw[3], nested_inner, nested_outer);
	printf("branches %ld %ld %ld flag %ld post %ld\n", negative, big, small, flag, post_ticket);
	printf("tickets %ld unique %ld checksum %ld\n", ticket, unique, checksum);
	return 0;
}
