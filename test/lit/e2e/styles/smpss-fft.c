// SMPSs four-step FFT: a 1-D transform of length R*C done as R-point row
// FFTs, a twiddle pass and C-point row FFTs, with blocked transposes in
// between. Complex numbers are a struct; the transposes name strided
// sub-blocks of `cplx (*)[C]` (`src[i0;TB][j0;TB]`), the row tasks bands of
// whole rows. The task functions are static.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -lm -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -lm -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: matches naive DFT: yes
// CHECK: checksum

#include <math.h>
#include <stdio.h>

#define R 16          /* rows = columns: the transform is R*R points */
#define NPTS (R * R)
#define TB 8          /* transpose block */
#define BAND 4        /* rows per row task */

typedef struct { double re, im; } cplx;

static cplx x[R][R], t1[R][R], t2[R][R], out[R][R];

#pragma css task input(i0, j0, src[i0;TB][j0;TB]) output(dst[j0;TB][i0;TB])
static void transpose_block(cplx (*src)[R], cplx (*dst)[R], int i0, int j0)
{
	int i, j;
	for (i = i0; i < i0 + TB; i++)
		for (j = j0; j < j0 + TB; j++)
			dst[j][i] = src[i][j];
}

static void fft1(cplx *v, int n)
{
	int i, j, len;
	for (i = 1, j = 0; i < n; i++) {         /* bit reversal */
		int bit = n >> 1;
		for (; j & bit; bit >>= 1)
			j ^= bit;
		j ^= bit;
		if (i < j) { cplx t = v[i]; v[i] = v[j]; v[j] = t; }
	}
	for (len = 2; len <= n; len <<= 1) {
		double ang = -2.0 * M_PI / len;
		for (i = 0; i < n; i += len)
			for (j = 0; j < len / 2; j++) {
				cplx w = { cos(ang * j), sin(ang * j) };
				cplx a = v[i + j], b = v[i + j + len / 2], wb;
				wb.re = b.re * w.re - b.im * w.im;
				wb.im = b.re * w.im + b.im * w.re;
				v[i + j].re = a.re + wb.re; v[i + j].im = a.im + wb.im;
				v[i + j + len / 2].re = a.re - wb.re;
				v[i + j + len / 2].im = a.im - wb.im;
			}
	}
}

#pragma css task input(r0) inout(m[r0;BAND][0;R])
static void fft_rows(cplx (*m)[R], int r0)
{
	int r;
	for (r = r0; r < r0 + BAND; r++)
		fft1(m[r], R);
}

#pragma css task input(r0) inout(m[r0;BAND][0;R])
static void twiddle_rows(cplx (*m)[R], int r0)
{
	int r, c;
	for (r = r0; r < r0 + BAND; r++)
		for (c = 0; c < R; c++) {
			double ang = -2.0 * M_PI * r * c / NPTS;
			cplx w = { cos(ang), sin(ang) }, v = m[r][c];
			m[r][c].re = v.re * w.re - v.im * w.im;
			m[r][c].im = v.re * w.im + v.im * w.re;
		}
}

static void transpose(cplx (*src)[R], cplx (*dst)[R])
{
	int i, j;
	for (i = 0; i < R; i += TB)
		for (j = 0; j < R; j += TB)
			transpose_block(src, dst, i, j);
}

int main(void)
{
	int n, k;
	double checksum = 0.0, maxerr = 0.0;
	const cplx *X = &out[0][0];

	for (n = 0; n < NPTS; n++) {
		x[n / R][n % R].re = cos(2 * M_PI * 3 * n / NPTS) + (n % 5) / 10.0;
		x[n / R][n % R].im = 0.5 * sin(2 * M_PI * 17 * n / NPTS);
	}
	transpose(x, t1);                 /* t1[n2][n1] */
	for (k = 0; k < R; k += BAND)
		fft_rows(t1, k);               /* over n1 */
	for (k = 0; k < R; k += BAND)
		twiddle_rows(t1, k);
	transpose(t1, t2);                /* t2[k1][n2] */
	for (k = 0; k < R; k += BAND)
		fft_rows(t2, k);               /* over n2 */
	transpose(t2, out);               /* out[k2][k1] = X[k1 + R*k2] */
#pragma css barrier

	for (k = 0; k < NPTS; k += 37) {
		double re = 0, im = 0;
		for (n = 0; n < NPTS; n++) {
			double a = -2 * M_PI * (double)n * k / NPTS;
			cplx v = x[n / R][n % R];
			re += v.re * cos(a) - v.im * sin(a);
			im += v.re * sin(a) + v.im * cos(a);
		}
		double e = fabs(re - X[k].re) + fabs(im - X[k].im);
		if (e > maxerr)
			maxerr = e;
	}
	printf("matches naive DFT: %s\n", maxerr < 1e-9 ? "yes" : "no");
	for (k = 0; k < NPTS; k++) {
		double mag = sqrt(X[k].re * X[k].re + X[k].im * X[k].im);
		if (mag > 1.0)
			printf("bin %3d |X| %.6f\n", k, mag);
		checksum += mag * (k % 7 + 1);
	}
	printf("checksum %.6f\n", checksum);
	return 0;
}
