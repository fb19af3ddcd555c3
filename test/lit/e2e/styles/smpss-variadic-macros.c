/* Task calls inside variadic macros, as C codes wrap their kernels for
 * tracing and timing: `TIMED(name, ...)` runs `__VA_ARGS__` (a whole call,
 * commas and all) between two counters, `REPEAT(n, ...)` puts it in a loop,
 * `WHEN(c, ...)` under an `if`, `LOG_CALL(tag, ...)` counts, prints its tag
 * and runs the call, all in one comma expression, `PAIR(a, b)` runs two calls; a call spread over several lines of
 * a macro's argument, and a macro argument that is itself another variadic
 * macro's use. The update is not commutative, so an order lost, or a call
 * dropped or doubled, changes the result. (A macro that prints
 * `#__VA_ARGS__` is in smpss-macro-stringized-call.c.) */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: call: step v 3
// CHECK: timed 4 calls 3
// CHECK: v

#include <stdio.h>

#define N 16

static int ncalls, ntimed;

#define TIMED(name, ...)                                                       \
	do {                                                                   \
		ntimed++;                                                      \
		__VA_ARGS__;                                                   \
		ntimed++;                                                      \
	} while (0)
#define REPEAT(n, ...)                                                         \
	do {                                                                   \
		int rep_;                                                      \
		for (rep_ = 0; rep_ < (n); rep_++)                             \
			__VA_ARGS__;                                           \
	} while (0)
#define WHEN(c, ...) if (c) { __VA_ARGS__; }
#define LOG_CALL(tag, ...) (printf("call: %s\n", tag), ncalls++, __VA_ARGS__)
#define PAIR(a, b) do { a; b; } while (0)

#pragma css task inout(v[N]) input(k, f)
void step(double *v, int k, double f);

#pragma css task input(src[N]) inout(dst[N])
void mix(const double *src, double *dst);

int main(void)
{
	double v[N], w[N];
	int i;
	for (i = 0; i < N; i++) {
		v[i] = i * 0.5;
		w[i] = 1.0 - i * 0.125;
	}
	TIMED("first", step(v, 1, 0.5));
	REPEAT(3, step(w, 2, 1.25));
	WHEN(ncalls == 0, step(v, 2, 0.75), mix(w, v));
	LOG_CALL("step v 3", step(v, 3, 1.5));
	PAIR(mix(v, w), step(w, 4, 0.25));
	TIMED("spread", step(v,
	                     5,
	                     2.0));
	TIMED("nested", REPEAT(2, mix(w, v)));
	TIMED("pair", PAIR(step(v, 6, 0.5), mix(v, w)));
	for (i = 0; i < 3; i++)
		WHEN(i != 1, LOG_CALL("step w", step(w, 7 + i, 0.5)))
#pragma css barrier
	printf("timed %d calls %d\n", ntimed / 2, ncalls);
	printf("v");
	for (i = 0; i < N; i++)
		printf(" %a", v[i]);
	printf("\nw");
	for (i = 0; i < N; i++)
		printf(" %a", w[i]);
	printf("\n");
	return 0;
}

void step(double *v, int k, double f)
{
	int i;
	for (i = 0; i < N; i++)
		v[i] = v[i] * f + k + i * 0.03125;
}

void mix(const double *src, double *dst)
{
	int i;
	for (i = 0; i < N; i++)
		dst[i] = 0.5 * dst[i] + 0.5 * src[N - 1 - i];
}
