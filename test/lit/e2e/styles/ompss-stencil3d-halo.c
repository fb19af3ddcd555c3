/* A 3-D Jacobi stencil cut as OmpSs/SMPSs 3-D codes cut it: z-slabs of a
 * `double (*u)[NY][NX]` whose elements are whole planes, read with one halo
 * plane on each side (`in(u[z0-1;nz+2]) out(v[z0;nz])`), and, on odd rounds,
 * slab-by-band blocks of the same grid seen through an OmpSs shape as
 * planes of NY*NX values, halo rows included: `in([NZ+2][NY*NX]u[z0-1;nz+2]
 * [(y0-1)*NX;(ny+2)*NX])`, `out([NZ+2][NY*NX]v[z0;nz][y0*NX;ny*NX])`. Each
 * block writes its partial residual into `out(part[b;1])`; the program waits
 * on the partial sums and both grids at once
 * (`#pragma css wait on(part[0;NBLK], U, V)`) and sums them in order.
 * Printed with %a. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: round 0
// CHECK: round 5
// CHECK: probe

#include <stdio.h>

#define NZ 12
#define NY 10
#define NX 10
#define ZB 4   /* planes a block */
#define YB 4   /* interior rows a band: rows 1..8 in two bands */
#define NZB (NZ / ZB)
#define NYB ((NY - 2) / YB)
#define NBLK (NZB * NYB)
#define ROUNDS 6

static double U[NZ + 2][NY][NX], V[NZ + 2][NY][NX];
static double part[NBLK];

static double point(const double *c, long s)
{
	/* c: the centre; s: the plane size in values */
	return (c[-1] + c[1] + c[-NX] + c[NX] + c[-s] + c[s]) / 6.0;
}

#pragma css task input(z0, nz, u[z0-1;nz+2]) output(v[z0;nz], res[0;1])
void slab(double (*u)[NY][NX], double (*v)[NY][NX], int z0, int nz, double *res)
{
	int z, y, x;
	double r = 0;
	for (z = z0; z < z0 + nz; z++)
		for (y = 0; y < NY; y++)
			for (x = 0; x < NX; x++) {
				if (y == 0 || y == NY - 1 || x == 0 || x == NX - 1)
					v[z][y][x] = u[z][y][x];
				else {
					v[z][y][x] = point(&u[z][y][x], NY * NX);
					r += (v[z][y][x] - u[z][y][x]) * (v[z][y][x] - u[z][y][x]);
				}
			}
	*res = r;
}

#pragma css task input(z0, nz, y0, ny, [NZ+2][NY*NX]u[z0-1;nz+2][(y0-1)*NX;(ny+2)*NX]) \
                 output([NZ+2][NY*NX]v[z0;nz][y0*NX;ny*NX], *res)
void block(const double *u, double *v, int z0, int nz, int y0, int ny, double *res)
{
	int z, y, x;
	double r = 0;
	for (z = z0; z < z0 + nz; z++)
		for (y = y0; y < y0 + ny; y++)
			for (x = 0; x < NX; x++) {
				long i = ((long)z * NY + y) * NX + x;
				if (x == 0 || x == NX - 1)
					v[i] = u[i];
				else {
					v[i] = point(&u[i], NY * NX);
					r += (v[i] - u[i]) * (v[i] - u[i]);
				}
			}
	*res = r;
}

int main(void)
{
	int z, y, x, b, round;
	double (*u)[NY][NX] = U, (*v)[NY][NX] = V, (*t)[NY][NX];

	for (z = 0; z < NZ + 2; z++)
		for (y = 0; y < NY; y++)
			for (x = 0; x < NX; x++) {
				double s = (z == 0) ? 1.0 : (x == 0 ? 0.5 : 0.0);
				if (z > 0 && z < NZ + 1 && y > 0 && y < NY - 1 && x > 0 && x < NX - 1)
					s = ((z * 3 + y * 5 + x * 7) % 11) / 16.0;
				U[z][y][x] = V[z][y][x] = s;
			}
	for (round = 0; round < ROUNDS; round++) {
		double sum = 0;
		if (round % 2 == 0) {
			for (b = 0; b < NZB; b++)
				slab(u, v, 1 + b * ZB, ZB, &part[b]);
			for (b = NZB; b < NBLK; b++)
				part[b] = 0; /* no task uses these this round */
		} else {
			for (b = 0; b < NBLK; b++)
				block(&u[0][0][0], &v[0][0][0], 1 + (b / NYB) * ZB, ZB, 1 + (b % NYB) * YB, YB,
				      &part[b]);
		}
#pragma css wait on(part[0;NBLK], U, V)
		for (b = 0; b < NBLK; b++)
			sum += part[b];
		printf("round %d res %a\n", round, sum);
		t = u;
		u = v;
		v = t;
	}
#pragma css barrier
	printf("probe %a %a %a\n", u[1][1][1], u[NZ / 2][NY / 2][NX / 2], u[NZ][NY - 2][NX - 2]);
	return 0;
}
