/*
 * gemm.c: C += A B on tiles in host memory, the driver that times it and a
 * check of the result.
 *
 *   gemm [-n N] [-t TS] [-b BT] [-p s|d] [--check] [--prelocked] [--mpi]
 *
 * Each matrix is NT x NT tiles of TS x TS elements; every tile is its own
 * malloc'd column-major array, and M[i][j] points to tile (i, j). The
 * algorithm is the tiled triple loop, tile C[i][j] accumulating
 * A[i][k] B[k][j] over k, one task per tile product, with its loops blocked
 * by BT tiles as a sequential code blocks them for a cache (-b 1: the plain
 * triple loop). GPUSs runs a graph like this one, in which no task holds
 * others up, in the program's order (docs/architecture.md), so the blocks
 * are what the GPU's copies see: the first products need a few tiles rather
 * than a whole matrix, and C's tiles become final, and go home, one block
 * after another while the rest computes.
 *
 * Built by a plain C compiler the pragmas are ignored and everything runs in
 * order on the calling thread; built through gpuss-translate every call of
 * gemm_?tile becomes a task. The last line of output is
 *
 *   gemm n=.. ts=.. bt=.. prec=.. gpus=.. policy=.. memory=.. seconds=.. gflops=.. check=PASS|FAIL|skipped
 *
 * memory=first-run (the default): the matrices are written by plain loops
 * into malloc'd memory that the runtime has never seen, and the one timed
 * run pays for everything a program calling GEMM once would pay: the
 * runtime page-locking the tiles, every copy in and the result's copy out.
 * memory=prelocked (--prelocked): the product is computed once untimed
 * first, C is written again, and the second run is timed; the tiles are
 * then page-locked already, but no copy of them is left on a device (a
 * barrier drops device copies), so every transfer is still timed.
 *
 * --mpi (the GPUSs build, under mpirun; docs/mpi.md): every rank runs this
 * program and fills the matrices alike; each tile of A, B and C gets an owner
 * rank, 2-D block-cyclic, and each tile product runs where its tile of C
 * lives. Rank 0 gathers C for the check and prints the summary, with ranks=P.
 */
#define _POSIX_C_SOURCE 200809L
#include "gemm_matrix.h"
#include "gemm_tasks.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GPUSS_GEMM_RUNTIME
#include <gpuss.h>     /* css_start, css_finish: not spelled as pragmas */
#include <gpuss_mpi.h> /* --mpi: the distribution */
#endif

int TS = 512;  /* tile size; the task items A[TS][TS] read it at each submit */
static int NT; /* tiles per row and column */
static int BT = 4; /* tiles per block of the loops (-b) */

/* ---------------------------------------------------------------- the algorithm */

/* Each C[i][j] still sums its products in the order k = 0, 1, ..., so every
 * block size gives the same result, bit for bit. */
static void gemm_s(float *A[NT][NT], float *B[NT][NT], float *C[NT][NT]) {
  for (int ib = 0; ib < NT; ib += BT)
    for (int jb = 0; jb < NT; jb += BT)
      for (int kb = 0; kb < NT; kb += BT)
        for (int i = ib; i < ib + BT && i < NT; i++)
          for (int j = jb; j < jb + BT && j < NT; j++)
            for (int k = kb; k < kb + BT && k < NT; k++)
              gemm_stile(A[i][k], B[k][j], C[i][j]);
}

static void gemm_d(double *A[NT][NT], double *B[NT][NT], double *C[NT][NT]) {
  for (int ib = 0; ib < NT; ib += BT)
    for (int jb = 0; jb < NT; jb += BT)
      for (int kb = 0; kb < NT; kb += BT)
        for (int i = ib; i < ib + BT && i < NT; i++)
          for (int j = jb; j < jb + BT && j < NT; j++)
            for (int k = kb; k < kb + BT && k < NT; k++)
              gemm_dtile(A[i][k], B[k][j], C[i][j]);
}

/* ---------------------------------------------------------------- the matrices */

/* Tiles of matrix `which` (0 = A, 1 = B, 2 = C), NT * NT pointers in row-major
 * order of tiles: tile (i, j) is [i * NT + j]. One of the two precisions is used. */
