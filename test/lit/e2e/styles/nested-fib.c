// OmpSs-2 style recursive Fibonacci with a cut-off: the task function calls
// itself, so tasks are created inside tasks, and each level waits for its
// two children with `#pragma css taskwait` before adding their results,
// which the children write into the parent's local variables.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq 24 > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par 24
// RUN: CSS_STATS=1 timeout 60 %t/par 24 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: fib(24) = 46368
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define CUTOFF 12

static long fib_seq(int n)
{
	return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2);
}

#pragma css task input(n) output(res)
void fib(int n, long *res)
{
	long x, y;

	if (n < CUTOFF) {
		*res = fib_seq(n);
		return;
	}
	fib(n - 1, &x);
	fib(n - 2, &y);
#pragma css taskwait
	*res = x + y;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	long results[6];
	long checksum = 0;

	fib(n, &results[0]);
	for (int k = 1; k < 6; k++)
		fib(n - 2 * k, &results[k]);
#pragma css taskwait

	printf("fib(%d) = %ld\n", n, results[0]);
	for (int k = 1; k < 6; k++) {
		printf("fib(%d) = %ld\n", n - 2 * k, results[k]);
		checksum += results[k] * k;
	}
	printf("checksum %ld\n", checksum + results[0]);
	return 0;
}
