/*
 * lu.c: LU factorisation with partial pivoting, PA = LU, of one column-major
 * matrix (LAPACK's dgetrf: blocked, left- or right-looking), the driver that times
 * it, and a check.
 *
 *   lu [-n N] [-t NB] [--lda LDA] [-p s|d] [--check] [--swaps groups|tiles|columns]
 *      [--left-swaps steps|end] [--order left|right|staggered] [--stagger P] [--gpu-panel]
 *      [--inverse-trsm] [--prelocked]
 *
 * The matrix is one malloc'd array in column-major order with leading
 * dimension lda >= n (a run-time value): element (r, c) is A[c * lda + r].
 * It is factored panel by panel, NB columns at a time. Step k
 *
 *   1. factors the panel, rows k NB .. n-1 of block column k, choosing a
 *      pivot row in each of its columns (one task over the panel's strided
 *      region; its pivots are a task output);
 *   2. applies the panel's row interchanges to the block columns on its
 *      right (tile tasks, each on up to 8 tiles below the panel's row and
 *      the tile they trade rows with; one per lower tile with --swaps
 *      tiles; one task per block column with --swaps columns), and to
 *      those on its left (the computed L) by the same tasks, once nothing
 *      reads their unswapped rows any more (--left-swaps end: all of them
 *      at the end, one task per block column);
 *   3. solves for the block row of U right of the panel, U(k, j) :=
 *      L(k, k)^-1 A(k, j) (a tile task per j; with --inverse-trsm, one task
 *      inverts L(k, k) into a buffer of the step's and each tile task
 *      multiplies by that inverse);
 *   4. updates the trailing matrix, A(i, j) -= L(i, k) U(k, j) (a tile task
 *      per i, j > k).
 *
 * Every task names strided 2-D regions of the one array (lu_tasks.h). Built
 * through gpuss-translate each kernel call is a task and the runtime orders
 * them by those regions: the panel of step k+1 needs only its own block
 * column's updates of step k, so it runs while step k updates the columns
 * further right (the look-ahead of hand-written LU codes, here from the
 * dataflow alone). The calls are written left-looking by default (block
 * column j takes the updates of steps 0 .. j-1, then panel j is factored:
 * the same tasks, each tile updated in the same order, so the same factors),
 * which the runtime runs in the program's order; --order right writes them
 * step by step, as LAPACK's dgetrf, and --order staggered in between (each
 * block column starts taking its updates part way: lu_factor). Built by a
 * plain C compiler the pragmas are ignored and this is LAPACK's algorithm.
 * The last line of output is
 *
 *   lu n=.. ts=.. lda=.. prec=.. gpus=.. policy=.. panel=host|gpu swaps=groups|tiles|columns left=end|steps
 *      memory=first-run|prelocked trsm=solve|inverse order=left|right|staggered:P seconds=.. gflops=..
 *      check=PASS|FAIL|skipped
 *
 * (one line). memory=first-run (the default): the matrix is written by plain
 * loops into malloc'd memory the runtime has never seen, and the one timed
 * run pays for page-locking it, copying it in and the factors out.
 * --prelocked: the matrix is factored once untimed first, written again, and
 * the second run is timed.
 */
#define _POSIX_C_SOURCE 200809L
#include "lu_matrix.h"
#include "lu_tasks.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GPUSS_LU_RUNTIME
#include <gpuss.h> /* css_start, css_finish: not spelled as pragmas */
#endif

int NB = 256; /* tile size; the task items [NB][lda]T[0;NB][0;NB] read it at each submit */

/* ---------------------------------------------------------------- the panel: host or GPU */

static void spanel(int m, int lda, float *P, int row0, int *ipiv, bool gpu) {
#ifdef GPUSS_LU_CUDA
  if (gpu) {
    lu_spanel_gpu(m, lda, P, row0, ipiv);
    return;
  }
#endif
  (void)gpu;
  lu_spanel(m, lda, P, row0, ipiv);
}

static void dpanel(int m, int lda, double *P, int row0, int *ipiv, bool gpu) {
#ifdef GPUSS_LU_CUDA
  if (gpu) {
    lu_dpanel_gpu(m, lda, P, row0, ipiv);
    return;
  }
#endif
  (void)gpu;
  lu_dpanel(m, lda, P, row0, ipiv);
}

/* ---------------------------------------------------------------- the algorithm */

/*
 * Step k's interchanges on block column j (j != k), rows r0 .. n-1.
 *
 * As tile tasks: the panel's pivot rows lie anywhere from r0 down, so one
 * interchange can involve tile (k, j) and any tile below it. The interchanges
 * with both rows in tile (k, j) go first (laswp_tile); then, for each tile
 * (i, j) below, those between it and tile (k, j) (swap_tiles, one task per i
 * with --swaps tiles; by default swap_group, one task for up to
 * LU_SWAP_GROUP tiles below, the first of which also does laswp_tile's
 * part: every task writes tile (k, j), so a step's swaps of a block column
 * are a chain, and a short one waits less behind other tasks on a busy
 * GPU). Interchanges of different lower tiles share no row, so they
 * commute, and none of them shares a row with an earlier one within tile
 * (k, j) that it would have to follow: the result is LAPACK's (docs/lu.md).
 * Each task names the tiles the trsm and gemm tasks name, so on a GPU the
 * swaps work on the same copies.
 *
 * With --swaps columns, one task over the block column's rows r0 .. n-1, as
 * LAPACK's dlaswp does: fewer tasks, but its region overlaps the tiles of the
 * other tasks in bytes without being any of them (docs/lu.md, what that costs
 * on devices).
 */
