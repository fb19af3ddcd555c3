// OmpSs/OpenMP recursion with its cut-off in a final clause: below the cut-off
// the task is final, and every task its body calls runs inline, at once, on
// its thread (OpenMP's included tasks). No omp.h, so the plain build is the
// sequential reference; the number of tasks that run as tasks (not inline)
// shows that final did its work.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq 22 > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: CSS_NUM_CPUS=3 timeout 60 %run-configs %t/expected %t/par 22
// RUN: CSS_NUM_CPUS=3 CSS_STATS=1 timeout 60 %t/par 22 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// The calls of depth 0 to 6 are tasks (the final ones among them, at depth
// 6, too): 2^7 - 1 = 127 for n = 22; the other 57,186 of the 57,313 calls
// run inline (all of them would be tasks without final).
// STATS: css-stats: tasks={{[1-9][0-9]?[0-9]?}} {{.*}} inline_tasks={{[1-9][0-9][0-9][0-9][0-9]}}
// CHECK: fib(22) = 17711

#include <stdio.h>
#include <stdlib.h>

#pragma omp task in(n, depth) out(*res) final(depth >= 6)
void fib(int n, int depth, long *res)
{
	long x, y;
	if (n < 2) {
		*res = n;
		return;
	}
	fib(n - 1, depth + 1, &x);
	fib(n - 2, depth + 1, &y);
#pragma omp taskwait
	*res = x + y;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 22;
	long result = 0;
	fib(n, 0, &result);
#pragma omp taskwait
	printf("fib(%d) = %ld\n", n, result);
	return 0;
}
