/* C99 `float _Complex` in a CellSs/SMPSs signal code: a twiddle passed by
 * value (`input(w)`), arrays of `float _Complex` in and out, a complex
 * scalar result `output(*peak)`, and a scratch buffer that a task writes
 * with `output(tmp[N])` and never reads, over 40 rounds (write after read
 * and write after write on one buffer, each round, which renaming removes);
 * one accumulator `inout(acc[N])` is the only true chain. The master
 * computes the twiddles by repeated multiplication. Printed with %a, so a
 * bit lost in the by-value complex argument shows. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: acc 0
// CHECK: acc 255
// CHECK: peak

#include <complex.h>
#include <stdio.h>

#define N 256
#define ROUNDS 40

static float _Complex sig[N], tmp[N], acc[N];
static float _Complex peak;

#pragma css task input(n, w, src[n]) output(dst[n])
void rotate(int n, float _Complex w, const float _Complex *src, float _Complex *dst)
{
	float _Complex z = 1.0f;
	int i;
	for (i = 0; i < n; i++) {
		dst[i] = src[i] * z;
		z *= w;
	}
}

#pragma css task input(n, src[n], g) inout(dst[n])
void accumulate(int n, const float _Complex *src, float g, float _Complex *dst)
{
	int i;
	for (i = 0; i < n; i++)
		dst[i] = dst[i] * g + src[i];
}

#pragma css task input(n, v[n]) output(*peak)
void find_peak(int n, const float _Complex *v, float _Complex *peak)
{
	int i;
	float best = -1;
	for (i = 0; i < n; i++) {
		float m = crealf(v[i]) * crealf(v[i]) + cimagf(v[i]) * cimagf(v[i]);
		if (m > best) {
			best = m;
			*peak = v[i];
		}
	}
}

int main(void)
{
	float _Complex w = 1.0f, step = 0.9990482f + 0.0436194f * I;
	int r, i;

	for (i = 0; i < N; i++)
		sig[i] = (float)((i * 37) % 19) / 8.0f - (float)((i * 11) % 7) / 4.0f * I;
	for (r = 0; r < ROUNDS; r++) {
		w *= step;
		rotate(N, w, sig, tmp);
		accumulate(N, tmp, 0.875f, acc);
	}
	find_peak(N, acc, &peak);
#pragma css barrier
	for (i = 0; i < N; i++)
		printf("acc %d %a %a\n", i, crealf(acc[i]), cimagf(acc[i]));
	printf("peak %a %a tmp %a %a\n", crealf(peak), cimagf(peak), crealf(tmp[N - 1]), cimagf(tmp[N - 1]));
	return 0;
}
