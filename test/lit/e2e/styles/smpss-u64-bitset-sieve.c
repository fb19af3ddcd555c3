/* Bit sets in `uint64_t` words, as sieve and graph codes keep them: a
 * segmented sieve of Eratosthenes whose segment tasks clear multiples in
 * `inout(bits[w0;nw])` reading the small primes `input(pr[0;np])`
 * (`uint32_t`); a shift of a whole set by k bits into another set, whose
 * segment tasks read one word of the previous segment
 * (`input(src[w0-1;nw+1])`, a guard word in front), an AND of two sets
 * into a third, a `_Bool` by value choosing AND or AND-NOT, and
 * `uint64_t` popcounts and XOR hashes per segment `output(cnt[s;1])`,
 * `inout(*hash)`. Counts primes and twin primes below 64 * NW. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// CHECK: primes 3512
// CHECK: twins 505
// STATS: css-stats: tasks={{[1-9]}}

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NW 512          /* words: numbers below 32768 */
#define SEG 64          /* words per segment */
#define NSEG (NW / SEG)

/* bits[1 + w] holds numbers 64*w .. 64*w+63; bits[0] is a guard word */

#pragma css task input(w0, nw, np, pr[0;np]) output(bits[w0;nw])
void sieve_seg(uint64_t *bits, long w0, int nw, const uint32_t *pr, int np)
{
	long lo = (w0 - 1) * 64, hi = lo + (long)nw * 64;
	long w, m;
	int k;

	for (w = w0; w < w0 + nw; w++)
		bits[w] = ~UINT64_C(0);
	if (lo == 0)
		bits[w0] &= ~UINT64_C(3);       /* 0 and 1 */
	for (k = 0; k < np; k++) {
		long p = pr[k];
		long start = p * p;
		if (start < lo)
			start = (lo + p - 1) / p * p;
		for (m = start; m < hi; m += p)
			bits[1 + m / 64] &= ~(UINT64_C(1) << (m % 64));
	}
}

/* dst = src << k (towards larger numbers), 0 < k < 64 */
#pragma css task input(w0, nw, k, src[w0-1;nw+1]) output(dst[w0;nw])
void shl_seg(const uint64_t *src, uint64_t *dst, long w0, int nw, unsigned k)
{
	long w;

	for (w = w0; w < w0 + nw; w++)
		dst[w] = (src[w] << k) | (src[w - 1] >> (64 - k));
}

#pragma css task input(w0, nw, invert, a[w0;nw], b[w0;nw]) output(c[w0;nw])
void and_seg(const uint64_t *a, const uint64_t *b, uint64_t *c, long w0, int nw, _Bool invert)
{
	long w;

	for (w = w0; w < w0 + nw; w++)
		c[w] = invert ? (a[w] & ~b[w]) : (a[w] & b[w]);
}

#pragma css task input(w0, nw, s[w0;nw]) output(cnt[0;1]) inout(*hash)
void count_seg(const uint64_t *s, long w0, int nw, uint64_t *cnt, uint64_t *hash)
{
	long w;
	uint64_t c = 0, h = *hash;

	for (w = w0; w < w0 + nw; w++) {
		c += (uint64_t)__builtin_popcountll(s[w]);
		h = (h ^ s[w]) * UINT64_C(0x100000001b3);
		h ^= h >> 29;
	}
	*cnt = c;
	*hash = h;
}

static uint64_t total(const uint64_t *c)
{
	uint64_t t = 0;
	int s;

	for (s = 0; s < NSEG; s++)
		t += c[s];
	return t;
}

int main(void)
{
	uint64_t *P = calloc(NW + 1, sizeof *P);
	uint64_t *Q = calloc(NW + 1, sizeof *Q);
	uint64_t *T = calloc(NW + 1, sizeof *T);
	uint64_t cnt[NSEG], hash = UINT64_C(14695981039346656037);
	uint32_t small[64];
	int np = 0, s;
	uint32_t n, d;
	bool lonely;

	for (n = 2; n * n < 64 * NW; n++) {
		for (d = 2; d * d <= n; d++)
			if (n % d == 0)
				break;
		if (d * d > n)
			small[np++] = n;
	}

	for (s = 0; s < NSEG; s++)
		sieve_seg(P, 1 + (long)s * SEG, SEG, small, np);
	for (s = 0; s < NSEG; s++)
		count_seg(P, 1 + (long)s * SEG, SEG, &cnt[s], &hash);
#pragma css wait on(cnt, hash)
	printf("primes %llu hash %016llx\n", (unsigned long long)total(cnt), (unsigned long long)hash);

	/* twin primes: p and p + 2 both prime, i.e. bit n set in P and in P << 2 */
	for (lonely = false; ; lonely = true) {
		for (s = 0; s < NSEG; s++)
			shl_seg(P, Q, 1 + (long)s * SEG, SEG, 2);
		for (s = 0; s < NSEG; s++)
			and_seg(P, Q, T, 1 + (long)s * SEG, SEG, lonely);
		for (s = 0; s < NSEG; s++)
			count_seg(T, 1 + (long)s * SEG, SEG, &cnt[s], &hash);
#pragma css wait on(cnt[0;NSEG], hash)
		printf("%s %llu hash %016llx\n", lonely ? "not-upper-twin" : "twins",
		       (unsigned long long)total(cnt), (unsigned long long)hash);
		if (lonely)
			break;
	}

	/* shift by 63 and 1 twice more on the result: carries across words */
	for (s = 0; s < NSEG; s++)
		shl_seg(T, Q, 1 + (long)s * SEG, SEG, 63);
	for (s = 0; s < NSEG; s++)
		shl_seg(Q, T, 1 + (long)s * SEG, SEG, 1);
	for (s = 0; s < NSEG; s++)
		count_seg(T, 1 + (long)s * SEG, SEG, &cnt[s], &hash);
#pragma css barrier
	printf("shifted %llu hash %016llx last %016llx\n", (unsigned long long)total(cnt),
	       (unsigned long long)hash, (unsigned long long)T[NW]);
	free(P); free(Q); free(T);
	return 0;
}
