// OpenMP tasks as the textbooks write them: a task on a lone statement, not
// a block and not a call of a task function (`x = fib(n - 1);`), with the
// data-sharing clauses shared, firstprivate, private and default. The
// statement is outlined as a task; a shared variable is reached in place
// (unordered, as in OpenMP: the taskwait orders it), the others are copied.
// A task on a lone statement was refused, and so were these clauses.
// Reduced work: fib(22) with a cut-off, a loop whose body is one task
// statement (no braces), and a default(shared) task.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc -Wall -Werror %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9][0-9][0-9]+}}
// CHECK: fib(22) = 17711
// CHECK: squares 0 1 4 9 16 25 36 49 64 81 100 121 144 169 196 225
// CHECK: total 1240 scaled 3720

#include <stdio.h>

#define N 16

static long fib(int n)
{
	long x, y;

	if (n < 2)
		return n;
	if (n < 12)
		return fib(n - 1) + fib(n - 2);
#pragma omp task shared(x) firstprivate(n)
	x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n)
	y = fib(n - 2);
#pragma omp taskwait
	return x + y;
}

static void scale_all(int *v, int n, int factor)
{
	int i, tmp;

	for (i = 0; i < n; i++)
#pragma omp task firstprivate(i) private(tmp) shared(v, factor)
		tmp = v[i], v[i] = tmp * factor;
#pragma omp taskwait
}

int main(void)
{
	int squares[N], i, total = 0, scaled = 0;

	printf("fib(22) = %ld\n", fib(22));

	for (i = 0; i < N; i++)
#pragma omp task out(squares[i])
		squares[i] = i * i;
#pragma omp taskwait
	printf("squares");
	for (i = 0; i < N; i++)
		printf(" %d", squares[i]);
	printf("\n");

#pragma omp task default(shared)
	for (i = 0; i < N; i++)
		total += squares[i];
#pragma omp taskwait
	scale_all(squares, N, 3);
	for (i = 0; i < N; i++)
		scaled += squares[i];
	printf("total %d scaled %d\n", total, scaled);
	return 0;
}
