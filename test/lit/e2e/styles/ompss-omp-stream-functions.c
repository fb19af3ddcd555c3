// OmpSs function tasks written with `#pragma omp`, in the style of the
// ompss-ee STREAM examples (stream-deps): blocked copy/scale/add/triad
// kernels annotated with `in(a[0;bs]) out(c[0;bs])`, the older aliases
// `input(...)`/`output(...)` with shaping expressions `[bs]c`, `inout(...)`
// on a normalisation kernel, `label(...)`, and `#pragma omp target
// device(smp) copy_deps` before two of the task prototypes. Some tasks are
// annotated on prototypes with their definitions after main, some on
// definitions. Each iteration ends with a norm: per-block sums of squares are
// tasks on call statements of a plain function (`#pragma omp task
// in(blk[0;BSIZE]) out(*res)` over the call's arguments), added up by an
// inline task `out(norm)`; the master waits only for the norm, `#pragma omp
// taskwait on(norm)`, reads it and passes its inverse by value to the
// normalisation tasks, which must wait for the norm tasks reading `a`. A
// final `#pragma omp taskwait`.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: iter 0 norm
// CHECK: iter 5 norm
// CHECK: a[0]
// CHECK: checksum

#include <stdio.h>

#define N 8192
#define BSIZE 512
#define NB (N / BSIZE)
#define NTIMES 6

static double a[N], b[N], c[N];
static double partial[NB];

#pragma omp target device(smp) copy_deps
#pragma omp task out(a[0;bs], b[0;bs], c[0;bs]) label(stream_init)
void init_task(double *a, double *b, double *c, int bs, int first);

#pragma omp target device(smp) copy_deps
#pragma omp task in(a[0;bs]) out(c[0;bs]) label(stream_copy)
void copy_task(const double *a, double *c, int bs);

#pragma omp task input([bs]c) output([bs]b) label(stream_scale)
void scale_task(double *b, const double *c, double scalar, int bs)
{
	for (int j = 0; j < bs; j++)
		b[j] = scalar * c[j];
}

#pragma omp task input(a[0;bs], b[0;bs]) output(c[0;bs]) label(stream_add)
void add_task(const double *a, const double *b, double *c, int bs)
{
	for (int j = 0; j < bs; j++)
		c[j] = a[j] + b[j];
}

#pragma omp task in(b[0;bs], c[0;bs]) out(a[0;bs]) label(stream_triad)
void triad_task(double *a, const double *b, const double *c, double scalar, int bs);

#pragma omp task inout(a[0;bs]) in(c[0;bs]) label(stream_normalize)
void normalize_task(double *a, const double *c, double inv, int bs);

/* not a task by itself: the call below is annotated where it is made */
static void block_norm(const double *a, int bs, double *out)
{
	double s = 0.0;
	for (int j = 0; j < bs; j++)
		s += a[j] * a[j];
	*out = s;
}

int main(void)
{
	double scalar = 0.375;
	double norm = 0.0, inv = 1.0;
	double checksum = 0.0;

	for (int k = 0; k < NB; k++)
		init_task(&a[k * BSIZE], &b[k * BSIZE], &c[k * BSIZE], BSIZE, k * BSIZE);

	for (int it = 0; it < NTIMES; it++) {
		for (int k = 0; k < NB; k++)
			copy_task(&a[k * BSIZE], &c[k * BSIZE], BSIZE);
		for (int k = 0; k < NB; k++)
			scale_task(&b[k * BSIZE], &c[k * BSIZE], scalar, BSIZE);
		for (int k = 0; k < NB; k++)
			add_task(&a[k * BSIZE], &b[k * BSIZE], &c[k * BSIZE], BSIZE);
		for (int k = 0; k < NB; k++)
			triad_task(&a[k * BSIZE], &b[k * BSIZE], &c[k * BSIZE], scalar, BSIZE);
		for (int k = 0; k < NB; k++) {
			double *blk = &a[k * BSIZE];
			double *res = &partial[k];
#pragma omp task in(blk[0;BSIZE]) out(*res) label(stream_norm)
			block_norm(blk, BSIZE, res);
		}
#pragma omp task in(partial[0;NB]) out(norm) label(stream_sum)
		{
			double s = 0.0;
			for (int k = 0; k < NB; k++)
				s += partial[k];
			norm = s / N;
		}

#pragma omp taskwait on(norm)
		printf("iter %d norm %.9e\n", it, norm);
		inv = 1.0 / (norm > 1.0 ? norm : 1.0);
		for (int k = 0; k < NB; k++)
			normalize_task(&a[k * BSIZE], &c[k * BSIZE], inv, BSIZE);
		scalar = scalar + 0.125;
	}
#pragma omp taskwait

	for (int i = 0; i < N; i += 1024)
		printf("a[%d] = %.9e b = %.9e c = %.9e\n", i, a[i], b[i], c[i]);
	for (int i = 0; i < N; i++)
		checksum += a[i] * (double)(i % 11 + 1) + b[i] - c[i] * 0.5;
	printf("checksum %.9e\n", checksum);
	return 0;
}

void init_task(double *a, double *b, double *c, int bs, int first)
{
	for (int j = 0; j < bs; j++) {
		a[j] = 1.0 + (double)((first + j) % 17) / 8.0;
		b[j] = 2.0 - (double)((first + j) % 5) / 4.0;
		c[j] = 0.0;
	}
}

void copy_task(const double *a, double *c, int bs)
{
	for (int j = 0; j < bs; j++)
		c[j] = a[j];
}

void triad_task(double *a, const double *b, const double *c, double scalar, int bs)
{
	for (int j = 0; j < bs; j++)
		a[j] = b[j] + scalar * c[j];
}

void normalize_task(double *a, const double *c, double inv, int bs)
{
	for (int j = 0; j < bs; j++)
		a[j] = a[j] * inv + 0.001 * c[j];
}