typedef enum {
  SWAPS_GROUPS,  /* --swaps groups (the default): up to LU_SWAP_GROUP lower tiles per task */
  SWAPS_TILES,   /* --swaps tiles: one task per lower tile */
  SWAPS_COLUMNS, /* --swaps columns: one task per block column and step */
} lu_swaps;

/* Place t of the group of lower tiles that starts at tile row i, in a
 * block column whose tile (k, j) starts at `top`: tile row i + t, or for the
 * places past the last tile row (nt - 1) that tile row again, named twice. */
static size_t group_offset(int k, int i, int t, int nt) {
  const int row = i + t < nt ? i + t : nt - 1;
  return (size_t)(row - k) * NB;
}

static void sswap_block_column(int n, float *A, int lda, int *ipiv, int k, int j, lu_swaps swaps) {
  const int nt = n / NB, r0 = k * NB;
  float *top = A + (size_t)j * NB * lda + r0; /* tile (k, j) */
  if (swaps == SWAPS_COLUMNS) {
    lu_slaswp_column(n - r0, lda, top, r0, ipiv + r0);
    return;
  }
  if (swaps == SWAPS_TILES || k + 1 == nt) {
    lu_slaswp_tile(lda, top, r0, ipiv + r0);
    for (int i = k + 1; i < nt; i++)
      lu_sswap_tiles(lda, top, top + (size_t)(i - k) * NB, r0, i * NB, ipiv + r0);
    return;
  }
  for (int i = k + 1; i < nt; i += LU_SWAP_GROUP) {
    const int count = nt - i < LU_SWAP_GROUP ? nt - i : LU_SWAP_GROUP;
    lu_sswap_group(lda, top, top + group_offset(k, i, 0, nt), top + group_offset(k, i, 1, nt),
                   top + group_offset(k, i, 2, nt), top + group_offset(k, i, 3, nt),
                   top + group_offset(k, i, 4, nt), top + group_offset(k, i, 5, nt),
                   top + group_offset(k, i, 6, nt), top + group_offset(k, i, 7, nt), r0, i * NB, count,
                   i == k + 1, ipiv + r0);
  }
}

static void dswap_block_column(int n, double *A, int lda, int *ipiv, int k, int j, lu_swaps swaps) {
  const int nt = n / NB, r0 = k * NB;
  double *top = A + (size_t)j * NB * lda + r0; /* tile (k, j) */
  if (swaps == SWAPS_COLUMNS) {
    lu_dlaswp_column(n - r0, lda, top, r0, ipiv + r0);
    return;
  }
  if (swaps == SWAPS_TILES || k + 1 == nt) {
    lu_dlaswp_tile(lda, top, r0, ipiv + r0);
    for (int i = k + 1; i < nt; i++)
      lu_dswap_tiles(lda, top, top + (size_t)(i - k) * NB, r0, i * NB, ipiv + r0);
    return;
  }
  for (int i = k + 1; i < nt; i += LU_SWAP_GROUP) {
    const int count = nt - i < LU_SWAP_GROUP ? nt - i : LU_SWAP_GROUP;
    lu_dswap_group(lda, top, top + group_offset(k, i, 0, nt), top + group_offset(k, i, 1, nt),
                   top + group_offset(k, i, 2, nt), top + group_offset(k, i, 3, nt),
                   top + group_offset(k, i, 4, nt), top + group_offset(k, i, 5, nt),
                   top + group_offset(k, i, 6, nt), top + group_offset(k, i, 7, nt), r0, i * NB, count,
                   i == k + 1, ipiv + r0);
  }
}

/* A's tile (i, j): NB x NB from row i NB, column j NB. */
#define TILE(A, i, j) ((A) + ((size_t)(j)*NB) * lda + (size_t)(i)*NB)

/* --inverse-trsm: step k's inverse of L(k, k), NB x NB, in the k-th of the
 * nt - 1 buffers of inverse (the last step has no block row to solve), or
 * NULL for the solves. A buffer per step rather than one reused by every
 * step: step k+1's inversion then never writes what step k's products may
 * still read, so neither waits for the other and nothing depends on the
 * runtime renaming the buffer; n NB - NB^2 elements in all, about a block
 * column (docs/lu.md). */
#define STEP_INVERSE(inverse, k) ((inverse) != NULL && (k) + 1 < nt ? (inverse) + (size_t)(k)*NB * NB : NULL)

/* Step k's update of block column j > k: its interchanges, the solve for
 * U(k, j), and the trailing updates of its tiles below row k. Linv: NULL, or
 * step k's inverse of L(k, k) (STEP_INVERSE). */
static void supdate_column(int n, float *A, int lda, int *ipiv, int k, int j, lu_swaps swaps, float *Linv) {
  const int nt = n / NB;
  sswap_block_column(n, A, lda, ipiv, k, j, swaps); /* 2 */
  if (Linv != NULL)
    lu_strsm_inv(lda, Linv, TILE(A, k, j)); /* 3 */
  else
    lu_strsm(lda, TILE(A, k, k), TILE(A, k, j));
  for (int i = k + 1; i < nt; i++)
    lu_sgemm(lda, TILE(A, i, k), TILE(A, k, j), TILE(A, i, j)); /* 4 */
}

