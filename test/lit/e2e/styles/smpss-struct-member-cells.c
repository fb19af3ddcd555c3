/*
 * Particle cells as SMPSs/OmpSs C programs keep them: typedef'd structs,
 * tasks reaching their data through struct members and const pointers to
 * typedef'd struct arrays:
 *  - `inout(c->p[0;c->n]) output(c->energy[0;1])` on a `cell_t *` whose
 *    bounds are members read at the call;
 *  - `input(a->p[0;a->n]) inout(b->p[0;b->n])` with `const cell_t *a`;
 *  - `input(n, src[n]) inout(dst[n])` with `const particle_t *src`;
 *  - a struct passed by value, `inout(h.bins[0;h.nb])`;
 *  - a struct with an array member (not a pointer) named whole through its
 *    pointer, `inout(*s)`: GPUSs refuses `inout(s->acc[0;s->n])` on an
 *    array member ("'s->acc' is not a pointer (type 'double[16]'): a member
 *    named in a task's clause must point to the task's data; name the
 *    struct itself ('s') ..."), as docs/language.md says (member items are
 *    the data a pointer member points to); the body reads s->n too.
 * Printed with %a.
 */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: cell 0
// CHECK: cell 5
// CHECK: hist
// CHECK: stats

#include <stdio.h>
#include <stdlib.h>

#define NCELL 6
#define MAXP 40
#define NBINS 8

typedef struct {
	double x, y, vx, vy;
} particle_t;

typedef struct {
	int n;
	particle_t *p;
	double *energy;
} cell_t;

typedef struct {
	int nb;
	long *bins;
} hist_t;

typedef struct {
	int n;
	double acc[16];
} stats_t;

#pragma css task inout(c->p[0;c->n]) output(c->energy[0;1]) input(dt)
void drift(cell_t *c, double dt)
{
	int i;
	double e = 0;
	for (i = 0; i < c->n; i++) {
		particle_t *q = &c->p[i];
		q->x += dt * q->vx;
		q->y += dt * q->vy;
		e += 0.5 * (q->vx * q->vx + q->vy * q->vy);
	}
	c->energy[0] = e;
}

#pragma css task input(a->p[0;a->n]) inout(b->p[0;b->n])
void interact(const cell_t *a, cell_t *b)
{
	int i, j;
	for (i = 0; i < b->n; i++)
		for (j = 0; j < a->n; j++) {
			double dx = a->p[j].x - b->p[i].x, dy = a->p[j].y - b->p[i].y;
			double r2 = dx * dx + dy * dy + 0.5;
			b->p[i].vx += 1e-3 * dx / r2;
			b->p[i].vy += 1e-3 * dy / r2;
		}
}

#pragma css task input(n, src[n]) inout(dst[n])
void mirror(int n, const particle_t *src, particle_t *dst)
{
	int i;
	for (i = 0; i < n; i++) {
		dst[i].vx = 0.75 * dst[i].vx + 0.25 * src[n - 1 - i].vy;
		dst[i].vy = 0.75 * dst[i].vy - 0.25 * src[n - 1 - i].vx;
	}
}

#pragma css task input(n, src[n]) inout(h.bins[0;h.nb])
void histogram(hist_t h, int n, const particle_t *src)
{
	int i;
	for (i = 0; i < n; i++) {
		int b = (int)((src[i].x + src[i].y) * 2.0) % h.nb;
		if (b < 0)
			b += h.nb;
		h.bins[b]++;
	}
}

#pragma css task input(n, e[n]) inout(*s)
void collect(stats_t *s, int n, const double *e)
{
	int i;
	for (i = 0; i < s->n; i++)
		s->acc[i] = s->acc[i] * 0.5 + e[i % n];
}

static cell_t cells[NCELL];
static double energies[NCELL];

int main(void)
{
	int c, k, step;
	hist_t h;
	stats_t st;

	h.nb = NBINS;
	h.bins = calloc(NBINS, sizeof(long));
	st.n = 12;
	for (k = 0; k < 16; k++)
		st.acc[k] = k;
	for (c = 0; c < NCELL; c++) {
		cells[c].n = 12 + 5 * c;
		cells[c].p = malloc(MAXP * sizeof(particle_t));
		cells[c].energy = &energies[c];
		for (k = 0; k < cells[c].n; k++) {
			particle_t *q = &cells[c].p[k];
			q->x = c + k * 0.125;
			q->y = (k * 7 % 5) * 0.5;
			q->vx = ((k + c) % 3) - 1.0;
			q->vy = ((k * c) % 4) * 0.25;
		}
	}
	for (step = 0; step < 4; step++) {
		for (c = 0; c < NCELL; c++)
			drift(&cells[c], 0.01);
		for (c = 0; c < NCELL; c++) {
			interact(&cells[(c + 1) % NCELL], &cells[c]);
			interact(&cells[(c + NCELL - 1) % NCELL], &cells[c]);
		}
		for (c = 0; c + 1 < NCELL; c += 2)
			mirror(12, cells[c + 1].p, cells[c].p);
		for (c = 0; c < NCELL; c++)
			histogram(h, cells[c].n, cells[c].p);
		collect(&st, NCELL, energies);
	}
#pragma css barrier
	for (c = 0; c < NCELL; c++)
		printf("cell %d e %a x %a vy %a\n", c, energies[c], cells[c].p[3].x,
		       cells[c].p[cells[c].n - 1].vy);
	printf("hist");
	for (k = 0; k < NBINS; k++)
		printf(" %ld", h.bins[k]);
	printf("\nstats");
	for (k = 0; k < 16; k++)
		printf(" %a", st.acc[k]);
	printf("\n");
	for (c = 0; c < NCELL; c++)
		free(cells[c].p);
	free(h.bins);
	return 0;
}
