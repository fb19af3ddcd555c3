/* Recursive divide and conquer with nested tasks at several depths, as
 * OmpSs-2/BOTS codes write it: Karatsuba polynomial multiplication whose
 * body allocates its temporaries (the three half products and the sums of
 * halves) and calls itself on halves of its inputs and on its temporaries,
 * `taskwait` before combining; and a mergesort task that sorts the two
 * halves as child tasks into a scratch buffer it allocated, `taskwait`,
 * then merges. Each runs with the task depth cut-off 0 (one task, no
 * children) to 4, and the results must not change with the depth. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_NUM_CPUS=3 timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: kara depth 0
// CHECK: kara depth 4
// CHECK: sort depth 0
// CHECK: sort depth 4

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256
#define SMALL 16

static void school(int n, const long *a, const long *b, long *r)
{
	int i, j;
	for (i = 0; i < 2 * n; i++)
		r[i] = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			r[i + j] += a[i] * b[j];
}

#pragma css task input(n, depth, a[n], b[n]) output(r[2 * n])
void kara(int n, int depth, const long *a, const long *b, long *r)
{
	int h = n / 2, i;
	long *t, *sa, *sb, *z0, *z1, *z2;
	if (depth == 0 || n <= SMALL) {
		school(n, a, b, r);
		return;
	}
	t = malloc((6 * h + h + h) * sizeof(long));
	z0 = t;
	z1 = t + 2 * h;
	z2 = t + 4 * h;
	sa = t + 6 * h;
	sb = t + 7 * h;
	for (i = 0; i < h; i++) {
		sa[i] = a[i] + a[i + h];
		sb[i] = b[i] + b[i + h];
	}
	kara(h, depth - 1, a, b, z0);
	kara(h, depth - 1, a + h, b + h, z2);
	kara(h, depth - 1, sa, sb, z1);
#pragma css taskwait
	for (i = 0; i < 2 * n; i++)
		r[i] = 0;
	for (i = 0; i < 2 * h; i++) {
		r[i] += z0[i];
		r[i + h] += z1[i] - z0[i] - z2[i];
		r[i + 2 * h] += z2[i];
	}
	free(t);
}

static void merge(const int *a, int na, const int *b, int nb, int *out)
{
	int i = 0, j = 0, k = 0;
	while (i < na && j < nb)
		out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

#pragma css task input(n, depth) inout(v[n])
void msort(int n, int depth, int *v)
{
	int h = n / 2, *tmp;
	if (n < 2)
		return;
	if (depth == 0 || n <= SMALL) {
		int i, j;
		for (i = 1; i < n; i++) {
			int x = v[i];
			for (j = i; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	tmp = malloc(n * sizeof(int));
	memcpy(tmp, v, n * sizeof(int));
	msort(h, depth - 1, tmp);
	msort(n - h, depth - 1, tmp + h);
#pragma css taskwait
	merge(tmp, h, tmp + h, n - h, v);
	free(tmp);
}

static long A[N], B[N], R[2 * N];
static int V[3 * N + 5];

int main(void)
{
	int depth, i;
	for (i = 0; i < N; i++) {
		A[i] = (i * 7919) % 201 - 100;
		B[i] = (i * 104729) % 97 - 48;
	}
	for (depth = 0; depth <= 4; depth++) {
		unsigned long h = 1469598103934665603ul;
		kara(N, depth, A, B, R);
#pragma css taskwait on(R)
		for (i = 0; i < 2 * N; i++)
			h = (h ^ (unsigned long)R[i]) * 1099511628211ul;
		printf("kara depth %d r0 %ld rmid %ld hash %lx\n", depth, R[0], R[N], h);
	}
	for (depth = 0; depth <= 4; depth++) {
		unsigned long h = 0;
		int sorted = 1;
		for (i = 0; i < 3 * N + 5; i++)
			V[i] = (int)((i * 2654435761u + depth) % 1000);
		msort(3 * N + 5, depth, V);
		msort(N, depth, V + N); /* again, on part of the sorted array */
#pragma css barrier
		for (i = 0; i < 3 * N + 5; i++) {
			h = h * 31 + V[i];
			if (i > 0 && V[i - 1] > V[i] && (i <= N || i >= 2 * N))
				sorted = 0;
		}
		printf("sort depth %d sorted %d min %d max %d hash %lx\n", depth, sorted, V[0], V[3 * N + 4], h);
	}
	return 0;
}