static void dupdate_column(int n, double *A, int lda, int *ipiv, int k, int j, lu_swaps swaps, double *Linv) {
  const int nt = n / NB;
  dswap_block_column(n, A, lda, ipiv, k, j, swaps); /* 2 */
  if (Linv != NULL)
    lu_dtrsm_inv(lda, Linv, TILE(A, k, j)); /* 3 */
  else
    lu_dtrsm(lda, TILE(A, k, k), TILE(A, k, j));
  for (int i = k + 1; i < nt; i++)
    lu_dgemm(lda, TILE(A, i, k), TILE(A, k, j), TILE(A, i, j)); /* 4 */
}

/* How the steps are written (--order). Every order runs the same tasks on the
 * same data, each tile taking its updates in the same order (step 0, 1, ...),
 * so they compute the same factors and the dataflow graph is the same; only
 * the order of the calls differs, and with it how the runtime ranks the
 * graph (docs/lu.md, "The order of the calls").
 *
 * The calls go in iterations, one per panel. Block column j is *active* from
 * iteration first_step(j) on: in that iteration it takes every step's update
 * it has not had yet, and in each later one the step of that iteration.
 * Iteration i brings block column i up to date, factors panel i, then gives
 * step i's update to every active block column right of it, nearest first.
 *
 * - Left-looking (--order left, the default): block column j is active only
 *   from its own iteration, first_step(j) = j: it takes the updates of
 *   every earlier step, then its panel is factored. The program then
 *   submits each panel right after what it needs, and the runtime ranks the
 *   graph in that order (CSS_PROGRAM_ORDER=auto, docs/environment.md): at a
 *   first run the block columns arrive on the GPU one after another and
 *   each is updated as it arrives.
 * - Right-looking (--order right, LAPACK's dgetrf): every block column is
 *   active from the start, first_step(j) = 0: step k factors panel k and
 *   updates every block column right of it. The runtime ranks this graph by
 *   its critical path.
 * - Staggered (--order staggered): block column j is active from iteration
 *   j * stagger / 100 (--stagger, 50 by default): it starts taking updates
 *   part way, so that its chain of steps (each waits for the one before)
 *   is not left to the end, as left-looking leaves the last block column's,
 *   while the first iterations still touch few block columns. */
typedef struct {
  lu_swaps swaps;   /* --swaps */
  bool gpu_panel;   /* --gpu-panel */
  bool left_at_end; /* --left-swaps end */
  int stagger;      /* block column j is active from iteration j * stagger / 100: left 100, right 0 */
} lu_options;

static int first_step(const lu_options *options, int j) {
  return (int)((long)j * options->stagger / 100);
}

/* The factorisation's data, for the calls of either precision. */
typedef struct {
  int n, lda;
  void *A;       /* float or double, lda x n */
  int *ipiv;     /* n pivots */
  void *inverse; /* --inverse-trsm: the buffers (STEP_INVERSE), or NULL */
  lu_options options;
} lu_problem;

/* One precision's calls, so that the order of the calls is written once. */
typedef struct {
  void (*update)(const lu_problem *p, int k, int j);   /* step k's update of block column j > k */
  void (*panel)(const lu_problem *p, int j);           /* panel j, and with --inverse-trsm its L(j, j)^-1 */
  void (*swaps)(const lu_problem *p, int step, int k); /* step's interchanges on L(., k), k < step */
  void (*left_at_end)(const lu_problem *p, int j);     /* every later interchange on L(., j) */
} lu_calls;

static void s_update(const lu_problem *p, int k, int j) {
  const int nt = p->n / NB;
  float *inverse = p->inverse;
  supdate_column(p->n, p->A, p->lda, p->ipiv, k, j, p->options.swaps, STEP_INVERSE(inverse, k));
}
static void s_panel(const lu_problem *p, int j) {
  const int nt = p->n / NB, lda = p->lda;
  float *A = p->A, *inverse = p->inverse;
  spanel(p->n - j * NB, lda, TILE(A, j, j), j * NB, p->ipiv + j * NB, p->options.gpu_panel); /* 1 */
  float *Linv = STEP_INVERSE(inverse, j);
  if (Linv != NULL) lu_sinvert_diag(lda, TILE(A, j, j), Linv); /* 3, by inverse: L(j, j)^-1 */
}
static void s_swaps(const lu_problem *p, int step, int k) {
  sswap_block_column(p->n, p->A, p->lda, p->ipiv, step, k, p->options.swaps); /* 2, left */
}
static void s_left_at_end(const lu_problem *p, int j) {
  const int lda = p->lda;
  float *A = p->A;
  lu_slaswp_left(p->n - j * NB, lda, TILE(A, j, j), j * NB, p->ipiv + j * NB);
}
static const lu_calls single_calls = {s_update, s_panel, s_swaps, s_left_at_end};