static double **Md[3];
static float **Ms[3];
static char PREC = 'd';

static void fill_tile(int which, int ti, int tj) {
  const long row0 = (long)ti * TS, col0 = (long)tj * TS;
  size_t t = (size_t)ti * NT + tj;
  if (PREC == 'd') {
    double *tile = Md[which][t];
    for (long c = 0; c < TS; c++)
      for (long r = 0; r < TS; r++)
        tile[c * TS + r] = gemm_element(which, row0 + r, col0 + c);
  } else {
    float *tile = Ms[which][t];
    for (long c = 0; c < TS; c++)
      for (long r = 0; r < TS; r++)
        tile[c * TS + r] = (float)gemm_element(which, row0 + r, col0 + c);
  }
}

struct fill_job {
  int first, stride, matrices; /* fill matrices A..: bits 0, 1, 2 */
};

static void *fill_worker(void *arg) {
  const struct fill_job *job = arg;
  for (int which = 0; which < 3; which++) {
    if (!(job->matrices & (1 << which))) continue;
    for (int t = job->first; t < NT * NT; t += job->stride)
      fill_tile(which, t / NT, t % NT);
  }
  return NULL;
}

/* Writes the chosen matrices with plain loops, on as many threads as the
 * machine has cores (not tasks: the runtime must not see this memory before
 * the timed run). At n = 65536 the three double matrices are 103 GB, which
 * one thread takes minutes to write. */
static void fill_matrices(int matrices) {
  enum { max_threads = 64 };
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = cores < 1 ? 1 : cores > max_threads ? max_threads : (int)cores;
  pthread_t ids[max_threads];
  bool started[max_threads] = {false};
  struct fill_job jobs[max_threads];
  for (int t = 0; t < threads; t++) {
    jobs[t] = (struct fill_job){t, threads, matrices};
    started[t] = t > 0 && pthread_create(&ids[t], NULL, fill_worker, &jobs[t]) == 0;
  }
  for (int t = 0; t < threads; t++) /* share 0, and any share whose thread did not start */
    if (!started[t]) fill_worker(&jobs[t]);
  for (int t = 1; t < threads; t++)
    if (started[t]) pthread_join(ids[t], NULL);
}

/* ---------------------------------------------------------------- the check */

/* Tile (i, j) of matrix `which` in double precision: the tile itself, or its conversion in `tmp`. */
static const double *tile_d(int which, int i, int j, double *tmp) {
  size_t t = (size_t)i * NT + j;
  if (PREC == 'd') return Md[which][t];
  const float *tile = Ms[which][t];
  for (long e = 0; e < (long)TS * TS; e++)
    tmp[e] = tile[e];
  return tmp;
}

/* y := M x (beta = 0) or y += M x (beta = 1), from the tiles of matrix `which`. */
static void multiply(int which, const double *x, double *y, double beta, double *tmp) {
  const long n = (long)NT * TS;
  if (beta == 0) memset(y, 0, sizeof(double) * n);
  for (int i = 0; i < NT; i++)
    for (int j = 0; j < NT; j++)
      cblas_dgemv(CblasColMajor, CblasNoTrans, TS, TS, 1.0, tile_d(which, i, j, tmp), TS, x + (long)j * TS, 1,
                  1.0, y + (long)i * TS, 1);
}

static double norm2(const double *v, long n) {
  double sum = 0;
  for (long e = 0; e < n; e++)
    sum += v[e] * v[e];
  return sqrt(sum);
}

/* For small n: the largest difference between our C and CBLAS's C0 + A B of
 * the whole matrices (in double), relative to the largest entry. */
static double compare_with_cblas(long n, double *tmp) {
  double *full[3];
  for (int m = 0; m < 3; m++) {
    full[m] = malloc(sizeof(double) * n * n);
    if (full[m] == NULL) return INFINITY;
    for (long c = 0; c < n; c++)
      for (long r = 0; r < n; r++)
        full[m][c * n + r] = PREC == 'd' ? gemm_element(m, r, c) : (double)(float)gemm_element(m, r, c);
  }
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0, full[0], (int)n,
              full[1], (int)n, 1.0, full[2], (int)n);
  double diff = 0, largest = 0;
  for (int i = 0; i < NT; i++)
    for (int j = 0; j < NT; j++) {
      const double *t = tile_d(2, i, j, tmp);
      for (long c = 0; c < TS; c++)
        for (long r = 0; r < TS; r++) {
          double ref = full[2][((long)j * TS + c) * n + (long)i * TS + r];
          diff = fmax(diff, fabs(t[c * TS + r] - ref));
          largest = fmax(largest, fabs(ref));
        }
    }
  for (int m = 0; m < 3; m++)
    free(full[m]);
  return diff / largest;
}

