/* band_driver.c -- calls the tasks of band_tasks.h from another unit, on
 * the globals of band_kernels.c and on this unit's own static arrays. */
#include "band_tasks.h"

static double weights[NC];
static double acc[NR];

void driver_round(int round)
{
	int j, r0;

	/* the previous round's band_scale tasks read weights */
#pragma css wait on(weights)
	for (j = 0; j < NC; j++)
		weights[j] = 1.0 + (double)((j * 7 + round * 3) % 11) / 16.0;

	for (r0 = 0; r0 < NR; r0 += RB)
		band_scale(grid, r0, weights);
	for (r0 = 0; r0 < NR; r0 += RB)
		band_rowsum(grid, r0, rowsum);
	vadd(NR, rowsum, acc);
}

double driver_total(void)
{
	int i;
	double t = 0.0;

#pragma css wait on(acc)
	for (i = 0; i < NR; i++)
		t += acc[i] * (double)(i + 1);
	return t;
}