static void d_update(const lu_problem *p, int k, int j) {
  const int nt = p->n / NB;
  double *inverse = p->inverse;
  dupdate_column(p->n, p->A, p->lda, p->ipiv, k, j, p->options.swaps, STEP_INVERSE(inverse, k));
}
static void d_panel(const lu_problem *p, int j) {
  const int nt = p->n / NB, lda = p->lda;
  double *A = p->A, *inverse = p->inverse;
  dpanel(p->n - j * NB, lda, TILE(A, j, j), j * NB, p->ipiv + j * NB, p->options.gpu_panel); /* 1 */
  double *Linv = STEP_INVERSE(inverse, j);
  if (Linv != NULL) lu_dinvert_diag(lda, TILE(A, j, j), Linv); /* 3, by inverse: L(j, j)^-1 */
}
static void d_swaps(const lu_problem *p, int step, int k) {
  dswap_block_column(p->n, p->A, p->lda, p->ipiv, step, k, p->options.swaps); /* 2, left */
}
static void d_left_at_end(const lu_problem *p, int j) {
  const int lda = p->lda;
  double *A = p->A;
  lu_dlaswp_left(p->n - j * NB, lda, TILE(A, j, j), j * NB, p->ipiv + j * NB);
}
static const lu_calls double_calls = {d_update, d_panel, d_swaps, d_left_at_end};

/* The swaps left of the panel: only the final L needs them, and the
 * updates of step k on every block column right of it read L(., k) as the
 * panel left it. By default (--left-swaps steps) step s's interchanges on
 * L(., k), k < s, are the tile tasks used on the right, called in the first
 * iteration (>= s) after the last read of the unswapped L(., k): the
 * iteration in which the last block column takes step k. Left-looking that
 * is the last iteration, after which each block column takes its steps in
 * order (tile row s of L is final after step s's, and goes home while the
 * rest computes); right-looking, iteration s itself. --left-swaps end: each
 * block column takes all of its later interchanges at the end, in one task
 * over the region its panel task factored (laswp_left), and L goes home only
 * then. The same interchanges, in the same order on each block column. */
static void lu_factor(const lu_problem *p, const lu_calls *calls) {
  const int nt = p->n / NB;
  const lu_options *options = &p->options;
  int *next_update = calloc((size_t)nt, sizeof(int)); /* per block column: the first step it has not taken */
  int *next_swap = calloc((size_t)nt, sizeof(int));   /* per block column of L: the first step not applied */
  if (next_update == NULL || next_swap == NULL) {
    fprintf(stderr, "lu: out of memory for %d block columns\n", nt);
    exit(1);
  }
  for (int k = 0; k < nt; k++)
    next_swap[k] = k + 1;
  const int last_active = first_step(options, nt - 1); /* the iteration the last block column starts in */
  for (int i = 0; i < nt; i++) {
    for (; next_update[i] < i; next_update[i]++) /* block column i up to date */
      calls->update(p, next_update[i], i);
    calls->panel(p, i);
    for (int j = i + 1; j < nt; j++) /* step i, and any step missed, on the active block columns */
      if (first_step(options, j) <= i)
        for (; next_update[j] <= i; next_update[j]++)
          calls->update(p, next_update[j], j);
    if (!options->left_at_end && i >= last_active) /* the last block column has read every L(., k), k < i */
      for (int k = 0; k < i; k++)
        for (; next_swap[k] <= i; next_swap[k]++)
          calls->swaps(p, next_swap[k], k);
  }
  if (options->left_at_end)
    for (int j = 0; j + 1 < nt; j++)
      calls->left_at_end(p, j);
  free(next_update);
  free(next_swap);
}

/* ---------------------------------------------------------------- the matrix */

static char PREC = 'd';
static int N, LDA;
static double *Ad; /* one of the two, lda x n */
static float *As;
static int *IPIV; /* n pivots, 1-based global rows */
static void *INVERSE; /* --inverse-trsm: nt - 1 buffers of NB x NB in PREC (STEP_INVERSE); else NULL */

/* Element (r, c) as stored, in double. */
static inline double stored(long r, long c) {
  size_t e = (size_t)c * LDA + (size_t)r;
  return PREC == 'd' ? Ad[e] : (double)As[e];
}

/* Work on the columns in parallel: plain threads, not tasks (the runtime must
 * not see the matrix before the timed run), as many as the machine has
 * cores. Thread t gets columns [first, last). */
typedef void column_work(long first, long last, int thread, void *context);

enum { max_threads = 64 };

struct column_job {
  column_work *work;
  void *context;
  long first, last;
  int thread;
};

static void *column_worker(void *arg) {
  struct column_job *job = arg;
  job->work(job->first, job->last, job->thread, job->context);
  return NULL;
}

static int thread_count(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores < 1 ? 1 : cores > max_threads ? max_threads : (int)cores;
}

static void for_columns(long n, column_work *work, void *context) {
  const int threads = thread_count();
  pthread_t ids[max_threads];
  bool started[max_threads] = {false};
  struct column_job jobs[max_threads];
  for (int t = 0; t < threads; t++) {
    jobs[t] = (struct column_job){work, context, n * t / threads, n * (t + 1) / threads, t};
    started[t] = t > 0 && pthread_create(&ids[t], NULL, column_worker, &jobs[t]) == 0;
  }
  for (int t = 0; t < threads; t++) /* share 0, and any share whose thread did not start */
    if (!started[t]) column_worker(&jobs[t]);
  for (int t = 1; t < threads; t++)
    if (started[t]) pthread_join(ids[t], NULL);
}

/* Columns [first, last) of A: the test matrix; the rows between n and lda,
 * which no task names, are NaN, so that a kernel that strayed into them
 * would spoil the factors. */