/* ---------------------------------------------------------------- under MPI (--mpi) */

#ifdef GPUSS_GEMM_RUNTIME
/* The distribution call: tile (i, j) of every matrix to rank
 * css_mpi_block_cyclic_owner(i, j), 2-D block-cyclic over the ranks. */
static void distribute(size_t tile_bytes) {
  for (int m = 0; m < 3; m++)
    for (int i = 0; i < NT; i++)
      for (int j = 0; j < NT; j++)
        css_mpi_owner(PREC == 'd' ? (void *)Md[m][(size_t)i * NT + j] : (void *)Ms[m][(size_t)i * NT + j],
                      tile_bytes, css_mpi_block_cyclic_owner(i, j, 0, 0));
}

/* Every rank filled every tile, but only the owner's copy is the value: the
 * others are made NaN, so that a task that read a tile its rank did not
 * receive (or received late) spoils C and the check. */
static void poison_unowned(size_t tile_bytes, int matrices) {
  const int rank = css_mpi_rank();
  for (int m = 0; m < 3; m++)
    if (matrices & (1 << m))
      for (int i = 0; i < NT; i++)
        for (int j = 0; j < NT; j++)
          if (css_mpi_block_cyclic_owner(i, j, 0, 0) != rank)
            memset(PREC == 'd' ? (void *)Md[m][(size_t)i * NT + j] : (void *)Ms[m][(size_t)i * NT + j], 0xff,
                   tile_bytes);
}
#endif

/* Rank 0's memory gets the current value of A, B and C. */
static void gather_matrices(size_t tile_bytes) {
#ifdef GPUSS_GEMM_RUNTIME
  for (int m = 0; m < 3; m++)
    for (size_t t = 0; t < (size_t)NT * NT; t++)
      css_mpi_gather(PREC == 'd' ? (void *)Md[m][t] : (void *)Ms[m][t], tile_bytes, 0);
#else
  (void)tile_bytes;
#endif
}

/* ---------------------------------------------------------------- the driver */

static void usage(const char *message) {
  fprintf(stderr,
          "gemm: %s\n"
          "usage: gemm [-n N] [-t TS] [-b BT] [-p s|d] [--check] [--prelocked]\n"
          "  -n N         matrix order (default 4096); a multiple of TS\n"
          "  -t TS        tile size (default 512)\n"
          "  -b BT        tiles per block of the loops (default 4; 1: the plain triple loop)\n"
          "  -p s|d       precision (default d)\n"
          "  --check      verify C (C x against C0 x + A (B x); all of C against CBLAS for n <= 2048)\n"
          "  --prelocked  compute once untimed first, write C again and time the second run\n"
          "               (memory=prelocked); default: the first run (memory=first-run)\n"
          "  --mpi        distribute the tiles over the MPI ranks (under mpirun; GPUSs build)\n",
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
#ifdef GPUSS_GEMM_CUDA
  int gpus = gemm_cuda_device_count();
  int wanted = env_int("CSS_NUM_GPUS", -1);
  if (wanted >= 0 && wanted < gpus) gpus = wanted;
  return gpus > 0 ? gpus : sim;
#else
  return sim;
#endif
}

static void run(void) {
  if (PREC == 'd')
    gemm_d((double *(*)[NT])Md[0], (double *(*)[NT])Md[1], (double *(*)[NT])Md[2]);
  else
    gemm_s((float *(*)[NT])Ms[0], (float *(*)[NT])Ms[1], (float *(*)[NT])Ms[2]);
}

int main(int argc, char **argv) {
  long n = 4096;
  long ts = 512;
  long block = 4;
  bool check = false, prelocked = false, mpi = false;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "-n") == 0)
      n = parse_positive(a + 1 < argc ? argv[++a] : NULL, "-n");
    else if (strcmp(argv[a], "-t") == 0)
      ts = parse_positive(a + 1 < argc ? argv[++a] : NULL, "-t");
    else if (strcmp(argv[a], "-b") == 0)
      block = parse_positive(a + 1 < argc ? argv[++a] : NULL, "-b");
    else if (strcmp(argv[a], "-p") == 0) {
      const char *p = a + 1 < argc ? argv[++a] : "";
      if (strcmp(p, "s") != 0 && strcmp(p, "d") != 0) usage("-p takes s or d");
      PREC = p[0];
    } else if (strcmp(argv[a], "--check") == 0)
      check = true;
    else if (strcmp(argv[a], "--prelocked") == 0)
      prelocked = true;
    else if (strcmp(argv[a], "--mpi") == 0)
      mpi = true;
    else if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0)
      usage("help");
    else {
      char message[256];
      snprintf(message, sizeof message, "unknown argument '%s'", argv[a]);
      usage(message);
    }
  }
  if (n % ts != 0) usage("n must be a multiple of the tile size");
  if (n / ts > 46340 || ts > 46340) usage("too many tiles or too large a tile"); /* int indices */
