// Several regions of one pointer, OmpSs-style sections inside css pragmas:
// a recurrence task `input(v[0;1]) output(v[1;1])` called on &x[i] (each
// call reads what the previous one wrote), tasks on the left and right
// halves of the same rows (their row spans interleave, their bytes do not),
// a task that reads one half and updates the other through one parameter,
// and staggered blocks whose rows overlap but whose columns do not.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: chain
// CHECK: checksum

#include <stdio.h>

#define LEN 64
#define H 12
#define W 16

static double x[LEN];
static double m[H][W];

#pragma css task input(v[0;1]) output(v[1;1])
void step(double *v)
{
	v[1] = 3.9 * v[0] * (1.0 - v[0]);   /* logistic map: no fixed point to settle on */
}

#pragma css task inout(a[0;H][0;W/2]) input(f)
void scale_left(double (*a)[W], double f)
{
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W / 2; j++)
			a[i][j] = a[i][j] * f + 1.0;
}

#pragma css task inout(a[0;H][W/2;W/2]) input(f)
void scale_right(double (*a)[W], double f)
{
	for (int i = 0; i < H; i++)
		for (int j = W / 2; j < W; j++)
			a[i][j] = a[i][j] * f - 1.0;
}

#pragma css task input(a[0;H][0;W/2]) inout(a[0;H][W/2;W/2])
void fold_left_into_right(double (*a)[W])
{
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W / 2; j++)
			a[i][W / 2 + j] += 0.25 * a[i][j];
}

/* Blocks of 4 rows x 4 columns, each one starting 2 rows lower and 4 columns
 * further right than the previous: the row ranges overlap, the bytes don't. */
#pragma css task input(r, c) inout(a[r;4][c;4])
void bump(double (*a)[W], int r, int c)
{
	for (int i = r; i < r + 4; i++)
		for (int j = c; j < c + 4; j++)
			a[i][j] += (double)(i - j) / 8.0;
}

int main(void)
{
	double checksum = 0.0;

	x[0] = 0.25;
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++)
			m[i][j] = (double)((i * W + j) % 11) / 4.0;

	for (int i = 0; i + 1 < LEN; i++)
		step(&x[i]);
	for (int round = 0; round < 3; round++) {
		scale_left(m, 1.5);
		scale_right(m, 0.5);
		fold_left_into_right(m);
		for (int b = 0; b < 4; b++)
			bump(m, 2 * b, 4 * b);
	}
#pragma css barrier

	printf("chain x[1] %.12f x[10] %.12f x[%d] %.12f\n", x[1], x[10], LEN - 1, x[LEN - 1]);
	for (int i = 0; i < H; i += 3)
		printf("row %2d: %.6f %.6f %.6f\n", i, m[i][0], m[i][W / 2], m[i][W - 1]);
	for (int i = 0; i < LEN; i++)
		checksum += x[i] * (i % 4 + 1);
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++)
			checksum += m[i][j] * ((i + j) % 3 + 1);
	printf("checksum %.9f\n", checksum);
	return 0;
}