static void fill_columns(long first, long last, int thread, void *context) {
  (void)thread;
  (void)context;
  for (long c = first; c < last; c++) {
    size_t col = (size_t)c * LDA;
    if (PREC == 'd') {
      for (long r = 0; r < N; r++)
        Ad[col + r] = lu_element(r, c);
      for (long r = N; r < LDA; r++)
        Ad[col + r] = NAN;
    } else {
      for (long r = 0; r < N; r++)
        As[col + r] = (float)lu_element(r, c);
      for (long r = N; r < LDA; r++)
        As[col + r] = NAN;
    }
  }
}

/* The matrix, and pivots that no panel has written yet: 0, a row that does
 * not exist, which the swaps ignore and the check reports. */
static void fill_matrix(void) {
  for_columns(N, fill_columns, NULL);
  memset(IPIV, 0, sizeof(int) * (size_t)N);
}

/* ---------------------------------------------------------------- the check
 *
 * At any n: a random vector x, y = A x taken before the run, then
 *
 *   |P y - L (U x)|_1 / (n |A|_1 |x|_1 eps)
 *
 * from the factors and pivots the run left in host memory: (PA - LU) x
 * relative to the scale of the product, O(n^2) work. For n <= 2048 also the
 * whole |PA - LU|_1 / (n |A|_1 eps), LAPACK's test ratio, for our factors and
 * for LAPACKE's ?getrf of the same matrix in the same precision. */

struct products {
  const double *in; /* the vector multiplied */
  double *partial;  /* thread t's sum in partial[t * n ...] */
  double *col_sums; /* |A|_1 per column, for the norm */
};

/* partial_t += A(:, c) in[c] and col_sums[c] = sum_r |A(r, c)|. */
static void times_a(long first, long last, int thread, void *context) {
  struct products *p = context;
  double *y = p->partial + (size_t)thread * N;
  for (long c = first; c < last; c++) {
    double xc = p->in[c], sum = 0;
    for (long r = 0; r < N; r++) {
      double a = stored(r, c);
      y[r] += a * xc;
      sum += fabs(a);
    }
    p->col_sums[c] = sum;
  }
}

/* partial_t += U(0..c, c) in[c]: U, the upper triangle with its diagonal. */
static void times_u(long first, long last, int thread, void *context) {
  struct products *p = context;
  double *y = p->partial + (size_t)thread * N;
  for (long c = first; c < last; c++) {
    double xc = p->in[c];
    for (long r = 0; r <= c; r++)
      y[r] += stored(r, c) * xc;
  }
}

/* partial_t += L(c+1.., c) in[c]: L's strict lower triangle (its diagonal is 1). */
static void times_l(long first, long last, int thread, void *context) {
  struct products *p = context;
  double *y = p->partial + (size_t)thread * N;
  for (long c = first; c < last; c++) {
    double xc = p->in[c];
    for (long r = c + 1; r < N; r++)
      y[r] += stored(r, c) * xc;
  }
}

/* out := sum of the threads' partial vectors (+ out, when accumulate). */
static void multiply(column_work *work, const double *in, double *out, bool accumulate, double *col_sums) {
  const int threads = thread_count();
  double *partial = calloc((size_t)threads * N, sizeof(double));
  if (partial == NULL) {
    fprintf(stderr, "lu: out of memory for the check\n");
    exit(1);
  }
  struct products p = {in, partial, col_sums};
  for_columns(N, work, &p);
  for (long r = 0; r < N; r++) {
    double sum = accumulate ? out[r] : 0;
    for (int t = 0; t < threads; t++)
      sum += partial[(size_t)t * N + r];
    out[r] = sum;
  }
  free(partial);
}

static double norm1(const double *v, long n) {
  double sum = 0;
  for (long e = 0; e < n; e++)
    sum += fabs(v[e]);
  return sum;
}

/* |PA - LU|_1 / (n |A|_1 eps) for the factors F (n x n, leading dimension
 * n) and pivots ipiv of the test matrix in precision PREC. Overwrites F. */
static double factor_residual(double *F, const int *ipiv, double eps) {
  const long n = N;
  double *PA = malloc(sizeof(double) * n * n);
  if (PA == NULL) return INFINITY;
  for (long c = 0; c < n; c++)
    for (long r = 0; r < n; r++) {
      double a = lu_element(r, c);
      PA[c * n + r] = PREC == 'd' ? a : (double)(float)a;
    }
  double anorm = 0;
  for (long c = 0; c < n; c++) {
    double sum = 0;
    for (long r = 0; r < n; r++)
      sum += fabs(PA[c * n + r]);
    anorm = fmax(anorm, sum);
  }
  LAPACKE_dlaswp_work(LAPACK_COL_MAJOR, (lapack_int)n, PA, (lapack_int)n, 1, (lapack_int)n,
                      (lapack_int *)ipiv, 1);
  /* LU := L U: U (F's upper triangle, zeros below) times L (F's strict lower
   * triangle, unit diagonal), in place by trmm. */
  double *LU = calloc((size_t)n * n, sizeof(double));
  if (LU == NULL) {
    free(PA);
    return INFINITY;
  }
  for (long c = 0; c < n; c++)
    for (long r = 0; r <= c; r++)
      LU[c * n + r] = F[c * n + r];
  cblas_dtrmm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, (int)n, (int)n, 1.0, F, (int)n,
              LU, (int)n);
  double rnorm = 0;
  for (long c = 0; c < n; c++) {
    double sum = 0;
    for (long r = 0; r < n; r++)
      sum += fabs(PA[c * n + r] - LU[c * n + r]);
    rnorm = fmax(rnorm, sum);
  }
  free(PA);
  free(LU);
  return rnorm / ((double)n * anorm * eps);
}

