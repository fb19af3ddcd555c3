// OmpSs-2 style multisort: the sort task splits its range into four
// sub-sorts and three merges, all tasks created inside the task, and waits
// for them with a `#pragma css barrier` in its own body before returning;
// below a cut-off it sorts in place. The merges name the halves they read
// and the range they write.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: sorted 1
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define N 8192
#define CUTOFF 256

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

#pragma css task input(n, a[n], b[n]) output(out[2*n])
void merge(long n, const int *a, const int *b, int *out)
{
	long i = 0, j = 0, k = 0;
	while (i < n && j < n)
		out[k++] = (a[i] <= b[j]) ? a[i++] : b[j++];
	while (i < n)
		out[k++] = a[i++];
	while (j < n)
		out[k++] = b[j++];
}

#pragma css task input(n) inout(data[n], tmp[n])
void sort(long n, int *data, int *tmp)
{
	if (n <= CUTOFF) {
		qsort(data, n, sizeof(int), cmp_int);
		return;
	}
	long q = n / 4;
	sort(q, data, tmp);
	sort(q, data + q, tmp + q);
	sort(q, data + 2 * q, tmp + 2 * q);
	sort(q, data + 3 * q, tmp + 3 * q);
	merge(q, data, data + q, tmp);
	merge(q, data + 2 * q, data + 3 * q, tmp + 2 * q);
	merge(2 * q, tmp, tmp + 2 * q, data);
#pragma css barrier
}

int main(void)
{
	int *data = malloc(N * sizeof(int));
	int *tmp = malloc(N * sizeof(int));
	unsigned s = 12345u;
	long long checksum = 0;

	for (long i = 0; i < N; i++) {
		s = s * 1103515245u + 12345u;
		data[i] = (int)((s >> 9) % 1000000);
	}
	sort(N / 2, data, tmp);
	sort(N / 2, data + N / 2, tmp + N / 2);
	merge(N / 2, data, data + N / 2, tmp);
#pragma css barrier

	int ok = 1;
	for (long i = 1; i < N; i++)
		if (tmp[i - 1] > tmp[i])
			ok = 0;
	printf("sorted %d min %d max %d mid %d\n", ok, tmp[0], tmp[N - 1], tmp[N / 2]);
	for (long i = 0; i < N; i++)
		checksum += (long long)tmp[i] * (i % 13 + 1);
	printf("checksum %lld\n", checksum);
	free(data);
	free(tmp);
	return 0;
}
