// OpenMP/OmpSs wavefront whose dependences are single elements of 2-D
// arrays, as OpenMP programs write them: a global `tile_t G[NT][NT]` of
// tile structs with `depend(out: G[i][j])` on a call-site task,
// `depend(in: G[i-1][j], G[i][j-1]) depend(inout: G[i][j])` on another,
// a task function whose pointer parameters are named by their first element
// (`depend(in: up[0], left[0]) depend(inout: t[0])`: element 0, not the
// StarSs "0 elements"), and inline task blocks on elements of a 2-D
// `double corner[NT][NT]` (`depend(out: corner[i][j])`) and of a 1-D
// accumulator (`depend(inout: rowsum[i])`), all inside `parallel` + `single`.
// Results printed with %a, so that any bit of difference shows.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: rowsum 0
// CHECK: rowsum 5
// CHECK: total

#include <stdio.h>

#define NT 6
#define BS 8

typedef struct {
	double v[BS][BS];
} tile_t;

static tile_t G[NT][NT];
static double corner[NT][NT];
static double rowsum[NT];

static void init_tile(tile_t *t, int i, int j)
{
	int r, c;
	for (r = 0; r < BS; r++)
		for (c = 0; c < BS; c++)
			t->v[r][c] = 1.0 / (1 + i + 2 * j + r + 3 * c);
}

#pragma omp task depend(in: up[0], left[0]) depend(inout: t[0])
void relax_tile(const tile_t *up, const tile_t *left, tile_t *t);

void relax_tile(const tile_t *up, const tile_t *left, tile_t *t)
{
	int r, c;
	for (r = 0; r < BS; r++)
		for (c = 0; c < BS; c++) {
			double n = r ? t->v[r - 1][c] : up->v[BS - 1][c];
			double w = c ? t->v[r][c - 1] : left->v[r][BS - 1];
			t->v[r][c] = 0.25 * t->v[r][c] + 0.375 * n + 0.375 * w;
		}
}

int main(void)
{
	int i, j;
	double total = 0;

#pragma omp parallel
#pragma omp single
	{
		for (i = 0; i < NT; i++)
			for (j = 0; j < NT; j++) {
				if (i == 0 || j == 0) {
#pragma omp task depend(out: G[i][j])
					init_tile(&G[i][j], i, j);
				} else {
					init_tile(&G[i][j], j, i); /* plain call: no task reads G[i][j] yet */
#pragma omp task depend(in: G[i-1][j], G[i][j-1]) depend(inout: G[i][j])
					relax_tile(&G[i - 1][j], &G[i][j - 1], &G[i][j]);
				}
#pragma omp task depend(in: G[i][j]) depend(out: corner[i][j])
				{
					corner[i][j] = G[i][j].v[BS - 1][BS - 1] + G[i][j].v[0][0];
				}
			}
		/* a second pass through the tiles that reuses the wavefront */
		for (i = 1; i < NT; i++)
			for (j = 1; j < NT; j++)
				relax_tile(&G[i - 1][j], &G[i][j - 1], &G[i][j]);
		for (i = 0; i < NT; i++)
			for (j = 0; j < NT; j++) {
#pragma omp task depend(in: corner[i][j], G[i][j]) depend(inout: rowsum[i])
				{
					rowsum[i] = rowsum[i] * 0.5 + corner[i][j] + G[i][j].v[BS / 2][BS / 2];
				}
			}
#pragma omp taskwait
	}
	for (i = 0; i < NT; i++) {
		printf("rowsum %d %a\n", i, rowsum[i]);
		total += rowsum[i];
	}
	printf("total %a corner %a\n", total, corner[NT - 1][NT - 1]);
	return 0;
}
