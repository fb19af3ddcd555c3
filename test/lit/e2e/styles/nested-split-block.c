// A task that splits its block into sub-tasks (OmpSs-2 nesting without a
// wait): `smooth_block` covers a whole row band of the grid and calls the
// `smooth_rows` task on each quarter of it, the quarters ordered by their
// own clauses; nothing in the parent waits for them. The master then reads
// the band through other tasks and a barrier.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: band 0
// CHECK: checksum

#include <stdio.h>

#define W 32
#define BAND 16
#define NBANDS 4
#define H (BAND * NBANDS)

static double grid[H][W];
static double sums[NBANDS];

#pragma css task input(r0, nr) inout(g[r0;nr][0;W])
void smooth_rows(double (*g)[W], int r0, int nr)
{
	for (int i = r0; i < r0 + nr; i++) {
		double prev = g[i][0];
		for (int j = 1; j < W - 1; j++) {
			double cur = g[i][j];
			g[i][j] = 0.25 * prev + 0.5 * cur + 0.25 * g[i][j + 1];
			prev = cur;
		}
	}
}

#pragma css task input(r0) inout(g[r0;BAND][0;W])
void smooth_block(double (*g)[W], int r0)
{
	for (int q = 0; q < 4; q++)
		smooth_rows(g, r0 + q * (BAND / 4), BAND / 4);
	for (int q = 0; q < 4; q++)
		smooth_rows(g, r0 + q * (BAND / 4), BAND / 4);
}

#pragma css task input(r0, g[r0;BAND][0;W]) output(s)
void band_sum(double (*g)[W], int r0, double *s)
{
	double t = 0;
	for (int i = r0; i < r0 + BAND; i++)
		for (int j = 0; j < W; j++)
			t += g[i][j] * (1 + j % 3);
	*s = t;
}

int main(void)
{
	double checksum = 0;

	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++)
			grid[i][j] = (double)((i * 7 + j * 3) % 10);
	for (int round = 0; round < 3; round++)
		for (int b = 0; b < NBANDS; b++)
			smooth_block(grid, b * BAND);
	for (int b = 0; b < NBANDS; b++)
		band_sum(grid, b * BAND, &sums[b]);
#pragma css barrier

	for (int b = 0; b < NBANDS; b++)
		printf("band %d %.10f\n", b, sums[b]);
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++)
			checksum += grid[i][j] * ((i + j) % 4);
	printf("checksum %.10f\n", checksum);
	return 0;
}
