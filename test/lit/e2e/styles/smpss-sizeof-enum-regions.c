/* Region sizes written with `sizeof` and enumerators, as C codes that pack
 * records into byte buffers write them: `input(raw[NREC * sizeof(rec_t)])`
 * on an `unsigned char *`, `output(keys[sizeof(rec_t) / sizeof(int) * NREC])`,
 * `inout(p[sizeof(block_t) / sizeof *p])`, a shape `[NREC][sizeof(rec_t) /
 * sizeof(double)]out`, sizes from an `enum { BLK = 48, ... }` and a section
 * `hist[BIN_LO;BIN_HI - BIN_LO]` of enumerators; `main` stands before the
 * task definitions, which follow annotated prototypes; `#pragma css
 * barrier` inside the rounds loop. Printed with %a. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: round 0
// CHECK: round 3
// CHECK: hist

#include <stdio.h>
#include <string.h>

enum { NREC = 48, NCHUNK = 6, NBINS = 16, BIN_LO = 4, BIN_HI = 12 };

typedef struct {
	int key;
	int pad;
	double val[3];
} rec_t;

typedef struct {
	double sum, sq;
	long n;
	long pad;
} block_t;

#pragma css task input(raw[NREC * sizeof(rec_t)]) output(keys[sizeof(rec_t) / sizeof(int) * NREC])
void unpack_keys(const unsigned char *raw, int *keys);

#pragma css task input(raw[NREC * sizeof(rec_t)]) output([NREC][sizeof(rec_t) / sizeof(double)]out)
void unpack_vals(const unsigned char *raw, double *out);

#pragma css task input([NREC][sizeof(rec_t) / sizeof(double)]vals) inout(p[sizeof(block_t) / sizeof *p])
void summarize(const double *vals, long *p);

#pragma css task input(keys[sizeof(rec_t) / sizeof(int) * NREC]) inout(hist[BIN_LO;BIN_HI - BIN_LO])
void bin_keys(const int *keys, long *hist);

static unsigned char buf[NCHUNK][NREC * sizeof(rec_t)];
static int keys[NCHUNK][sizeof(rec_t) / sizeof(int) * NREC];
static double vals[NCHUNK][NREC * (sizeof(rec_t) / sizeof(double))];
static block_t stats[NCHUNK];
static long hist[NBINS];

static void fill(int round)
{
	int c, r;
	for (c = 0; c < NCHUNK; c++)
		for (r = 0; r < NREC; r++) {
			rec_t rec;
			memset(&rec, 0, sizeof rec);
			rec.key = (r * 7 + c * 13 + round * 3) % 23;
			rec.val[0] = r * 0.5 + round;
			rec.val[1] = (c - r) * 0.25;
			rec.val[2] = 1.0 / (1 + r + c + round);
			memcpy(&buf[c][r * sizeof(rec_t)], &rec, sizeof rec);
		}
}

int main(void)
{
	int round, c;
	for (round = 0; round < 4; round++) {
		fill(round);
		for (c = 0; c < NCHUNK; c++) {
			unpack_keys(buf[c], keys[c]);
			unpack_vals(buf[c], vals[c]);
			summarize(vals[c], (long *)&stats[c]);
			bin_keys(keys[c], hist);
		}
#pragma css barrier
		for (c = 0; c < NCHUNK; c++)
			printf("round %d chunk %d sum %a sq %a n %ld\n", round, c, stats[c].sum, stats[c].sq, stats[c].n);
	}
	printf("hist");
	for (c = 0; c < NBINS; c++)
		printf(" %ld", hist[c]);
	printf("\n");
	return 0;
}

void unpack_keys(const unsigned char *raw, int *keys)
{
	int r;
	for (r = 0; r < NREC; r++) {
		rec_t rec;
		memcpy(&rec, raw + r * sizeof(rec_t), sizeof rec);
		keys[r * (sizeof(rec_t) / sizeof(int))] = rec.key;
		memset(&keys[r * (sizeof(rec_t) / sizeof(int)) + 1], 0, sizeof(rec_t) - sizeof(int));
	}
}

void unpack_vals(const unsigned char *raw, double *out)
{
	int r, k;
	for (r = 0; r < NREC; r++) {
		rec_t rec;
		memcpy(&rec, raw + r * sizeof(rec_t), sizeof rec);
		out[r * (sizeof(rec_t) / sizeof(double))] = rec.key;
		for (k = 0; k < 3; k++)
			out[r * (sizeof(rec_t) / sizeof(double)) + 1 + k] = rec.val[k];
	}
}

void summarize(const double *vals, long *p)
{
	block_t b;
	int r, k;
	memcpy(&b, p, sizeof b);
	for (r = 0; r < NREC; r++)
		for (k = 1; k < 4; k++) {
			double v = vals[r * (sizeof(rec_t) / sizeof(double)) + k];
			b.sum += v;
			b.sq += v * v;
			b.n++;
		}
	memcpy(p, &b, sizeof b);
}

void bin_keys(const int *keys, long *hist)
{
	int r;
	for (r = 0; r < NREC; r++) {
		int k = keys[r * (sizeof(rec_t) / sizeof(int))] % NBINS;
		if (k >= BIN_LO && k < BIN_HI)
			hist[k]++;
	}
}
