// XFAIL: *
// Fails today: by design. GPUSs keeps the StarSs meaning of `x[k]`, the k elements from x[0] (OmpSs's element k is `x[k;1]`, docs/language.md), so `in(x[k-1])` names no element for k = 1 and the body gets x == NULL: SIGSEGV in every configuration. The translator warns at `in(x[k-1]) out(x[k])` and suggests `x[k-1;1]`; `inout(hist[b])` alone has no such tell.
// OmpSs single-element dependences written in css pragmas: `x[k]` names the
// element x[k], as in OmpSs (`in(x[k-1]) out(x[k])`, `inout(hist[b])`),
// not a length. A chain of elements each computed from the previous one, and
// per-bucket counters updated by tasks that each touch one element.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: x[1]
// CHECK: checksum

#include <stdio.h>

#define LEN 48
#define NBUCKET 8

static double x[LEN];
static long hist[NBUCKET];
static int samples[1024];

#pragma css task in(x[k-1]) out(x[k])
void next_value(double *x, int k)
{
	x[k] = 0.5 * x[k - 1] + (double)(k % 5) / 4.0;
}

#pragma css task in(s[lo;n]) inout(hist[b])
void count_bucket(const int *s, int lo, int n, long *hist, int b)
{
	for (int i = lo; i < lo + n; i++)
		if (s[i] % NBUCKET == b)
			hist[b] += 1 + (s[i] >> 6);
}

int main(void)
{
	double checksum = 0;

	x[0] = 3.0;
	for (int i = 0; i < 1024; i++)
		samples[i] = (i * 193 + 71) % 509;

	for (int k = 1; k < LEN; k++)
		next_value(x, k);
	for (int part = 0; part < 4; part++)
		for (int b = 0; b < NBUCKET; b++)
			count_bucket(samples, part * 256, 256, hist, b);
#pragma css barrier

	printf("x[1] %.10f x[2] %.10f x[%d] %.10f\n", x[1], x[2], LEN - 1, x[LEN - 1]);
	for (int b = 0; b < NBUCKET; b++) {
		printf("bucket %d: %ld\n", b, hist[b]);
		checksum += (b + 1) * hist[b];
	}
	for (int k = 0; k < LEN; k++)
		checksum += x[k] * (k % 3 + 1);
	printf("checksum %.10f\n", checksum);
	return 0;
}
