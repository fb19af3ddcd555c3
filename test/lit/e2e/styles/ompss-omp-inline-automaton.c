// OmpSs tutorial style with inline tasks written with `#pragma omp`: the task
// directive `#pragma omp task in(...) out(...)` stands before a `{ ... }`
// block inside main's loops, using the loop's variables (captured when the
// block is reached). An integer cellular automaton on a grid with ghost
// rows, cut in row bands: each band task reads its band and one halo row on
// each side (`in(cur[r0-1;RB+2][0;W])`) and writes its band of the other grid
// (`out(nxt[r0;RB][0;W])`), the grids swapped through pointers every step.
// A per-band census task counts live cells (`out(census[b;1])`), a
// `priority(...)` on the bands next to the borders; every few steps the master
// waits for the whole census array only (`#pragma omp taskwait on(census)`),
// not for everything, and prints it; the next step's census tasks then
// overwrite it. A final `#pragma omp taskwait`.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: step 0 live
// CHECK: step 20 live
// CHECK: checksum

#include <stdio.h>

#define W 64
#define H 256
#define RB 16
#define NBANDS (H / RB)
#define STEPS 24
#define STATES 5

/* rows 0 and H + 1 are ghost rows that stay 0 */
static int grid_a[H + 2][W], grid_b[H + 2][W];
static long census[NBANDS];

int main(void)
{
	int (*cur)[W] = grid_a;
	int (*nxt)[W] = grid_b;
	long checksum = 0;

	for (int b = 0; b < NBANDS; b++) {
		int r0 = 1 + b * RB;
#pragma omp task out(cur[r0;RB][0;W])
		{
			for (int i = r0; i < r0 + RB; i++)
				for (int j = 0; j < W; j++)
					cur[i][j] = ((i * 131 + j * 71) % 97) < 29 ? (i + j) % STATES : 0;
		}
	}

	for (int step = 0; step < STEPS; step++) {
		for (int b = 0; b < NBANDS; b++) {
			int r0 = 1 + b * RB;
#pragma omp task in(cur[r0-1;RB+2][0;W]) out(nxt[r0;RB][0;W]) priority(b == 0 || b == NBANDS - 1)
			{
				for (int i = r0; i < r0 + RB; i++) {
					for (int j = 0; j < W; j++) {
						int jl = (j + W - 1) % W, jr = (j + 1) % W;
						int s = cur[i - 1][jl] + cur[i - 1][j] + cur[i - 1][jr] +
						        cur[i][jl] + cur[i][jr] +
						        cur[i + 1][jl] + cur[i + 1][j] + cur[i + 1][jr];
						int me = cur[i][j];
						if (me == 0)
							nxt[i][j] = (s % 7 == 3) ? 1 + (s % (STATES - 1)) : 0;
						else
							nxt[i][j] = (s > 4 * STATES) ? 0 : (me + s) % STATES;
					}
				}
			}
		}

		for (int b = 0; b < NBANDS; b++) {
			int r0 = 1 + b * RB;
#pragma omp task in(nxt[r0;RB][0;W]) out(census[b;1])
			{
				long live = 0;
				for (int i = r0; i < r0 + RB; i++)
					for (int j = 0; j < W; j++)
						live += nxt[i][j] != 0;
				census[b] = live;
			}
		}

		int (*t)[W] = cur;
		cur = nxt;
		nxt = t;

		if (step % 4 == 0) {
			long live = 0;
#pragma omp taskwait on(census)
			for (int b = 0; b < NBANDS; b++)
				live += census[b];
			printf("step %d live %ld bands", step, live);
			for (int b = 0; b < NBANDS; b += 4)
				printf(" %ld", census[b]);
			printf("\n");
		}
	}
#pragma omp taskwait

	for (int i = 1; i <= H; i++)
		for (int j = 0; j < W; j++)
			checksum += (long)cur[i][j] * ((i * 7 + j * 3) % 13 + 1);
	printf("checksum %ld\n", checksum);
	return 0;
}
