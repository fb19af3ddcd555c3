// SMPSs wavefront dynamic programming: Smith-Waterman local alignment and
// then the longest common subsequence of two DNA strings, on a hypermatrix
// of tile pointers `int *H[NT][NT]`. Each tile task names its upper, left and
// upper-left neighbour tiles whole (`input(up[BS][BS], left[BS][BS],
// diag[BS][BS])`), so the dependences run along the anti-diagonals; border
// tiles get one shared zero tile for all three (one buffer under three
// inputs of one task). The diagonal tiles are `priority(ti == tj)`, the
// per-tile maximum is an `output(*best)` pointee, the master follows the
// wavefront with `wait on(H[NT-1][j])` on the tile pointers of the last tile
// row, and the LCS pass reuses the same tiles after a barrier and is waited
// for with OmpSs's `taskwait on(*H[NT-1][NT-1])`.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: band 7 best
// CHECK: sw score
// CHECK: lcs length
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define BS 32
#define NT 8
#define N (NT * BS)

#define MATCH 3
#define MISMATCH (-2)
#define GAP 2

#pragma css task input(a[BS], b[BS], up[BS][BS], left[BS][BS], diag[BS][BS]) \
	output(cur[BS][BS], *best) input(ti, tj) priority(ti == tj)
void sw_tile(const char *a, const char *b, const int *up, const int *left,
	     const int *diag, int *cur, int *best, int ti, int tj);

#pragma css task input(a[BS], b[BS], up[BS][BS], left[BS][BS], diag[BS][BS]) \
	output(cur[BS][BS])
void lcs_tile(const char *a, const char *b, const int *up, const int *left,
	      const int *diag, int *cur);

static char seqA[N], seqB[N];
static int zero_tile[BS * BS];
int *H[NT][NT];
int best[NT][NT];

static unsigned long lcg_state = 12345;

static unsigned lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(lcg_state >> 33);
}

static void make_sequences(void)
{
	static const char alphabet[4] = { 'A', 'C', 'G', 'T' };
	int i, k = 0;

	for (i = 0; i < N; i++)
		seqA[i] = alphabet[lcg() % 4];
	/* B is A with point mutations, a few insertions and deletions */
	for (i = 0; i < N && k < N; i++) {
		unsigned r = lcg() % 100;
		if (r < 8)
			seqB[k++] = alphabet[lcg() % 4];
		else if (r < 11)
			continue;
		else if (r < 14 && k + 1 < N) {
			seqB[k++] = alphabet[lcg() % 4];
			seqB[k++] = seqA[i];
		} else
			seqB[k++] = seqA[i];
	}
	while (k < N)
		seqB[k++] = alphabet[lcg() % 4];
}

/* the neighbours of tile (i, j); outside the matrix, the zero tile */
#define UP(i, j) ((i) > 0 ? H[(i) - 1][j] : zero_tile)
#define LEFT(i, j) ((j) > 0 ? H[i][(j) - 1] : zero_tile)
#define DIAG(i, j) ((i) > 0 && (j) > 0 ? H[(i) - 1][(j) - 1] : zero_tile)

int main(void)
{
	int i, j, k, sw = 0;
	long checksum = 0;

	make_sequences();
	for (i = 0; i < NT; i++)
		for (j = 0; j < NT; j++) {
			H[i][j] = (int *)malloc(BS * BS * sizeof(int));
			if (!H[i][j]) {
				fprintf(stderr, "out of memory\n");
				return 2;
			}
		}

	/* Smith-Waterman: the tiles in row-major order, a wavefront at run time */
	for (i = 0; i < NT; i++)
		for (j = 0; j < NT; j++)
			sw_tile(&seqA[i * BS], &seqB[j * BS], UP(i, j), LEFT(i, j),
				DIAG(i, j), H[i][j], &best[i][j], i, j);

	/* follow the front along the last tile row */
	for (j = 0; j < NT; j++) {
		int m = 0;
#pragma css wait on(H[NT - 1][j])
		for (k = 0; k < BS; k++)
			if (H[NT - 1][j][(BS - 1) * BS + k] > m)
				m = H[NT - 1][j][(BS - 1) * BS + k];
		printf("band %d best %d\n", j, m);
	}
#pragma css barrier
	for (i = 0; i < NT; i++)
		for (j = 0; j < NT; j++) {
			if (best[i][j] > sw)
				sw = best[i][j];
			checksum += (long)best[i][j] * (i + 2 * j + 1);
		}
	printf("sw score %d\n", sw);

	/* LCS in the same tiles */
	for (i = 0; i < NT; i++)
		for (j = 0; j < NT; j++)
			lcs_tile(&seqA[i * BS], &seqB[j * BS], UP(i, j), LEFT(i, j),
				 DIAG(i, j), H[i][j]);
#pragma css taskwait on(*H[NT - 1][NT - 1])
	printf("lcs length %d\n", H[NT - 1][NT - 1][BS * BS - 1]);

#pragma css barrier
	for (i = 0; i < NT; i++)
		for (j = 0; j < NT; j++)
			for (k = 0; k < BS * BS; k += 7)
				checksum += H[i][j][k] * (k % 5 + 1);
	printf("checksum %ld\n", checksum);

	for (i = 0; i < NT; i++)
		for (j = 0; j < NT; j++)
			free(H[i][j]);
	return 0;
}

static int max2(int x, int y)
{
	return x > y ? x : y;
}

/* the three neighbours of cell (r, c) of a tile, from the tile itself or
 * from the edges of the neighbour tiles */
#define NORTH(r, c) ((r) > 0 ? cur[((r) - 1) * BS + (c)] : up[(BS - 1) * BS + (c)])
#define WEST(r, c) ((c) > 0 ? cur[(r) * BS + (c) - 1] : left[(r) * BS + BS - 1])
#define NORTHWEST(r, c)                                                        \
	((r) > 0 && (c) > 0 ? cur[((r) - 1) * BS + (c) - 1] :                  \
	 (r) > 0	    ? left[((r) - 1) * BS + BS - 1] :                   \
	 (c) > 0	    ? up[(BS - 1) * BS + (c) - 1] :                     \
			      diag[BS * BS - 1])

void sw_tile(const char *a, const char *b, const int *up, const int *left,
	     const int *diag, int *cur, int *best, int ti, int tj)
{
	int r, c, m = 0;

	(void)ti;
	(void)tj;
	for (r = 0; r < BS; r++)
		for (c = 0; c < BS; c++) {
			int s = a[r] == b[c] ? MATCH : MISMATCH;
			int h = max2(0, NORTHWEST(r, c) + s);
			h = max2(h, NORTH(r, c) - GAP);
			h = max2(h, WEST(r, c) - GAP);
			cur[r * BS + c] = h;
			m = max2(m, h);
		}
	*best = m;
}

void lcs_tile(const char *a, const char *b, const int *up, const int *left,
	      const int *diag, int *cur)
{
	int r, c;

	for (r = 0; r < BS; r++)
		for (c = 0; c < BS; c++)
			cur[r * BS + c] = a[r] == b[c] ?
						  NORTHWEST(r, c) + 1 :
						  max2(NORTH(r, c), WEST(r, c));
}
