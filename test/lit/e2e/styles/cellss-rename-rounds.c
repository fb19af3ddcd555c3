// CellSs style buffer reuse: one global scratch block `tmp` is written by
// every (round, block) pair (`output(tmp[BS])` then `input(tmp[BS])`), one
// global scalar `e` carries each block's energy to the round's accumulator,
// and two padded grids are swapped as `in`/`out` pointers every round
// (ping-pong with a halo: `input(in[BS + 2])` on the old grid,
// `output(out[BS])` one element further on the new one). Only write-after-
// read and write-after-write hazards separate the rounds, which CellSs and
// SMPSs removed by renaming; the program waits only once, with
// `#pragma css barrier` at the end, as the CellSs samples do.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: energy round 0
// CHECK: energy round 5
// CHECK: checksum

#include <stdio.h>

#define BS 512
#define NB 12
#define LEN (BS * NB)
#define ROUNDS 6

float signal[LEN];
float tmp[BS];
float e;
float energy[ROUNDS];
float gridA[LEN + 2], gridB[LEN + 2];

#pragma css task input(round, b) output(t[BS])
void fill_noise(int round, int b, float t[BS])
{
	unsigned s = 2166136261u ^ (unsigned)(round * 7919 + b * 104729);
	int i;

	for (i = 0; i < BS; i++) {
		s = s * 1664525u + 1013904223u;
		t[i] = (float)((s >> 9) % 2001) / 1000.0f - 1.0f;
	}
}

#pragma css task input(t[BS]) inout(blk[BS])
void mix(float t[BS], float blk[BS])
{
	int i;

	for (i = 0; i < BS; i++)
		blk[i] = 0.875f * blk[i] + 0.125f * t[i];
}

#pragma css task input(blk[BS]) output(en)
void block_energy(float blk[BS], float *en)
{
	int i;
	float s = 0.0f;

	for (i = 0; i < BS; i++)
		s += blk[i] * blk[i];
	*en = s;
}

#pragma css task input(en) inout(acc)
void accumulate(float *en, float *acc)
{
	*acc += *en;
}

#pragma css task input(in[BS + 2], blk[BS]) output(out[BS])
void diffuse(float *in, float *blk, float *out)
{
	int i;

	for (i = 0; i < BS; i++)
		out[i] = 0.25f * in[i] + 0.5f * in[i + 1] + 0.25f * in[i + 2] +
			 0.01f * blk[i];
}

int main(void)
{
	int r, b, i;
	float *in = gridA, *out = gridB, *t;
	double checksum = 0.0;

	for (i = 0; i < LEN; i++)
		signal[i] = (float)(i % 37) / 37.0f;
	for (i = 0; i < LEN + 2; i++)
		gridA[i] = gridB[i] = 0.0f;
	for (i = 1; i <= LEN; i++)
		gridA[i] = (float)((i * 31) % 101) / 101.0f;

	for (r = 0; r < ROUNDS; r++) {
		energy[r] = 0.0f;
		for (b = 0; b < NB; b++) {
			fill_noise(r, b, tmp);
			mix(tmp, &signal[b * BS]);
			block_energy(&signal[b * BS], &e);
			accumulate(&e, &energy[r]);
		}
		for (b = 0; b < NB; b++)
			diffuse(&in[b * BS], &signal[b * BS], &out[b * BS + 1]);
		t = in;
		in = out;
		out = t;
	}
#pragma css barrier

	for (r = 0; r < ROUNDS; r++)
		printf("energy round %d %.3f\n", r, energy[r]);
	for (i = 0; i < LEN; i++)
		checksum += signal[i] * (i % 7 + 1) + in[i + 1] * (i % 3 + 1);
	printf("last scratch %.4f %.4f\n", tmp[0], tmp[BS - 1]);
	printf("last energy %.3f\n", e);
	printf("checksum %.3f\n", checksum);
	return 0;
}
