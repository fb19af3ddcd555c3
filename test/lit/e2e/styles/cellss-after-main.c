// CellSs style: small fixed-size vector kernels on 1-D arrays, a scalar
// result waited for with `#pragma css wait on(...)`, and the annotated task
// definitions placed after main, below plain prototypes (the pragma is only
// on the definition, as CellSs sample programs often have it).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: norm2 after 1 step
// CHECK: checksum

#include <stdio.h>

#define CHUNK 256
#define NCHUNK 8
#define LEN (CHUNK * NCHUNK)

void vinit(float *v, int seed);
void vaxpy(float *x, float *y, float a);
void vmul(float *x, float *y, float *z);
void vdot(float *x, float *y, float *result);

float X[LEN], Y[LEN], Z[LEN];
float partial[NCHUNK];

int main(void)
{
	int c, step;
	float norm2 = 0.0f;
	double checksum = 0.0;

#pragma css start
	for (c = 0; c < NCHUNK; c++) {
		vinit(&X[c * CHUNK], c);
		vinit(&Y[c * CHUNK], 100 + c);
	}
	for (step = 0; step < 3; step++) {
		for (c = 0; c < NCHUNK; c++) {
			vaxpy(&X[c * CHUNK], &Y[c * CHUNK], 0.5f);
			vmul(&X[c * CHUNK], &Y[c * CHUNK], &Z[c * CHUNK]);
		}
		vdot(&Z[0], &Z[0], &norm2);
		if (step == 0) {
#pragma css wait on(norm2)
			printf("norm2 after 1 step %.3f\n", norm2);
		}
	}
	for (c = 0; c < NCHUNK; c++)
		vdot(&Y[c * CHUNK], &Z[c * CHUNK], &partial[c]);
#pragma css finish

	printf("norm2 %.3f\n", norm2);
	for (c = 0; c < NCHUNK; c++) {
		printf("partial %d %.3f\n", c, partial[c]);
		checksum += partial[c];
	}
	for (c = 0; c < LEN; c++)
		checksum += Y[c] * (c % 3);
	printf("checksum %.3f\n", checksum);
	return 0;
}

#pragma css task output(v[CHUNK]) input(seed)
void vinit(float *v, int seed)
{
	int i;
	for (i = 0; i < CHUNK; i++)
		v[i] = (float)((i * 7 + seed * 13) % 29) / 16.0f - 1.0f;
}

#pragma css task input(x[CHUNK], a) inout(y[CHUNK])
void vaxpy(float *x, float *y, float a)
{
	int i;
	for (i = 0; i < CHUNK; i++)
		y[i] += a * x[i];
}

#pragma css task input(x[CHUNK], y[CHUNK]) output(z[CHUNK])
void vmul(float *x, float *y, float *z)
{
	int i;
	for (i = 0; i < CHUNK; i++)
		z[i] = x[i] * y[i];
}

#pragma css task input(x[CHUNK], y[CHUNK]) output(result)
void vdot(float *x, float *y, float *result)
{
	int i;
	float s = 0.0f;
	for (i = 0; i < CHUNK; i++)
		s += x[i] * y[i];
	*result = s;
}
