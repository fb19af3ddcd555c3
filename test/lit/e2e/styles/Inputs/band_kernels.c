/* band_kernels.c -- the kernels of band_tasks.h and the globals they use. */
#include "band_tasks.h"

double grid[NR][NC];
double rowsum[NR];

void band_fill(double (*g)[NC], int r0, int seed)
{
	int i, j;
	unsigned s = 2166136261u ^ (unsigned)seed;

	for (i = r0; i < r0 + RB; i++)
		for (j = 0; j < NC; j++) {
			s = (s ^ (unsigned)(i * NC + j)) * 16777619u;
			g[i][j] = (double)(s % 1000u) / 64.0 - 7.0;
		}
}

void band_scale(double (*g)[NC], int r0, const double *w)
{
	int i, j;

	for (i = r0; i < r0 + RB; i++)
		for (j = 0; j < NC; j++)
			g[i][j] = g[i][j] * w[j] + w[(j + i) % NC] / 3.0;
}

void band_rowsum(double (*g)[NC], int r0, double *s)
{
	int i, j;

	for (i = r0; i < r0 + RB; i++) {
		double t = 0.0;
		for (j = 0; j < NC; j++)
			t += g[i][j] / (double)(j + 1);
		s[i] = t;
	}
}
