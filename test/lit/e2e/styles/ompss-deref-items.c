// OmpSs dependences on dereferenced pointers, written in css pragmas:
// `inout(*acc)`, `in(*p) out(*q)`, `out(*lo, *hi)`: the pointee of a
// pointer parameter is the datum, as OmpSs and OmpSs-2 programs write it
// for scalar results. Statistics of a data set computed chunk by chunk.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -lm -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -lm -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: mean
// CHECK: checksum

#include <math.h>
#include <stdio.h>

#define N 6000
#define CH 500
#define NCH (N / CH)

static double data[N];
static double chunk_min[NCH], chunk_max[NCH];

#pragma css task in(v[0;n]) inout(*acc)
void accumulate(const double *v, int n, double *acc)
{
	for (int i = 0; i < n; i++)
		*acc += v[i];
}

#pragma css task in(v[0;n], *mean) inout(*acc)
void accumulate_sq(const double *v, int n, const double *mean, double *acc)
{
	for (int i = 0; i < n; i++)
		*acc += (v[i] - *mean) * (v[i] - *mean);
}

#pragma css task in(v[0;n]) out(*lo, *hi)
void minmax(const double *v, int n, double *lo, double *hi)
{
	double a = v[0], b = v[0];
	for (int i = 1; i < n; i++) {
		if (v[i] < a)
			a = v[i];
		if (v[i] > b)
			b = v[i];
	}
	*lo = a;
	*hi = b;
}

#pragma css task in(*sum) out(*mean)
void divide(const double *sum, double *mean)
{
	*mean = *sum / N;
}

int main(void)
{
	double sum = 0.0, sq = 0.0, mean = 0.0;
	double checksum = 0.0;

	for (int i = 0; i < N; i++)
		data[i] = sin(i * 0.01) * 10.0 + (i % 17) * 0.25;

	for (int c = 0; c < NCH; c++) {
		accumulate(&data[c * CH], CH, &sum);
		minmax(&data[c * CH], CH, &chunk_min[c], &chunk_max[c]);
	}
	divide(&sum, &mean);
	for (int c = 0; c < NCH; c++)
		accumulate_sq(&data[c * CH], CH, &mean, &sq);
#pragma css barrier

	printf("mean %.10f variance %.10f\n", mean, sq / N);
	for (int c = 0; c < NCH; c++) {
		printf("chunk %2d [%.6f, %.6f]\n", c, chunk_min[c], chunk_max[c]);
		checksum += (c + 1) * (chunk_max[c] - chunk_min[c]);
	}
	printf("checksum %.10f\n", checksum + sum);
	return 0;
}
