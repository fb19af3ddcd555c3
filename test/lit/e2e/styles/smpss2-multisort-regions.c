// SMPSs 2.x multisort with array regions: VLA parameters (`T data[n]`) named
// whole, and regions in SMPSs 2.x syntax on them: `result{lo:len}` (len
// elements from lo), `data{lo..hi}` (lo to hi inclusive) and `data{}` (the
// whole dimension). The recursion runs in the main program; the leaves
// (sorts, merge pieces, counts) are tasks.
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

#define T int

long N = 4096;
long MIN_SORT = 64;
long MERGE_CHUNK = 128;

#pragma css task input(lo, len) output(data{lo:len})
void fill(long n, T data[n], long lo, long len)
{
	unsigned s = 7919u * (unsigned)(lo + 1);
	for (long i = lo; i < lo + len; i++) {
		s = s * 1664525u + 1013904223u;
		data[i] = (T)((s >> 8) % 100000);
	}
}

#pragma css task input(n) inout(data)
void basicsort(long n, T data[n])
{
	for (long i = 1; i < n; i++) {
		T v = data[i];
		long j = i - 1;
		while (j >= 0 && data[j] > v) {
			data[j + 1] = data[j];
			j--;
		}
		data[j + 1] = v;
	}
}

/* Elements lo .. lo+len-1 of the merge of left and right (n each). */
#pragma css task input(n, left, right, lo, len) output(result{lo:len})
void merge_piece(long n, T left[n], T right[n], T result[2 * n], long lo, long len)
{
	long a = lo > n ? lo - n : 0, b = lo < n ? lo : n;
	while (a < b) {
		long mid = (a + b) / 2;
		if (left[mid] <= right[lo - mid - 1])
			a = mid + 1;
		else
			b = mid;
	}
	long i = a, j = lo - a;
	for (long k = lo; k < lo + len; k++) {
		if (j >= n || (i < n && left[i] <= right[j]))
			result[k] = left[i++];
		else
			result[k] = right[j++];
	}
}

#pragma css task input(n, lo, hi, data{lo..hi}) output(count)
void count_below(long n, T data[n], long lo, long hi, T limit, long *count)
{
	long c = 0;
	for (long i = lo; i <= hi; i++)
		if (data[i] < limit)
			c++;
	*count = c;
}

#pragma css task input(n, data{}) output(sum)
void weighted_sum(long n, T data[n], long long *sum)
{
	long long s = 0;
	for (long i = 0; i < n; i++)
		s += (long long)data[i] * (i % 97 + 1);
	*sum = s;
}

static void merge(long n, T left[n], T right[n], T result[2 * n])
{
	long chunk = 2 * n < MERGE_CHUNK ? 2 * n : MERGE_CHUNK;
	for (long lo = 0; lo < 2 * n; lo += chunk)
		merge_piece(n, left, right, result, lo, chunk);
}

static void multisort(long n, T data[n], T tmp[n])
{
	if (n >= MIN_SORT * 4) {
		long q = n / 4;
		multisort(q, &data[0], &tmp[0]);
		multisort(q, &data[q], &tmp[q]);
		multisort(q, &data[2 * q], &tmp[2 * q]);
		multisort(q, &data[3 * q], &tmp[3 * q]);
		merge(q, &data[0], &data[q], &tmp[0]);
		merge(q, &data[2 * q], &data[3 * q], &tmp[2 * q]);
		merge(2 * q, &tmp[0], &tmp[2 * q], &data[0]);
	} else {
		basicsort(n, data);
	}
}

int main(void)
{
	T *data = malloc(N * sizeof(T));
	T *tmp = malloc(N * sizeof(T));
	long counts[8];
	long long sum = 0;

	for (long lo = 0; lo < N; lo += N / 8)
		fill(N, data, lo, N / 8);
	multisort(N, data, tmp);
	for (int b = 0; b < 8; b++)
		count_below(N, data, b * (N / 8), (b + 1) * (N / 8) - 1, 50000, &counts[b]);
	weighted_sum(N, data, &sum);
#pragma css barrier

	int ok = 1;
	for (long i = 1; i < N; i++)
		if (data[i - 1] > data[i])
			ok = 0;
	printf("sorted %d first %d last %d median %d\n", ok, data[0], data[N - 1], data[N / 2]);
	for (int b = 0; b < 8; b++)
		printf("below[%d] %ld\n", b, counts[b]);
	printf("checksum %lld\n", sum);
	free(data);
	free(tmp);
	return 0;
}