/* The whole-matrix ratio for our factors, and for LAPACKE's ?getrf of the
 * same matrix; *same_pivots counts the pivots that agree. */
static void compare_with_lapack(double eps, double *ours, double *lapack, int *same_pivots) {
  const long n = N;
  double *F = malloc(sizeof(double) * n * n);
  int *piv = malloc(sizeof(int) * n);
  float *Fs = PREC == 's' ? malloc(sizeof(float) * n * n) : NULL;
  *ours = *lapack = INFINITY;
  *same_pivots = 0;
  if (F == NULL || piv == NULL || (PREC == 's' && Fs == NULL)) goto done;
  for (long c = 0; c < n; c++)
    for (long r = 0; r < n; r++)
      F[c * n + r] = stored(r, c);
  *ours = factor_residual(F, IPIV, eps);

  lapack_int info;
  if (PREC == 'd') {
    for (long c = 0; c < n; c++)
      for (long r = 0; r < n; r++)
        F[c * n + r] = lu_element(r, c);
    info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, F, (lapack_int)n, piv);
  } else {
    for (long c = 0; c < n; c++)
      for (long r = 0; r < n; r++)
        Fs[c * n + r] = (float)lu_element(r, c);
    info = LAPACKE_sgetrf(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, Fs, (lapack_int)n, piv);
    for (long e = 0; e < n * n; e++)
      F[e] = Fs[e];
  }
  if (info < 0) goto done;
  for (long r = 0; r < n; r++)
    *same_pivots += piv[r] == IPIV[r];
  *lapack = factor_residual(F, piv, eps);
done:
  free(F);
  free(Fs);
  free(piv);
}

/* ---------------------------------------------------------------- the driver */

static void usage(const char *message) {
  fprintf(stderr,
          "lu: %s\n"
          "usage: lu [-n N] [-t NB] [--lda LDA] [-p s|d] [--check] [--swaps groups|tiles|columns]\n"
          "          [--left-swaps steps|end] [--order left|right|staggered] [--stagger P] [--gpu-panel]\n"
          "          [--inverse-trsm] [--prelocked]\n"
          "  -n N            matrix order (default 4096); a multiple of NB\n"
          "  -t NB           tile size (default 256)\n"
          "  --lda LDA       leading dimension, at least N (default N)\n"
          "  -p s|d          precision (default d)\n"
          "  --check         verify PA = LU (|PAx - LUx|; the whole |PA - LU| against LAPACK for n <= 2048)\n"
          "  --swaps groups  row interchanges as tasks on up to 8 tiles below a panel's row (default)\n"
          "  --swaps tiles   ... one task per tile below the panel's row\n"
          "  --swaps columns one interchange task per block column and step, over its rows k NB .. n-1\n"
          "  --left-swaps steps  the interchanges left of each panel step by step, by the tasks used on\n"
          "                      the right, once nothing reads the unswapped rows (default)\n"
          "  --left-swaps end    ... at the end, one task per block column\n"
          "  --order left    block column by block column: each takes every earlier step's updates, then\n"
          "                  its panel is factored (the default)\n"
          "  --order right   step by step, as LAPACK's dgetrf: each panel, then its updates on the right\n"
          "  --order staggered  block column j takes its updates from step j P / 100 on (--stagger P,\n"
          "                  default 50): its earlier updates at once, then one a step\n"
          "  --gpu-panel     the panels on the GPUs (cusolverDn getrf), CUDA build only\n"
          "  --inverse-trsm  invert each panel's unit lower diagonal tile once (one more task per step,\n"
          "                  an NB x NB buffer per step); the block row's solves become products by it\n"
          "  --prelocked     factor once untimed first, write A again and time the second run\n"
          "                  (memory=prelocked); default: the first run (memory=first-run)\n",
          message);
  exit(2);
}

