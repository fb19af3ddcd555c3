// OmpSs tutorial dot product written with css pragmas: `in`/`out` clause
// names, OmpSs array sections `x[i;bs]` and `c[j;1]`, a `label(...)` on the
// task and `#pragma css taskwait` (OmpSs's name for the barrier) before the
// partial sums are reduced. The chunked loop has a short last chunk.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: dot product
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

long N = 10000;
long CHUNK_SIZE = 1024;

static void initialize(long length, double *data, int seed)
{
	for (long i = 0; i < length; i++)
		data[i] = (double)((i * seed + 7) % 1000) / 1000.0;
}

#pragma css task label(dot_chunk) in(A[i;len], B[i;len]) out(C[j;1])
void dot_chunk(double *A, double *B, double *C, long i, long len, long j)
{
	double s = 0.0;
	for (long ii = i; ii < i + len; ii++)
		s += A[ii] * B[ii];
	C[j] = s;
}

#pragma css task label(scale) in(len) inout(A[i;len])
void scale(double *A, long i, long len, double f)
{
	for (long ii = i; ii < i + len; ii++)
		A[ii] *= f;
}

double dot_product(long n, long chunk, double *A, double *B, double *C)
{
	long nchunks = (n + chunk - 1) / chunk;
	long j = 0;
	double acc = 0.0;

	for (long i = 0; i < n; i += chunk) {
		long len = (n - i < chunk) ? n - i : chunk;
		dot_chunk(A, B, C, i, len, j);
		j++;
	}
#pragma css taskwait
	for (j = 0; j < nchunks; j++)
		acc += C[j];
	return acc;
}

int main(void)
{
	double *A = malloc(N * sizeof(double));
	double *B = malloc(N * sizeof(double));
	long nchunks = (N + CHUNK_SIZE - 1) / CHUNK_SIZE;
	double *C = malloc(nchunks * sizeof(double));
	double r1, r2, checksum = 0.0;

	initialize(N, A, 31);
	initialize(N, B, 17);
	r1 = dot_product(N, CHUNK_SIZE, A, B, C);
	for (long i = 0; i < N; i += 3000)
		scale(A, i, (N - i < 3000) ? N - i : 3000, 0.5 + i / 10000.0);
	r2 = dot_product(N, CHUNK_SIZE, A, B, C);

	printf("dot product %.6f then %.6f\n", r1, r2);
	for (long j = 0; j < nchunks; j++)
		checksum += C[j] * (j + 1);
	printf("checksum %.6f\n", checksum);
	free(A);
	free(B);
	free(C);
	return 0;
}
