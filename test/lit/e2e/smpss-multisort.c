// An SMPSs 2.x program as its users wrote it: C99 variable-length array
// parameters named whole (input(left, right), inout(data)), a region of the
// result per merge task (result{start:length}), the target inside the task
// pragma, unannotated prototypes before main and the annotated definitions
// after it, start and finish. Same output as the sequential program, on
// host workers and on simulated devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O1 -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -O1 %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <stdio.h>
#include <stdlib.h>

#define T int
#define N 4096L
#define MIN_SORT_SIZE 128L
#define MIN_MERGE_SIZE 256L

void basicsort(long n, T data[n]);
void merge_task(long n, T left[n], T right[n], T result[n * 2], long start, long length);
void initialize(long length, T data[length], long seed);

static int compare(const void *a, const void *b) {
  T x = *(const T *)a, y = *(const T *)b;
  return (x > y) - (x < y);
}

static long find_split(T *left, T *right, long n, long start) {
  // The number of elements of `left` among the first `start` of the merge.
  long lo = start > n ? start - n : 0, hi = start < n ? start : n;
  while (lo < hi) {
    long mid = (lo + hi) / 2;
    if (left[mid] <= right[start - mid - 1])
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static void merge_rec(long n, T *left, T *right, T *result, long start, long length) {
  if (length <= MIN_MERGE_SIZE) {
    merge_task(n, left, right, result, start, length);
  } else {
    merge_rec(n, left, right, result, start, length / 2);
    merge_rec(n, left, right, result, start + length / 2, length / 2);
  }
}

static void multisort(long n, T *data, T *tmp) {
  if (n >= MIN_SORT_SIZE * 4L) {
    multisort(n / 4L, &data[0], &tmp[0]);
    multisort(n / 4L, &data[n / 4L], &tmp[n / 4L]);
    multisort(n / 4L, &data[n / 2L], &tmp[n / 2L]);
    multisort(n / 4L, &data[3L * n / 4L], &tmp[3L * n / 4L]);
    merge_rec(n / 4L, &data[0], &data[n / 4L], &tmp[0], 0, n / 2L);
    merge_rec(n / 4L, &data[n / 2L], &data[3L * n / 4L], &tmp[n / 2L], 0, n / 2L);
    merge_rec(n / 2L, &tmp[0], &tmp[n / 2L], &data[0], 0, n);
  } else {
    basicsort(n, data);
  }
}

int main(void) {
  T *data = malloc(sizeof(T) * N), *tmp = malloc(sizeof(T) * N);
#pragma css start
  for (long i = 0; i < N; i += N / 4)
    initialize(N / 4, &data[i], i + 1);
#pragma css barrier
  long sum = 0;
  for (long i = 0; i < N; i++)
    sum += data[i];
  multisort(N, data, tmp);
#pragma css finish
  int sorted = 1;
  long after = 0;
  for (long i = 0; i < N; i++) {
    after += data[i];
    if (i > 0 && data[i - 1] > data[i]) sorted = 0;
  }
  printf("sorted %d sums %ld %ld\n", sorted, sum, after);
  printf("%d %d %d %d\n", data[0], data[N / 3], data[2 * N / 3], data[N - 1]);
  free(data);
  free(tmp);
  return 0;
}

#pragma css task input(n) inout(data)
void basicsort(long n, T data[n]) {
  qsort(data, n, sizeof(T), compare);
}

#pragma css task target device(smp) input(n, start, length, left, right) inout(result{start:length})
void merge_task(long n, T left[n], T right[n], T result[n * 2], long start, long length) {
  long l = find_split(left, right, n, start), r = start - l;
  for (long k = start; k < start + length; k++)
    result[k] = (r >= n || (l < n && left[l] <= right[r])) ? left[l++] : right[r++];
}

#pragma css task input(length, seed) output(data)
void initialize(long length, T data[length], long seed) {
  unsigned long x = (unsigned long)seed * 2654435761UL;
  for (long i = 0; i < length; i++) {
    x = x * 6364136223846793005UL + 1442695040888963407UL;
    data[i] = (T)((x >> 33) % 100000);
  }
}
// CHECK: sorted 1 sums [[SUM:[0-9]+]] [[SUM]]