static long parse_positive(const char *text, const char *what) {
  char *end = NULL;
  long value = text ? strtol(text, &end, 10) : 0;
  if (text == NULL || *end != '\0' || value <= 0) {
    char message[128];
    snprintf(message, sizeof message, "%s needs a positive integer", what);
    usage(message);
  }
  return value;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int env_int(const char *name, int fallback) {
  const char *text = getenv(name);
  return text != NULL && *text != '\0' ? atoi(text) : fallback;
}

/* The accelerators the runtime drives, as far as this program can tell. */
static int accelerators_in_use(void) {
  int sim = env_int("CSS_SIM_DEVICES", 0);
#ifdef GPUSS_LU_CUDA
  int gpus = lu_cuda_device_count();
  int wanted = env_int("CSS_NUM_GPUS", -1);
  if (wanted >= 0 && wanted < gpus) gpus = wanted;
  return gpus > 0 ? gpus * env_int("CSS_GPU_PARTITIONS", 1) : sim;
#else
  return sim;
#endif
}

static void run(lu_options options) {
  const lu_problem problem = {.n = N,
                              .lda = LDA,
                              .A = PREC == 'd' ? (void *)Ad : (void *)As,
                              .ipiv = IPIV,
                              .inverse = INVERSE,
                              .options = options};
  lu_factor(&problem, PREC == 'd' ? &double_calls : &single_calls);
}

int main(int argc, char **argv) {
  long n = 4096, nb = 256, lda = 0;
  lu_swaps swaps = SWAPS_GROUPS;
  bool check = false, gpu_panel = false, prelocked = false, left_at_end = false, inverse_trsm = false;
  const char *order = NULL; /* --order; left by default */
  long stagger = -1;        /* --stagger; 50 with --order staggered */
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "-n") == 0)
      n = parse_positive(a + 1 < argc ? argv[++a] : NULL, "-n");
    else if (strcmp(argv[a], "-t") == 0)
      nb = parse_positive(a + 1 < argc ? argv[++a] : NULL, "-t");
    else if (strcmp(argv[a], "--lda") == 0)
      lda = parse_positive(a + 1 < argc ? argv[++a] : NULL, "--lda");
    else if (strcmp(argv[a], "-p") == 0) {
      const char *p = a + 1 < argc ? argv[++a] : "";
      if (strcmp(p, "s") != 0 && strcmp(p, "d") != 0) usage("-p takes s or d");
      PREC = p[0];
    } else if (strcmp(argv[a], "--check") == 0)
      check = true;
    else if (strcmp(argv[a], "--swaps") == 0) {
      const char *s = a + 1 < argc ? argv[++a] : "";
      if (strcmp(s, "groups") == 0)
        swaps = SWAPS_GROUPS;
      else if (strcmp(s, "tiles") == 0)
        swaps = SWAPS_TILES;
      else if (strcmp(s, "columns") == 0)
        swaps = SWAPS_COLUMNS;
      else
        usage("--swaps takes groups, tiles or columns");
    } else if (strcmp(argv[a], "--left-swaps") == 0) {
      const char *s = a + 1 < argc ? argv[++a] : "";
      if (strcmp(s, "end") != 0 && strcmp(s, "steps") != 0) usage("--left-swaps takes end or steps");
      left_at_end = s[0] == 'e';
    } else if (strcmp(argv[a], "--order") == 0) {
      order = a + 1 < argc ? argv[++a] : "";
      if (strcmp(order, "left") != 0 && strcmp(order, "right") != 0 && strcmp(order, "staggered") != 0)
        usage("--order takes left, right or staggered");
    } else if (strcmp(argv[a], "--stagger") == 0) {
      const char *text = a + 1 < argc ? argv[++a] : NULL;
      char *end = NULL;
      stagger = text ? strtol(text, &end, 10) : -1;
      if (text == NULL || *end != '\0' || stagger < 0 || stagger > 100) usage("--stagger takes 0 to 100");
    } else if (strcmp(argv[a], "--gpu-panel") == 0)
      gpu_panel = true;
    else if (strcmp(argv[a], "--inverse-trsm") == 0)
      inverse_trsm = true;
    else if (strcmp(argv[a], "--prelocked") == 0)
      prelocked = true;
    else if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0)
      usage("help");
    else {
      char message[256];
      snprintf(message, sizeof message, "unknown argument '%s'", argv[a]);
      usage(message);
    }
  }
  if (order == NULL) order = "left";
  if (stagger >= 0 && strcmp(order, "staggered") != 0) usage("--stagger goes with --order staggered");
  if (stagger < 0) stagger = 50;
  const lu_options options = {.swaps = swaps,
                              .gpu_panel = gpu_panel,
                              .left_at_end = left_at_end,
                              .stagger = strcmp(order, "left") == 0    ? 100
                                         : strcmp(order, "right") == 0 ? 0
                                                                       : (int)stagger};
  char order_text[32]; /* the summary's: left, right or staggered:P */
  if (strcmp(order, "staggered") == 0)
    snprintf(order_text, sizeof order_text, "staggered:%d", options.stagger);
  else
    snprintf(order_text, sizeof order_text, "%s", order);
  if (lda == 0) lda = n;
  if (n % nb != 0) usage("n must be a multiple of the tile size");
  if (lda < n) usage("lda must be at least n");
  if (lda >= (1L << 30) || n >= (1L << 30)) usage("n or lda too large"); /* int rows, pivots and ld */
#ifndef GPUSS_LU_CUDA
  if (gpu_panel) {
    fprintf(stderr, "lu: --gpu-panel needs the CUDA build (configure with the CUDA toolkit)\n");
    return 2;
  }
#endif
  NB = (int)nb;
  N = (int)n;
  LDA = (int)lda;
  const size_t elem = PREC == 'd' ? sizeof(double) : sizeof(float);

  /* One allocation for the whole matrix: memory the runtime has never seen. */
  void *matrix = malloc(elem * (size_t)lda * (size_t)n);
  IPIV = malloc(sizeof(int) * (size_t)n);
  if (matrix == NULL || IPIV == NULL) {
    fprintf(stderr, "lu: out of memory for a %ld x %ld matrix\n", lda, n);
    return 1;
  }
  if (PREC == 'd')
    Ad = matrix;
  else
    As = matrix;
  fill_matrix();

  /* --inverse-trsm: a buffer per step that has a block row to solve. Written
   * now, as the matrix is, so that the first run's page-locking of it does
   * not also pay for making its pages; the tasks write every element. */
  const size_t inverse_bytes = elem * (size_t)nb * (size_t)nb * (size_t)(n / nb - 1);
  if (inverse_trsm && inverse_bytes > 0) {
    if ((INVERSE = malloc(inverse_bytes)) == NULL) {
      fprintf(stderr, "lu: out of memory for %ld inverses of %ld x %ld\n", n / nb - 1, nb, nb);
      return 1;
    }
    memset(INVERSE, 0, inverse_bytes);
  }

  /* The check needs A x and |A|_1: taken now, from the matrix itself. */
  double *x = NULL, *y = NULL, *col_sums = NULL, anorm = 0;
  if (check) {
    x = malloc(sizeof(double) * n);
    y = malloc(sizeof(double) * n);
    col_sums = malloc(sizeof(double) * n);
    if (x == NULL || y == NULL || col_sums == NULL) {
      fprintf(stderr, "lu: out of memory for the check\n");
      return 1;
    }
    for (long e = 0; e < n; e++)
      x[e] = lu_element(n + e, e); /* not an element of A: another random number in [-0.5, 0.5) */
    multiply(times_a, x, y, false, col_sums);
    for (long c = 0; c < n; c++)
      anorm = fmax(anorm, col_sums[c]);
  }

