/* Task calls where C's control flow puts them, as an interpreter-like SMPSs
 * driver writes them: in the cases of a `switch` (with a fall-through and a
 * local block array used by a task inside a case, left by `break`), in a
 * `do ... while` with a `continue`, in a loop made of `goto`, as the lone
 * statement of an `if` and of its `else` without braces, after a label, in
 * a `while (1)` left by `break`, in a `for` with an empty body part and a
 * comma expression. The operations do not commute, so an order lost shows.
 * Printed with %a. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: acc
// CHECK: v0
// CHECK: v3

#include <stdio.h>

#define N 64
#define NV 4

#pragma css task inout(v[N]) input(k)
void op_add(double *v, double k);

#pragma css task inout(v[N]) input(k)
void op_mul(double *v, double k);

#pragma css task input(src[N]) inout(dst[N])
void op_mix(const double *src, double *dst);

#pragma css task input(v[N]) inout(acc)
void op_fold(const double *v, double *acc);

#pragma css task output(t[N]) input(s)
void op_fill(double *t, double s);

static double V[NV][N];
static double acc;

static const unsigned char program[] = {0, 1, 2, 3, 1, 0, 4, 2, 5, 3, 0, 1, 2, 4, 5, 1, 3};

int main(void)
{
	int pc, i, k, r;

	for (i = 0; i < NV; i++)
		for (k = 0; k < N; k++)
			V[i][k] = (i + 1) * 0.5 + k / 64.0;

	for (pc = 0; pc < (int)sizeof program; pc++) {
		int a = pc % NV, b = (pc + 1) % NV;
		switch (program[pc]) {
		case 0:
			op_add(V[a], pc * 0.25);
			break;
		case 1:
			op_mul(V[a], 1.0 + pc / 32.0);
			/* fall through */
		case 2:
			op_mix(V[b], V[a]);
			break;
		case 3: {
			double tmp[N];
			op_fill(tmp, pc);
			op_mix(tmp, V[b]);
			break;
		}
		case 4:
			if (pc & 1)
				op_add(V[b], -1.0);
			else
				op_mul(V[b], 0.5);
			break;
		default:
			op_fold(V[a], &acc);
		}
	}

	k = 0;
	do {
		if (k % 3 == 1) {
			k++;
			continue;
		}
		op_mix(V[k % NV], V[(k + 2) % NV]);
		k++;
	} while (k < 7);

	r = 0;
again:
	op_mul(V[r % NV], 0.75);
	op_fold(V[r % NV], &acc);
	if (++r < 5)
		goto again;

	i = 0;
	while (1) {
		double local[N];
		op_fill(local, i * 1.5);
		op_mix(local, V[i % NV]);
		if (++i == 3)
			break;
	}

	for (i = 0, k = 1; i < NV; i++, k = -k)
		if (k > 0)
			op_add(V[i], 2.0);
		else if (i == 1)
			op_mul(V[i], -1.0);
		else
			op_fold(V[i], &acc);

#pragma css barrier
	printf("acc %a\n", acc);
	for (i = 0; i < NV; i++)
		printf("v%d %a %a %a\n", i, V[i][0], V[i][N / 2], V[i][N - 1]);
	return 0;
}

void op_add(double *v, double k)
{
	int i;
	for (i = 0; i < N; i++)
		v[i] += k;
}

void op_mul(double *v, double k)
{
	int i;
	for (i = 0; i < N; i++)
		v[i] = v[i] * k + 0.125;
}

void op_mix(const double *src, double *dst)
{
	int i;
	for (i = 0; i < N; i++)
		dst[i] = 0.5 * dst[i] + 0.25 * src[(i + 1) % N] + 0.25;
}

void op_fold(const double *v, double *acc)
{
	int i;
	for (i = 0; i < N; i++)
		*acc = *acc * 0.875 + v[i];
}

void op_fill(double *t, double s)
{
	int i;
	for (i = 0; i < N; i++)
		t[i] = s + i * 0.0625;
}
