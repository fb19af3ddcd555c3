/*
 * band_tasks.h -- the task interface of smpss-split-units.c: annotated
 * prototypes, the globals the tasks work on (defined in band_kernels.c),
 * and one small task defined here, static inline, so that every unit that
 * includes this header has its own copy of it.
 */
#ifndef BAND_TASKS_H
#define BAND_TASKS_H

#define NR 32   /* rows of the grid */
#define NC 24   /* columns */
#define RB 8    /* rows per band */

extern double grid[NR][NC];
extern double rowsum[NR];

#pragma css task input(r0, seed) output(g[r0;RB][0;NC])
void band_fill(double (*g)[NC], int r0, int seed);

#pragma css task input(r0, w[NC]) inout(g[r0;RB][0;NC])
void band_scale(double (*g)[NC], int r0, const double *w);

#pragma css task input(r0, g[r0;RB][0;NC]) output(s[r0;RB])
void band_rowsum(double (*g)[NC], int r0, double *s);

#pragma css task input(n, src[n]) inout(dst[n])
static inline void vadd(int n, const double *src, double *dst)
{
	int i;
	for (i = 0; i < n; i++)
		dst[i] = dst[i] * 0.5 + src[i];
}

/* band_driver.c */
void driver_round(int round);
double driver_total(void);

#endif