#ifdef GPUSS_LU_RUNTIME
  /* Bring the runtime (and the GPUs) up now, so their start-up is not timed. */
  css_start();
#endif
#ifdef GPUSS_LU_CUDA
  if (lu_cuda_device_count() > 0) lu_gpu_prepare(PREC, N, LDA, gpu_panel, inverse_trsm);
#endif

  if (prelocked) {
    run(options);
#pragma css barrier
    fill_matrix();
#ifdef GPUSS_LU_RUNTIME
    /* Locked before the clock whatever the runtime chose for the first run
     * (staging buffers lock nothing: CSS_STAGING_THREADS, docs/environment.md). */
    css_pin(matrix, elem * (size_t)lda * (size_t)n);
    css_pin(IPIV, sizeof(int) * (size_t)n);
    if (INVERSE != NULL) css_pin(INVERSE, inverse_bytes);
#endif
  }

  /* The timed part: from the first submit until the factors and pivots are back in host memory. */
  double start = now_seconds();
  run(options);
#pragma css barrier
  double seconds = now_seconds() - start;

  const char *verdict = "skipped";
  if (check) {
    const double eps = PREC == 'd' ? DBL_EPSILON : FLT_EPSILON;
    /* LAPACK's test programs pass a factorisation whose ratio is below 30. */
    const double threshold = 30;
    double *ux = malloc(sizeof(double) * n), *lux = malloc(sizeof(double) * n);
    if (ux == NULL || lux == NULL) {
      fprintf(stderr, "lu: out of memory for the check\n");
      return 1;
    }
    multiply(times_u, x, ux, false, NULL);  /* U x */
    memcpy(lux, ux, sizeof(double) * n);    /* L's unit diagonal */
    multiply(times_l, ux, lux, true, NULL); /* L (U x) */
    bool pivots_valid = true;
    for (long r = 0; r < n; r++) { /* y := P y, the interchanges in order */
      long p = IPIV[r] - 1;
      if (p < r || p >= n) {
        pivots_valid = false;
        break;
      }
      double t = y[r];
      y[r] = y[p];
      y[p] = t;
    }
    for (long r = 0; r < n; r++)
      lux[r] -= y[r];
    double ratio = pivots_valid ? norm1(lux, n) / ((double)n * anorm * norm1(x, n) * eps) : INFINITY;
    bool pass = ratio < threshold;
    printf("check: |PAx - LUx|_1 / (n |A|_1 |x|_1 eps) = %.3e (threshold %.0f)%s\n", ratio, threshold,
           pivots_valid ? "" : "; a pivot is out of range");
    if (n <= 2048 && pivots_valid) {
      double ours, lapack;
      int same;
      compare_with_lapack(eps, &ours, &lapack, &same);
      printf("check: |PA - LU|_1 / (n |A|_1 eps) = %.3e, LAPACKE %cgetrf's = %.3e (threshold %.0f); "
             "%d of %ld pivots as LAPACKE's\n",
             ours, PREC, lapack, threshold, same, n);
      pass = pass && ours < threshold;
    }
    verdict = pass ? "PASS" : "FAIL";
    free(ux);
    free(lux);
  }

#ifdef GPUSS_LU_RUNTIME
  /* Finish before the summary so that the runtime's own output (CSS_STATS)
   * comes first and the summary stays the last line. */
  fflush(stdout);
  css_finish();
#endif
  const char *policy = getenv("CSS_CACHE_POLICY");
  if (policy == NULL || *policy == '\0') policy = "wb";
  /* 2 n^3 / 3, the leading term of LU's flop count (as vendors report it). */
  double gflops = 2.0 * (double)n * n * n / 3.0 / seconds / 1e9;
  printf("lu n=%ld ts=%d lda=%ld prec=%c gpus=%d policy=%s panel=%s swaps=%s left=%s memory=%s trsm=%s "
         "order=%s seconds=%.6f gflops=%.2f check=%s\n",
         n, NB, lda, PREC, accelerators_in_use(), policy, gpu_panel ? "gpu" : "host",
         swaps == SWAPS_GROUPS  ? "groups"
         : swaps == SWAPS_TILES ? "tiles"
                                : "columns",
         left_at_end ? "end" : "steps", prelocked ? "prelocked" : "first-run",
         inverse_trsm ? "inverse" : "solve", order_text, seconds, gflops, verdict);

  free(matrix);
  free(IPIV);
  free(INVERSE);
  free(x);
  free(y);
  free(col_sums);
  return strcmp(verdict, "FAIL") == 0 ? 1 : 0;
}
