/*
 * multisort: the BOTS / SMPSs multisort, as nested tasks.
 *
 * A sort task splits its part of the array in four, sorts the quarters as
 * child tasks, merges them pairwise into the scratch array and merges the
 * two halves back, each merge a child task. No taskwait is needed between
 * the steps: each merge reads what the sorts before it wrote, and the
 * regions order them. A task completes only when its children have, so a
 * parent's own caller sees the array sorted.
 *
 *   multisort [-n ELEMENTS] [-c CUTOFF]
 *   multisort n=4194304 cutoff=16384 seconds=0.52 check=PASS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef long elem;

static long cutoff = 16384;

static int compare(const void *a, const void *b) {
  elem x = *(const elem *)a, y = *(const elem *)b;
  return (x > y) - (x < y);
}

#pragma css task input(na, nb, a[na], b[nb]) output(out[na + nb])
void merge(long na, long nb, const elem *a, const elem *b, elem *out);

#pragma css task input(n) inout(data[n], tmp[n])
void multisort(long n, elem *data, elem *tmp);

void merge(long na, long nb, const elem *a, const elem *b, elem *out) {
  long i = 0, j = 0, k = 0;
  while (i < na && j < nb)
    out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  while (i < na)
    out[k++] = a[i++];
  while (j < nb)
    out[k++] = b[j++];
}

void multisort(long n, elem *data, elem *tmp) {
  if (n < cutoff) {
    qsort(data, (size_t)n, sizeof(elem), compare);
    return;
  }
  long q = n / 4, last = n - 3 * q; /* the last quarter takes the rest */
  elem *a = data, *b = data + q, *c = data + 2 * q, *d = data + 3 * q;
  elem *ta = tmp, *tb = tmp + q, *tc = tmp + 2 * q, *td = tmp + 3 * q;
  multisort(q, a, ta);
  multisort(q, b, tb);
  multisort(q, c, tc);
  multisort(last, d, td);
  merge(q, q, a, b, ta);
  merge(q, last, c, d, tc);
  merge(2 * q, q + last, ta, tc, data);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  long n = 1 << 22;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (argv[i][1] == 'n') n = atol(argv[i + 1]);
    else if (argv[i][1] == 'c') cutoff = atol(argv[i + 1]);
  }
  elem *data = malloc((size_t)n * sizeof(elem)), *tmp = malloc((size_t)n * sizeof(elem));
  elem *copy = malloc((size_t)n * sizeof(elem));
  unsigned long long x = 88172645463325252ULL;
  for (long i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    data[i] = (elem)(x % 1000003);
  }
  memcpy(copy, data, (size_t)n * sizeof(elem));
  double start = now();
  multisort(n, data, tmp);
#pragma css barrier
  double seconds = now() - start;
  qsort(copy, (size_t)n, sizeof(elem), compare);
  int same = memcmp(copy, data, (size_t)n * sizeof(elem)) == 0;
  long checksum = 0;
  for (long i = 0; i < n; i += n / 16 + 1)
    checksum += data[i];
  printf("multisort n=%ld cutoff=%ld checksum=%ld seconds=%.6f check=%s\n", n, cutoff, checksum, seconds,
         same ? "PASS" : "FAIL");
  free(data);
  free(tmp);
  free(copy);
  return same ? 0 : 1;
}