#ifndef GPUSS_GEMM_RUNTIME
  if (mpi) {
    fprintf(stderr, "gemm: --mpi needs the GPUSs build (gemm or gemm_host)\n");
    return 2;
  }
#endif
  TS = (int)ts;
  NT = (int)(n / ts);
  BT = block < NT ? (int)block : NT;
  const size_t elem = PREC == 'd' ? sizeof(double) : sizeof(float);
  const size_t tile_bytes = elem * (size_t)TS * TS;
  const size_t tiles = (size_t)NT * NT;

  /* Every tile its own malloc: memory the runtime has never seen. */
  for (int m = 0; m < 3; m++) {
    void **slots = calloc(tiles, sizeof(void *));
    if (slots == NULL) {
      fprintf(stderr, "gemm: out of memory\n");
      return 1;
    }
    for (size_t t = 0; t < tiles; t++)
      if ((slots[t] = malloc(tile_bytes)) == NULL) {
        fprintf(stderr, "gemm: out of memory for 3 x %zu tiles of %zu bytes\n", tiles, tile_bytes);
        return 1;
      }
    if (PREC == 'd') {
      Md[m] = calloc(tiles, sizeof(double *));
      for (size_t t = 0; Md[m] != NULL && t < tiles; t++)
        Md[m][t] = slots[t];
    } else {
      Ms[m] = calloc(tiles, sizeof(float *));
      for (size_t t = 0; Ms[m] != NULL && t < tiles; t++)
        Ms[m][t] = slots[t];
    }
    free(slots);
    if (Md[m] == NULL && Ms[m] == NULL) {
      fprintf(stderr, "gemm: out of memory\n");
      return 1;
    }
  }
  fill_matrices(7);

  /* The check needs C0 x + A (B x): taken now, from the tiles themselves. */
  double *x = NULL, *y = NULL, *tmp = NULL;
  if (check) {
    x = malloc(sizeof(double) * n);
    y = malloc(sizeof(double) * n);
    double *v = malloc(sizeof(double) * n);
    tmp = malloc(sizeof(double) * TS * TS);
    if (x == NULL || y == NULL || v == NULL || tmp == NULL) {
      fprintf(stderr, "gemm: out of memory for the check\n");
      return 1;
    }
    for (long e = 0; e < n; e++)
      x[e] = gemm_element(3, e, 0);
    multiply(1, x, v, 0, tmp); /* v := B x */
    multiply(2, x, y, 0, tmp); /* y := C0 x */
    multiply(0, v, y, 1, tmp); /* y += A v */
    free(v);
  }

  int rank = 0, ranks = 1;
#ifdef GPUSS_GEMM_RUNTIME
  if (mpi) {
    /* Every rank filled every tile alike: each owner's is the value. */
    distribute(tile_bytes);
    poison_unowned(tile_bytes, 7);
    rank = css_mpi_rank();
    ranks = css_mpi_size();
  }
  /* Bring the runtime (and the GPUs) up now, so their start-up is not timed. */
  css_start();
