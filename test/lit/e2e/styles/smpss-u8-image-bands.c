/* An 8-bit grey image processed in row bands, as image-filter samples
 * write it: `uint8_t (*img)[W]` from malloc, a 3x3 box blur whose band
 * tasks read one halo row above and below (`input(src[r0-1;RB+2][0;W])`,
 * clamped at the image edges by separate first/last band tasks), a
 * per-band 256-bin `uint32_t` histogram `output(h[0;256])` in a
 * `uint32_t (*hist)[256]`, a threshold chosen by the master from the merged
 * histogram (Otsu) after `wait on(hist)`, then an `unsigned char` mask
 * with `input(level)` by value; images swapped as pointers over passes. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: pass 0
// CHECK: pass 2
// CHECK: mask

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define H 96
#define W 80
#define RB 16
#define NBANDS (H / RB)

static uint8_t px(uint8_t (*s)[W], int i, int j)
{
	if (i < 0) i = 0;
	if (i >= H) i = H - 1;
	if (j < 0) j = 0;
	if (j >= W) j = W - 1;
	return s[i][j];
}

static void blur_rows(uint8_t (*src)[W], uint8_t (*dst)[W], int r0)
{
	int i, j, di, dj;

	for (i = r0; i < r0 + RB; i++)
		for (j = 0; j < W; j++) {
			unsigned s = 0;
			for (di = -1; di <= 1; di++)
				for (dj = -1; dj <= 1; dj++)
					s += px(src, i + di, j + dj) * (unsigned)((di == 0 ? 2 : 1) * (dj == 0 ? 2 : 1));
			dst[i][j] = (uint8_t)((s + 8) / 16);
		}
}

#pragma css task input(r0, src[r0-1;RB+2][0;W]) output(dst[r0;RB][0;W])
void blur_band(uint8_t (*src)[W], uint8_t (*dst)[W], int r0)
{
	blur_rows(src, dst, r0);
}

#pragma css task input(src[0;RB+1][0;W]) output(dst[0;RB][0;W])
void blur_top(uint8_t (*src)[W], uint8_t (*dst)[W])
{
	blur_rows(src, dst, 0);
}

#pragma css task input(src[H-RB-1;RB+1][0;W]) output(dst[H-RB;RB][0;W])
void blur_bottom(uint8_t (*src)[W], uint8_t (*dst)[W])
{
	blur_rows(src, dst, H - RB);
}

#pragma css task input(r0, img[r0;RB][0;W]) output(h[0;256])
void band_hist(uint8_t (*img)[W], int r0, uint32_t *h)
{
	int i, j;

	for (i = 0; i < 256; i++)
		h[i] = 0;
	for (i = r0; i < r0 + RB; i++)
		for (j = 0; j < W; j++)
			h[img[i][j]]++;
}

#pragma css task input(r0, level, img[r0;RB][0;W]) output(mask[r0;RB][0;W])
void band_mask(const uint8_t (*img)[W], unsigned char (*mask)[W], int r0, uint8_t level)
{
	int i, j;

	for (i = r0; i < r0 + RB; i++)
		for (j = 0; j < W; j++)
			mask[i][j] = img[i][j] > level ? (unsigned char)0xff : (unsigned char)0;
}

static int otsu(const uint32_t *h, unsigned total)
{
	double sum = 0.0, sumb = 0.0, best = -1.0;
	unsigned wb = 0;
	int t, level = 0;

	for (t = 0; t < 256; t++)
		sum += (double)t * h[t];
	for (t = 0; t < 256; t++) {
		unsigned wf;
		double mb, mf, between;
		wb += h[t];
		if (wb == 0)
			continue;
		wf = total - wb;
		if (wf == 0)
			break;
		sumb += (double)t * h[t];
		mb = sumb / wb;
		mf = (sum - sumb) / wf;
		between = (double)wb * (double)wf * (mb - mf) * (mb - mf);
		if (between > best) {
			best = between;
			level = t;
		}
	}
	return level;
}

int main(void)
{
	uint8_t (*a)[W] = malloc(sizeof(uint8_t[H][W]));
	uint8_t (*b)[W] = malloc(sizeof(uint8_t[H][W]));
	unsigned char (*mask)[W] = malloc(sizeof(unsigned char[H][W]));
	uint32_t (*hist)[256] = malloc(sizeof(uint32_t[NBANDS][256]));
	uint32_t merged[256];
	int i, j, pass, r0, level = 0;
	unsigned long ones = 0, weighted = 0;

	for (i = 0; i < H; i++)
		for (j = 0; j < W; j++) {
			unsigned v = (unsigned)((i - 40) * (i - 40) + (j - 30) * (j - 30)) < 500u ? 200u : 40u;
			v += (unsigned)((i * 131 + j * 71) % 29);
			a[i][j] = (uint8_t)v;
		}

	for (pass = 0; pass < 3; pass++) {
		uint8_t (*t)[W];

		blur_top(a, b);
		for (r0 = RB; r0 < H - RB; r0 += RB)
			blur_band(a, b, r0);
		blur_bottom(a, b);
		for (r0 = 0; r0 < H; r0 += RB)
			band_hist(b, r0, hist[r0 / RB]);
#pragma css wait on(hist[0;NBANDS])
		for (i = 0; i < 256; i++) {
			merged[i] = 0;
			for (j = 0; j < NBANDS; j++)
				merged[i] += hist[j][i];
		}
		level = otsu(merged, H * W);
		{
			unsigned long cs = 0;
			for (i = 0; i < 256; i++)
				cs = cs * 31 + merged[i];
			printf("pass %d level %d hist %lu\n", pass, level, cs);
		}
		for (r0 = 0; r0 < H; r0 += RB)
			band_mask(b, mask, r0, (uint8_t)level);
		t = a;
		a = b;
		b = t;
	}
#pragma css barrier
	for (i = 0; i < H; i++)
		for (j = 0; j < W; j++) {
			ones += mask[i][j] != 0;
			weighted += (unsigned long)a[i][j] * (unsigned long)(i * W + j + 1);
		}
	printf("mask %lu image %lu\n", ones, weighted);
	free(a); free(b); free(mask); free(hist);
	return 0;
}
