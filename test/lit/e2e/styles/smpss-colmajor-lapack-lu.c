/* LAPACK-style column-major tiles: a blocked LU without pivoting on an
 * n x n matrix stored column-major with a leading dimension lda > n,
 * indexed through Fortran-style macros `#define A(i,j) a[(j)*lda+(i)]` in
 * the task bodies; each tile is a pointer `&A(i0,j0)` and a shaped region
 * `[nb][lda]a[0;nb][0;nb]` (nb columns of nb elements, lda apart), with nb
 * and lda parameters; the update kernel takes its sizes Fortran-style by
 * pointer (`dgemm_tile_(const int *nb, const int *lda, ...)` with
 * `input(*nb, *lda)` and shapes `[*nb][*lda]c`). The master checks by
 * solving with the factors. %a output. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: lu diag
// CHECK: solve

#include <stdio.h>
#include <stdlib.h>

#define A(i, j) a[(j) * lda + (i)]
#define L(i, j) l[(j) * lda + (i)]
#define U(i, j) u[(j) * lda + (i)]
#define B(i, j) b[(j) * lda + (i)]
#define C(i, j) c[(j) * ld + (i)]

/* in-place LU of a diagonal tile: unit lower L and upper U */
#pragma css task input(nb, lda) inout([nb][lda]a[0;nb][0;nb])
void dgetrf_tile(int nb, int lda, double *a)
{
	int i, j, k;

	for (k = 0; k < nb; k++)
		for (i = k + 1; i < nb; i++) {
			A(i, k) /= A(k, k);
			for (j = k + 1; j < nb; j++)
				A(i, j) -= A(i, k) * A(k, j);
		}
}

/* B := L^-1 B, L the unit lower triangle of the diagonal tile (row panel) */
#pragma css task input(nb, lda, [nb][lda]l[0;nb][0;nb]) inout([nb][lda]b[0;nb][0;nb])
void dtrsm_lower(int nb, int lda, const double *l, double *b)
{
	int i, j, k;

	for (j = 0; j < nb; j++)
		for (k = 0; k < nb; k++)
			for (i = k + 1; i < nb; i++)
				B(i, j) -= L(i, k) * B(k, j);
}

/* B := B U^-1, U the upper triangle of the diagonal tile (column panel) */
#pragma css task input(nb, lda, [nb][lda]u[0;nb][0;nb]) inout([nb][lda]b[0;nb][0;nb])
void dtrsm_upper(int nb, int lda, const double *u, double *b)
{
	int i, j, k;

	for (j = 0; j < nb; j++) {
		for (k = 0; k < j; k++)
			for (i = 0; i < nb; i++)
				B(i, j) -= B(i, k) * U(k, j);
		for (i = 0; i < nb; i++)
			B(i, j) /= U(j, j);
	}
}

/* C := C - A B, sizes by pointer as a Fortran routine gets them */
#pragma css task input(*nb, *lda, [*nb][*lda]a[0;*nb][0;*nb], [*nb][*lda]b[0;*nb][0;*nb]) \
                 inout([*nb][*lda]c[0;*nb][0;*nb])
void dgemm_tile_(const int *nb, const int *lda, const double *a, const double *b, double *c)
{
	int i, j, k, n = *nb, ld = *lda;

	for (j = 0; j < n; j++)
		for (k = 0; k < n; k++) {
			double bkj = b[j * ld + k];
			for (i = 0; i < n; i++)
				C(i, j) -= a[k * ld + i] * bkj;
		}
}

static void lu_blocked(int n, int nb, int lda, double *a)
{
	int nt = n / nb, k, i, j;

	for (k = 0; k < nt; k++) {
		dgetrf_tile(nb, lda, &A(k * nb, k * nb));
		for (j = k + 1; j < nt; j++)
			dtrsm_lower(nb, lda, &A(k * nb, k * nb), &A(k * nb, j * nb));
		for (i = k + 1; i < nt; i++)
			dtrsm_upper(nb, lda, &A(k * nb, k * nb), &A(i * nb, k * nb));
		for (i = k + 1; i < nt; i++)
			for (j = k + 1; j < nt; j++)
				dgemm_tile_(&nb, &lda, &A(i * nb, k * nb), &A(k * nb, j * nb), &A(i * nb, j * nb));
	}
}

int main(void)
{
	const int n = 48, nb = 12, lda = 51;
	double *a = malloc((size_t)lda * n * sizeof *a);
	double *x = malloc((size_t)n * sizeof *x);
	double *rhs = malloc((size_t)n * sizeof *rhs);
	double sdiag = 0.0, sx = 0.0;
	int i, j;

	for (j = 0; j < n; j++) {
		for (i = 0; i < n; i++)
			A(i, j) = i == j ? (double)n : (double)(((i * 7 + j * 13) % 11) - 5) / 8.0;
		for (i = n; i < lda; i++)
			A(i, j) = -99.0;   /* padding, never part of a tile */
	}
	for (i = 0; i < n; i++) {
		rhs[i] = 0.0;
		for (j = 0; j < n; j++)
			rhs[i] += A(i, j) * (double)(j % 4 + 1);
	}

	lu_blocked(n, nb, lda, a);
#pragma css barrier

	for (i = 0; i < n; i++)
		sdiag += A(i, i) * (double)(i + 1);
	printf("lu diag %a pad %a\n", sdiag, A(n, n - 1) + A(lda - 1, 0));
	/* forward (unit L) then back substitution */
	for (i = 0; i < n; i++) {
		x[i] = rhs[i];
		for (j = 0; j < i; j++)
			x[i] -= A(i, j) * x[j];
	}
	for (i = n - 1; i >= 0; i--) {
		for (j = i + 1; j < n; j++)
			x[i] -= A(i, j) * x[j];
		x[i] /= A(i, i);
	}
	for (i = 0; i < n; i++)
		sx += x[i] * (double)(i + 1);
	printf("solve %a x0 %a xn %a\n", sx, x[0], x[n - 1]);
	free(a); free(x); free(rhs);
	return 0;
}