#endif
#ifdef GPUSS_GEMM_CUDA
  if (gemm_cuda_device_count() > 0) gemm_gpu_prepare(PREC);
#endif

  if (prelocked) {
    run();
#pragma css barrier
    fill_matrices(4); /* C again; A and B were only read */
#ifdef GPUSS_GEMM_RUNTIME
    if (mpi) poison_unowned(tile_bytes, 4);
    /* Locked before the clock whatever the runtime chose for the first run
     * (staging buffers lock nothing: CSS_STAGING_THREADS, docs/environment.md). */
    for (int which = 0; which < 3; which++)
      for (long t = 0; t < (long)NT * NT; t++) {
        void *tile = PREC == 'd' ? (void *)Md[which][t] : (void *)Ms[which][t];
        if (tile) css_pin(tile, tile_bytes);
      }
#endif
  }

  /* The timed part: from the first submit until C is back in host memory. */
  double start = now_seconds();
  run();
#pragma css barrier
  double seconds = now_seconds() - start;

  const char *verdict = "skipped";
  if (check && ranks > 1) gather_matrices(tile_bytes);
  if (check && rank == 0) {
    double *w = malloc(sizeof(double) * n);
    if (w == NULL) {
      fprintf(stderr, "gemm: out of memory for the check\n");
      return 1;
    }
    multiply(2, x, w, 0, tmp); /* w := C x */
    double ynorm = norm2(y, n);
    cblas_daxpy((int)n, -1.0, y, 1, w, 1);
    double residual = norm2(w, n) / ynorm;
    /* With OpenBLAS, rounding leaves 1.7 eps in single precision and 3.5 to
     * 8.4 eps in double (whose reference is as rounded as the result) for
     * n = 512 ... 4096, while one lost tile product gives about
     * (TS / n)^1.5: measured 0.15 (n = 512, TS = 128) and 0.016 (4096, 256),
     * and still 0.006 at n = 65536, TS = 2048. 2 eps sqrt(n) leaves room
     * for other summation orders (GPUs) and stays far below that. */
    double eps = PREC == 'd' ? DBL_EPSILON : FLT_EPSILON;
    double tolerance = 2.0 * eps * sqrt((double)n);
    bool pass = residual < tolerance;
    printf("check: |Cx - (C0 x + A B x)| / |C0 x + A B x| = %.3e (tolerance %.1e)\n", residual, tolerance);
    if (n <= 2048) {
      double difference = compare_with_cblas(n, tmp);
      double limit = PREC == 'd' ? 1e-13 : 1e-5;
      printf("check: max |C - C_cblas| / max |C_cblas| = %.3e (tolerance %.1e)\n", difference, limit);
      pass = pass && difference < limit;
    }
    verdict = pass ? "PASS" : "FAIL";
    free(w);
  }

#ifdef GPUSS_GEMM_RUNTIME
  /* Finish before the summary so that the runtime's own output (CSS_STATS)
   * comes first and the summary stays the last line. */
  fflush(stdout);
  css_finish();
#endif
  const char *policy = getenv("CSS_CACHE_POLICY");
  if (policy == NULL || *policy == '\0') policy = "wb";
  double gflops = 2.0 * (double)n * n * n / seconds / 1e9;
  char distribution[32] = "";
  if (mpi) snprintf(distribution, sizeof distribution, " ranks=%d", ranks);
  if (rank == 0)
    printf("gemm n=%ld ts=%d bt=%d prec=%c gpus=%d policy=%s memory=%s%s seconds=%.6f gflops=%.2f check=%s\n",
           n, TS, BT, PREC, accelerators_in_use(), policy, prelocked ? "prelocked" : "first-run",
           distribution, seconds, gflops, verdict);

  for (int m = 0; m < 3; m++) {
    for (size_t t = 0; t < tiles; t++)
      free(PREC == 'd' ? (void *)Md[m][t] : (void *)Ms[m][t]);
    free(Md[m]);
    free(Ms[m]);
  }
  free(x);
  free(y);
  free(tmp);
  return strcmp(verdict, "FAIL") == 0 ? 1 : 0;
}
