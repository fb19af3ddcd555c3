/* A producer/consumer pipeline over a ring of reused buffers, as streaming
 * CellSs codes double- and triple-buffer: round r's producer writes
 * `output(frame[FR])` into ring slot r % 3 (write after read on the slot
 * it reuses), a filter stage reads that slot and the previous round's
 * slot (`input(cur[FR], prev[FR])`) and writes a second ring of 2 slots,
 * a consumer folds each filtered frame into a running state
 * (`inout(state[8])`) and a per-round digest `output(dig[0;1])`; the master
 * reads the digests only every fourth round (`wait on(digest[r-3;4])`).
 * Renaming must keep each round's values apart. %a output. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: digests 3
// CHECK: digests 39
// CHECK: state

#include <stdio.h>

#define FR 512
#define NRING 3
#define NFILT 2
#define ROUNDS 40

static double ring[NRING][FR];
static double filt[NFILT][FR];
static double digest[ROUNDS];

#pragma css task input(r) output(frame[FR])
void produce(int r, double *frame)
{
	int i;
	unsigned s = 0x9e3779b9u * (unsigned)(r + 1);

	for (i = 0; i < FR; i++) {
		s ^= s << 13;
		s ^= s >> 17;
		s ^= s << 5;
		frame[i] = (double)(s % 4096u) / 256.0 - 8.0;
	}
}

#pragma css task input(cur[FR], prev[FR], alpha) output(out[FR])
void filter(const double *cur, const double *prev, double *out, double alpha)
{
	int i;

	out[0] = cur[0];
	for (i = 1; i < FR; i++)
		out[i] = alpha * (cur[i] - prev[i - 1]) + (1.0 - alpha) * cur[i - 1];
}

#pragma css task input(f[FR]) inout(state[8]) output(dig[0;1])
void consume(const double *f, double *state, double *dig)
{
	int i;
	double d = 0.0;

	for (i = 0; i < FR; i++) {
		state[i % 8] = state[i % 8] * 0.96875 + f[i] / 64.0;
		d += f[i] * (double)((i % 5) + 1);
	}
	*dig = d + state[0];
}

int main(void)
{
	double state[8] = { 0 };
	int r, i;

	for (i = 0; i < FR; i++)
		ring[NRING - 1][i] = 0.0;   /* round 0's previous frame */

	for (r = 0; r < ROUNDS; r++) {
		double *cur = ring[r % NRING];
		double *prev = ring[(r + NRING - 1) % NRING];
		double *out = filt[r % NFILT];

		produce(r, cur);
		filter(cur, prev, out, 0.25 + (double)(r % 4) / 8.0);
		consume(out, state, &digest[r]);
		if (r % 4 == 3) {
			double s = 0.0;
#pragma css wait on(digest[r-3;4])
			for (i = r - 3; i <= r; i++)
				s += digest[i];
			printf("digests %d %a\n", r, s);
		}
	}
#pragma css barrier
	for (i = 0; i < 8; i++)
		printf("state %d %a\n", i, state[i]);
	return 0;
}
