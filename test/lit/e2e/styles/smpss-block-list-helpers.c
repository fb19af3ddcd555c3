/* A linked list of blocks whose payloads are the task data (a node holds
 * `double *data` and `int n`; tasks get `node->data` with `inout(d[n])`,
 * the next node's payload as `input(nx[1])` for a boundary value), blocks
 * of different lengths; task bodies call non-task helpers that allocate and
 * free on the worker (`malloc`, `calloc`, `realloc` growing a scratch
 * buffer, `free`, `qsort` with a comparator for a median filter); the
 * master splices a new block into the list and unlinks and frees another
 * (its payload too) while tasks on it may be pending, then keeps going. */
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
// CHECK: blocks 6

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct block {
	struct block *next;
	int id;
	int n;
	double *data;
	double stat;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* a median of 5 through a heap-allocated scratch copy */
static double median5(const double *w)
{
	double *t = malloc(5 * sizeof *t);
	double m;

	memcpy(t, w, 5 * sizeof *t);
	qsort(t, 5, sizeof *t, cmp_double);
	m = t[2];
	free(t);
	return m;
}

/* collects the values above the mean into a buffer that grows */
static double upper_mean(const double *d, int n)
{
	double mean = 0.0, s = 0.0, *buf = NULL;
	int i, cnt = 0, cap = 0;

	for (i = 0; i < n; i++)
		mean += d[i];
	mean /= n;
	for (i = 0; i < n; i++)
		if (d[i] > mean) {
			if (cnt == cap) {
				cap = cap ? cap * 2 : 2;
				buf = realloc(buf, (size_t)cap * sizeof *buf);
			}
			buf[cnt++] = d[i];
		}
	for (i = 0; i < cnt; i++)
		s += buf[i];
	free(buf);
	return cnt ? s / cnt : mean;
}

#pragma css task input(n, nx[1]) inout(d[n])
void median_filter(int n, double *d, const double *nx)
{
	double *ext = calloc((size_t)n + 4, sizeof *ext);
	int i;

	for (i = 0; i < n; i++)
		ext[i + 2] = d[i];
	ext[0] = ext[1] = d[0];
	ext[n + 2] = ext[n + 3] = nx[0];
	for (i = 0; i < n; i++)
		d[i] = median5(ext + i) * 0.75 + d[i] * 0.25 + (double)i / 1024.0;
	free(ext);
}

#pragma css task input(n, d[n]) output(*stat)
void block_stat(int n, const double *d, double *stat)
{
	*stat = upper_mean(d, n);
}

static struct block *new_block(int id, int n)
{
	struct block *b = malloc(sizeof *b);
	int i;

	b->next = NULL;
	b->id = id;
	b->n = n;
	b->data = malloc((size_t)n * sizeof *b->data);
	b->stat = 0.0;
	for (i = 0; i < n; i++)
		b->data[i] = (double)(((id + 3) * 37 + i * 11) % 53) / 8.0;
	return b;
}

int main(void)
{
	struct block *head = NULL, **tail = &head, *b, *prev;
	double wrap[1] = { 0.5 };
	int id, round, count;

	for (id = 0; id < 6; id++) {
		*tail = new_block(id, 24 + 8 * (id % 3));
		tail = &(*tail)->next;
	}

	for (round = 0; round < 4; round++) {
		for (b = head; b != NULL; b = b->next)
			median_filter(b->n, b->data, b->next ? b->next->data : wrap);
		for (b = head; b != NULL; b = b->next)
			block_stat(b->n, b->data, &b->stat);

		if (round == 1) {
			/* splice a new block in after the second one */
			struct block *nb = new_block(100, 40);
			nb->next = head->next->next;
			head->next->next = nb;
		}
		if (round == 2) {
			/* unlink and free the fourth block while its tasks may run */
			prev = head->next->next;
			b = prev->next;
			prev->next = b->next;
			free(b->data);
			free(b);
		}
#pragma css barrier
		{
			double t = 0.0;
			for (b = head; b != NULL; b = b->next)
				t += b->stat * (double)(b->id + 1);
			printf("round %d %a\n", round, t);
		}
	}

	count = 0;
	for (b = head; b != NULL; b = prev) {
		int i;
		double s = 0.0;
		for (i = 0; i < b->n; i++)
			s += b->data[i];
		printf("block %d %a\n", b->id, s);
		prev = b->next;
		free(b->data);
		free(b);
		count++;
	}
	printf("blocks %d\n", count);
	return 0;
}
