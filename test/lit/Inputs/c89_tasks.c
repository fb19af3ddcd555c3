/* A StarSs program in ANSI C, as old codes are built: -std=c89 or -ansi,
 * declarations at the top of blocks, comments in slashes and stars. */
#include <stdio.h>
#include <stdlib.h>

#define NB 4
#define BS 8

struct stats {
	double sum;
	int count;
};

#pragma css task input(n) inout(a[n])
static void scale(int n, double *a);

#pragma css task input(a[BS][BS]) inout(s)
static void accumulate(double a[BS][BS], struct stats *s);

static void scale(int n, double *a)
{
	int i;

	for (i = 0; i < n; i++)
		a[i] = 2.0 * a[i] + 1.0;
}

static void accumulate(double a[BS][BS], struct stats *s)
{
	int i, j;

	for (i = 0; i < BS; i++)
		for (j = 0; j < BS; j++)
			s->sum += a[i][j];
	s->count++;
}

int main(void)
{
	double *blocks[NB];
	struct stats s;
	int b, i;

	s.sum = 0.0;
	s.count = 0;
	for (b = 0; b < NB; b++) {
		blocks[b] = (double *)malloc(BS * BS * sizeof(double));
		for (i = 0; i < BS * BS; i++)
			blocks[b][i] = (double)(b + i % 3);
	}
	for (b = 0; b < NB; b++)
		scale(BS * BS, blocks[b]);
	for (b = 0; b < NB; b++)
		accumulate((double (*)[BS])blocks[b], &s);
#pragma css wait on(s)
	printf("blocks %d sum %.1f\n", s.count, s.sum);
#pragma css barrier
	for (b = 0; b < NB; b++)
		free(blocks[b]);
	return 0;
}
