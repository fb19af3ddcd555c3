// SMPSs N-queens: the master explores the first rows of the board itself and
// spawns one task per partial placement; each task gets its own copy of the
// placement and counts the completions into its own slot. The task pragma
// carries the target inside it (`#pragma css task ... target device(smp)`),
// as Mercurium's SMPSs sources write it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq 9 > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par 9
// RUN: CSS_STATS=1 timeout 60 %t/par 9 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: 9 queens: 352 solutions

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 12
#define SPLIT_DEPTH 2

static int ok(int n, int d, const char *a)
{
	int i;
	for (i = 0; i < d; i++) {
		int p = a[i], q = a[d];
		if (p == q || p - q == d - i || q - p == d - i)
			return 0;
	}
	(void)n;
	return 1;
}

static long seq_queens(int n, int d, char *a)
{
	long count = 0;
	int c;
	if (d == n)
		return 1;
	for (c = 0; c < n; c++) {
		a[d] = (char)c;
		if (ok(n, d, a))
			count += seq_queens(n, d + 1, a);
	}
	return count;
}

#pragma css task input(n, d, a[MAXN]) output(result) target device(smp)
void queens_task(int n, int d, char *a, long *result)
{
	char local[MAXN];
	memcpy(local, a, MAXN);
	*result = seq_queens(n, d, local);
}

static char placements[4096][MAXN];
static long counts[4096];
static int ntasks = 0;

static void spawn(int n, int d, char *a)
{
	int c;
	if (d == SPLIT_DEPTH) {
		memcpy(placements[ntasks], a, MAXN);
		queens_task(n, d, placements[ntasks], &counts[ntasks]);
		ntasks++;
		return;
	}
	for (c = 0; c < n; c++) {
		a[d] = (char)c;
		if (ok(n, d, a))
			spawn(n, d + 1, a);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8, i;
	char board[MAXN];
	long total = 0, weighted = 0;

	if (n < 4 || n > MAXN)
		return 1;
	memset(board, 0, sizeof board);
	spawn(n, 0, board);
#pragma css barrier
	for (i = 0; i < ntasks; i++) {
		total += counts[i];
		weighted += counts[i] * (i + 1);
	}
	printf("%d queens: %ld solutions\n", n, total);
	printf("%d tasks, weighted %ld\n", ntasks, weighted);
	for (i = 0; i < n; i++) {
		long by_col = 0;
		int t;
		for (t = 0; t < ntasks; t++)
			if (placements[t][0] == i)
				by_col += counts[t];
		printf("first queen in column %d: %ld\n", i, by_col);
	}
	return 0;
}
