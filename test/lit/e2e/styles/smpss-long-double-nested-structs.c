/* Scalars and structs by value beyond int and double: `long double` step
 * and tolerance passed by value (`input(h)`), `long double` arrays as
 * regions (`inout(y[n])`), a `_Bool` flag by value, and nested structs by
 * value: a `struct config` holding a `struct range` of two long doubles, a
 * `struct stencil` with a fixed `float w[5]` array, an enum and a `_Bool`,
 * passed whole to a task (`input(cfg)`) and returned through an
 * `output(*res)` of a struct holding a struct. Integrates y' = -k y with
 * Runge-Kutta in long double; printed with %La. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: rk 0
// CHECK: rk 3
// CHECK: smooth

#include <stdio.h>

#define NV 64
#define CH 16

enum mode { MODE_PLAIN = 1, MODE_WEIGHTED = 7 };

struct range {
	long double lo;
	long double hi;
};

struct stencil {
	float w[5];
	enum mode mode;
	_Bool periodic;
};

struct config {
	int id;
	struct range clip;
	struct stencil st;
	char tag[6];
};

struct summary {
	struct range seen;
	long double sum;
	int count;
	char tag[6];
};

#pragma css task input(n, h, half, k[n]) inout(y[n])
void rk4_chunk(int n, long double h, _Bool half, const long double *k, long double *y)
{
	int i;
	long double hh = half ? h / 2.0L : h;

	for (i = 0; i < n; i++) {
		long double k1 = -k[i] * y[i];
		long double k2 = -k[i] * (y[i] + hh * k1 / 2.0L);
		long double k3 = -k[i] * (y[i] + hh * k2 / 2.0L);
		long double k4 = -k[i] * (y[i] + hh * k3);
		y[i] += hh * (k1 + 2.0L * k2 + 2.0L * k3 + k4) / 6.0L;
	}
}

#pragma css task input(cfg, lo, src[NV]) output(dst[lo;CH])
void smooth_chunk(struct config cfg, int lo, const long double *src, long double *dst)
{
	int i, d;

	for (i = lo; i < lo + CH; i++) {
		long double s = 0.0L;
		for (d = -2; d <= 2; d++) {
			int j = i + d;
			if (j < 0 || j >= NV) {
				if (!cfg.st.periodic)
					continue;
				j = (j + NV) % NV;
			}
			s += (long double)cfg.st.w[d + 2] * src[j];
		}
		if (cfg.st.mode == MODE_WEIGHTED)
			s *= (long double)(cfg.id + 1) / 8.0L;
		if (s < cfg.clip.lo)
			s = cfg.clip.lo;
		if (s > cfg.clip.hi)
			s = cfg.clip.hi;
		dst[i] = s;
	}
}

#pragma css task input(cfg, n, v[n]) output(*res)
void summarize(struct config cfg, int n, const long double *v, struct summary *res)
{
	int i;
	struct summary s;

	s.seen.lo = v[0];
	s.seen.hi = v[0];
	s.sum = 0.0L;
	s.count = 0;
	for (i = 0; i < n; i++) {
		if (v[i] < s.seen.lo) s.seen.lo = v[i];
		if (v[i] > s.seen.hi) s.seen.hi = v[i];
		if (v[i] > (cfg.clip.lo + cfg.clip.hi) / 2.0L)
			s.count++;
		s.sum += v[i];
	}
	for (i = 0; i < 6; i++)
		s.tag[i] = cfg.tag[i];
	*res = s;
}

int main(void)
{
	long double y[NV], k[NV], z[NV];
	struct config cfg[2] = {
		{ 0, { -0.5L, 12.0L }, { { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f }, MODE_PLAIN, 1 }, "plain" },
		{ 1, { 0.0L, 9.0L }, { { -0.125f, 0.5f, 1.25f, 0.5f, -0.125f }, MODE_WEIGHTED, 0 }, "wtd" },
	};
	struct summary res[2];
	long double h = 1.0L / 64.0L;
	int i, step, c, lo;

	for (i = 0; i < NV; i++) {
		y[i] = 1.0L + (long double)i / 3.0L;
		k[i] = (long double)(i % 7 + 1) / 10.0L;
	}

	for (step = 0; step < 4; step++) {
		for (lo = 0; lo < NV; lo += CH)
			rk4_chunk(CH, h, (_Bool)(step & 1), k + lo, y + lo);
#pragma css wait on(y)
		{
			long double t = 0.0L;
			for (i = 0; i < NV; i++)
				t += y[i];
			printf("rk %d %La\n", step, t);
		}
		h = h * 1.5L;
	}

	for (c = 0; c < 2; c++) {
		for (lo = 0; lo < NV; lo += CH)
			smooth_chunk(cfg[c], lo, y, z);
		summarize(cfg[c], NV, z, &res[c]);
		cfg[c].clip.hi += 100.0L;       /* the tasks have their own copies */
		cfg[c].st.w[2] = -9.0f;
	}
#pragma css barrier
	for (c = 0; c < 2; c++)
		printf("smooth %s %La %La %La %d\n", res[c].tag, res[c].seen.lo, res[c].seen.hi,
		       res[c].sum, res[c].count);
	return 0;
}
