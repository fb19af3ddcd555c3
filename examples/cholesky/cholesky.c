/*
 * cholesky.c: the blocked Cholesky factorisation of the GPUSs paper
 * (Figure 1), the driver that times it and a check of the result.
 *
 *   cholesky [-n N] [-t TS] [-p s|d] [--check] [--gpu-potrf] [--trsm-leaf W] [--inverse-trsm]
 *            [--prelocked | --init-tasks] [--mpi]
 *
 * The matrix is NT x NT blocks of TS x TS elements, stored by blocks: each
 * block is one malloc'd column-major array, and only the lower triangle of
 * blocks exists. A[j*NT + i] points to block (i, j), i >= j, as in Figure 1.
 *
 * Built by a plain C compiler the pragmas are ignored and everything runs in
 * order on the calling thread; built through gpuss-translate every call to a
 * wrapper of cholesky_tasks.h becomes a task. The last line of output is
 *
 *   cholesky n=.. ts=.. prec=.. gpus=.. policy=.. memory=.. seconds=.. gflops=.. check=PASS|FAIL|skipped
 *
 * memory= says what the runtime had seen of the matrix when the clock
 * started. first-run (the default): the program writes it with plain loops,
 * on threads, as a program that reads or generates its data would, so the
 * timed factorization is the first time the runtime sees it and pays for
 * page-locking it (a user's first run; the headline figure). prelocked
 * (--prelocked): one factorization untimed, the matrix written again by the
 * same loops, and the second one timed: the memory is then already
 * page-locked. task-init (--init-tasks): written by host tasks before the
 * clock, which lock nothing (before 2026-11-25, the only mode). The CUDA
 * build also prints the node's page-lock rate, measured at start.
 *
 * With --mpi (the GPUSs build, under mpirun; docs/mpi.md) every rank runs
 * this same program: the one distribution call below gives each block an
 * owner rank, 2-D block-cyclic, and the runtime runs each task where the
 * block it writes lives and moves blocks between ranks by itself. Rank 0
 * gathers the matrix for the check and prints the summary, with ranks=P.
 */
#define _POSIX_C_SOURCE 200809L
#include "cholesky_tasks.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GPUSS_CHOLESKY_RUNTIME
#include <gpuss.h>     /* css_start, css_finish: not spelled as pragmas */
#include <gpuss_mpi.h> /* --mpi: the distribution call */
#endif

int TS = 512;      /* block size; the task items A[TS][TS] read it at each submit */
int TRSM_LEAF = 0; /* GPU trsm: widest cuBLAS trsm call, 0 = one call (trsm_plan.h) */
static int NT;     /* blocks per row and column */

/* The matrix: A[j*NT + i] is block (i, j), i >= j. One of the two is used,
 * by the precision chosen; the pointers above the diagonal stay NULL. */
static double **Ad;
static float **As;

/* ---------------------------------------------------------------- the algorithm (Figure 1) */

/* W: NULL for the paper's panel; otherwise one block, and each panel's
 * solves multiply by the inverse of its diagonal factor, held in W
 * (--inverse-trsm). */
static void cholesky_s(float **A, bool gpu_potrf, float *W) {
  (void)gpu_potrf;
  for (int k = 0; k < NT; k++) {
#ifdef GPUSS_CHOLESKY_CUDA
    if (gpu_potrf)
      chol_spotrf_gpu(A[k * NT + k]);
    else
#endif
      chol_spotrf(A[k * NT + k]); /* factorize diagonal block */

    if (W != NULL && k + 1 < NT) { /* triangular solves by inverse */
      chol_strtri(A[k * NT + k], W);
      for (int i = k + 1; i < NT; i++)
        chol_strmm(W, A[k * NT + i]);
    } else
      for (int i = k + 1; i < NT; i++) /* triangular solves */
        chol_strsm(A[k * NT + k], A[k * NT + i]);

    for (int i = k + 1; i < NT; i++) { /* update trailing submatrix */
      for (int j = k + 1; j < i; j++)
        chol_sgemm(A[k * NT + i], A[k * NT + j], A[j * NT + i]);
      chol_ssyrk(A[k * NT + i], A[i * NT + i]);
    }
  }
}

/* W: NULL for the paper's panel; otherwise one block, and each panel's
 * solves multiply by the inverse of its diagonal factor, held in W
 * (--inverse-trsm). */
static void cholesky_d(double **A, bool gpu_potrf, double *W) {
  (void)gpu_potrf;
  for (int k = 0; k < NT; k++) {
#ifdef GPUSS_CHOLESKY_CUDA
    if (gpu_potrf)
      chol_dpotrf_gpu(A[k * NT + k]);
    else
#endif
      chol_dpotrf(A[k * NT + k]); /* factorize diagonal block */

    if (W != NULL && k + 1 < NT) { /* triangular solves by inverse */
      chol_dtrtri(A[k * NT + k], W);
      for (int i = k + 1; i < NT; i++)
        chol_dtrmm(W, A[k * NT + i]);
    } else
      for (int i = k + 1; i < NT; i++) /* triangular solves */
        chol_dtrsm(A[k * NT + k], A[k * NT + i]);

    for (int i = k + 1; i < NT; i++) { /* update trailing submatrix */
      for (int j = k + 1; j < i; j++)
        chol_dgemm(A[k * NT + i], A[k * NT + j], A[j * NT + i]);
      chol_dsyrk(A[k * NT + i], A[i * NT + i]);
    }
  }
}

/* ---------------------------------------------------------------- the check */

/* Block (i, j) in double precision: the block itself, or its conversion in `tmp`. */
static const double *block_d(char prec, int i, int j, double *tmp) {
  if (prec == 'd') return Ad[j * NT + i];
  const float *blk = As[j * NT + i];
  for (long e = 0; e < (long)TS * TS; e++)
    tmp[e] = blk[e];
  return tmp;
}

static double norm2(const double *v, long n) {
  double sum = 0;
  for (long e = 0; e < n; e++)
    sum += v[e] * v[e];
  return sqrt(sum);
}

/* y := A x and the Frobenius norm of A, from the blocks before factorisation.
 * Only the lower blocks exist; each off-diagonal one also acts as its
 * transpose above the diagonal. Diagonal blocks are stored whole. */
static double multiply_original(char prec, const double *x, double *y, long n, double *tmp) {
  double frob2 = 0;
  memset(y, 0, sizeof(double) * n);
  for (int j = 0; j < NT; j++)
    for (int i = j; i < NT; i++) {
      const double *b = block_d(prec, i, j, tmp);
      double part = 0;
      for (long e = 0; e < (long)TS * TS; e++)
        part += b[e] * b[e];
      frob2 += i == j ? part : 2 * part;
      cblas_dgemv(CblasColMajor, CblasNoTrans, TS, TS, 1.0, b, TS, x + (long)j * TS, 1, 1.0, y + (long)i * TS,
                  1);
      if (i != j)
        cblas_dgemv(CblasColMajor, CblasTrans, TS, TS, 1.0, b, TS, x + (long)i * TS, 1, 1.0, y + (long)j * TS,
                    1);
    }
  return sqrt(frob2);
}

/* w := L (L^T x), with L in the lower triangle of the factored blocks (the
 * strict upper part of a diagonal block still holds A and is not read). */
static void multiply_factor(char prec, const double *x, double *w, long n, double *tmp) {
  double *z = calloc(n, sizeof(double));
  double *seg = malloc(sizeof(double) * TS);
  if (z == NULL || seg == NULL) {
    fprintf(stderr, "cholesky: out of memory in the check\n");
    exit(1);
  }
  /* z := L^T x, block row j of L^T is block column j of L. */
  for (int j = 0; j < NT; j++)
    for (int i = j; i < NT; i++) {
      const double *b = block_d(prec, i, j, tmp);
      if (i == j) {
        memcpy(seg, x + (long)j * TS, sizeof(double) * TS);
        cblas_dtrmv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, TS, b, TS, seg, 1);
        cblas_daxpy(TS, 1.0, seg, 1, z + (long)j * TS, 1);
      } else {
        cblas_dgemv(CblasColMajor, CblasTrans, TS, TS, 1.0, b, TS, x + (long)i * TS, 1, 1.0, z + (long)j * TS,
                    1);
      }
    }
  /* w := L z */
  memset(w, 0, sizeof(double) * n);
  for (int j = 0; j < NT; j++)
    for (int i = j; i < NT; i++) {
      const double *b = block_d(prec, i, j, tmp);
      if (i == j) {
        memcpy(seg, z + (long)j * TS, sizeof(double) * TS);
        cblas_dtrmv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, TS, b, TS, seg, 1);
        cblas_daxpy(TS, 1.0, seg, 1, w + (long)i * TS, 1);
      } else {
        cblas_dgemv(CblasColMajor, CblasNoTrans, TS, TS, 1.0, b, TS, z + (long)j * TS, 1, 1.0,
                    w + (long)i * TS, 1);
      }
    }
  free(seg);
  free(z);
}

/* For small n: the largest difference between our L and LAPACK's potrf of
 * the whole matrix, relative to the largest entry of L. */
static double compare_with_lapack(char prec, long n, double *tmp) {
  double *full = malloc(sizeof(double) * n * n);
  if (full == NULL) return INFINITY;
  for (long c = 0; c < n; c++)
    for (long r = 0; r < n; r++)
      full[c * n + r] = cholesky_generate(r, c, n);
  double diff = 0, largest = 0;
  if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)n, full, (lapack_int)n) != 0) {
    free(full);
    return INFINITY;
  }
  for (int j = 0; j < NT; j++)
    for (int i = j; i < NT; i++) {
      const double *b = block_d(prec, i, j, tmp);
      for (long c = 0; c < TS; c++)
        for (long r = (i == j ? c : 0); r < TS; r++) {
          double ref = full[((long)j * TS + c) * n + (long)i * TS + r];
          diff = fmax(diff, fabs(b[c * TS + r] - ref));
          largest = fmax(largest, fabs(ref));
        }
    }
  free(full);
  return diff / largest;
}

/* Under MPI (--mpi): rank 0's memory gets the current value of every block. */
static void gather_matrix(char prec) {
#ifdef GPUSS_CHOLESKY_RUNTIME
  const size_t bytes = (prec == 'd' ? sizeof(double) : sizeof(float)) * (size_t)TS * TS;
  for (int j = 0; j < NT; j++)
    for (int i = j; i < NT; i++)
      css_mpi_gather(prec == 'd' ? (void *)Ad[j * NT + i] : (void *)As[j * NT + i], bytes, 0);
#else
  (void)prec;
#endif
}

/* ---------------------------------------------------------------- writing the matrix with plain loops */

/* Not a task: the loops of chol_dinit/chol_sinit, called on plain threads. */
static void fill_block(char prec, int i, int j, long n) {
  long row0 = (long)i * TS, col0 = (long)j * TS;
  if (prec == 'd') {
    double *A = Ad[j * NT + i];
    for (long c = 0; c < TS; c++)
      for (long r = 0; r < TS; r++)
        A[c * TS + r] = cholesky_generate(row0 + r, col0 + c, n);
  } else {
    float *A = As[j * NT + i];
    for (long c = 0; c < TS; c++)
      for (long r = 0; r < TS; r++)
        A[c * TS + r] = (float)cholesky_generate(row0 + r, col0 + c, n);
  }
}

struct fill_job {
  char prec;
  long n;
  int first, stride; /* this thread's blocks: every stride-th of the lower triangle */
};

static void *fill_blocks(void *arg) {
  const struct fill_job *job = arg;
  int k = 0;
  for (int j = 0; j < NT; j++)
    for (int i = j; i < NT; i++, k++)
      if (k % job->stride == job->first) fill_block(job->prec, i, j, job->n);
  return NULL;
}

/* The whole lower triangle, on up to 16 threads: 17 GB at n = 65536 would
 * take a minute on one. */
static void fill_matrix(char prec, long n) {
  enum { max_threads = 16 };
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = cores < 1 ? 1 : cores > max_threads ? max_threads : (int)cores;
  pthread_t ids[max_threads];
  struct fill_job jobs[max_threads];
  bool started[max_threads];
  for (int t = 0; t < threads; t++) {
    jobs[t] = (struct fill_job){prec, n, t, threads};
    started[t] = t > 0 && pthread_create(&ids[t], NULL, fill_blocks, &jobs[t]) == 0;
  }
  for (int t = 0; t < threads; t++)
    if (!started[t]) fill_blocks(&jobs[t]);
  for (int t = 0; t < threads; t++)
    if (started[t]) pthread_join(ids[t], NULL);
}

/* ---------------------------------------------------------------- the driver */

static void usage(const char *message) {
  fprintf(stderr,
          "cholesky: %s\n"
          "usage: cholesky [-n N] [-t TS] [-p s|d] [--check] [--gpu-potrf] [--trsm-leaf W]\n"
          "                [--inverse-trsm] [--prelocked | --init-tasks] [--mpi]\n"
          "  -n N          matrix order (default 4096); a multiple of TS\n"
          "  -t TS         block size (default 512)\n"
          "  -p s|d        precision (default d)\n"
          "  --check       verify the factor (residual of A x = L L^T x)\n"
          "  --gpu-potrf   factor diagonal blocks on the GPUs (cusolverDn), CUDA build only\n"
          "  --trsm-leaf W GPU trsm: solve W columns at a time, the rest as gemm (default 0:\n"
          "                one cuBLAS trsm per block)\n"
          "  --inverse-trsm invert each diagonal factor once; the panel's solves become\n"
          "                triangular multiplies (faster on GPUs; not in the paper)\n"
          "  --prelocked   factor once untimed, write the matrix again, time the second\n"
          "                factorization (memory=prelocked; default memory=first-run: the\n"
          "                matrix written by plain loops, the timed run the runtime's first sight)\n"
          "  --init-tasks  write the matrix with host tasks before the clock (memory=task-init)\n"
          "  --mpi         distribute the blocks over the MPI ranks (under mpirun; GPUSs build)\n",
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
#ifdef GPUSS_CHOLESKY_CUDA
  int gpus = chol_cuda_device_count();
  int wanted = env_int("CSS_NUM_GPUS", -1);
  if (wanted >= 0 && wanted < gpus) gpus = wanted;
  return gpus > 0 ? gpus : sim;
#else
  return sim;
#endif
}

int main(int argc, char **argv) {
  long n = 4096;
  long ts = 512;
  char prec = 'd';
  bool check = false, gpu_potrf = false, inverse_trsm = false, mpi = false, prelocked = false,
       init_tasks = false;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "-n") == 0)
      n = parse_positive(a + 1 < argc ? argv[++a] : NULL, "-n");
    else if (strcmp(argv[a], "-t") == 0)
      ts = parse_positive(a + 1 < argc ? argv[++a] : NULL, "-t");
    else if (strcmp(argv[a], "-p") == 0) {
      const char *p = a + 1 < argc ? argv[++a] : "";
      if (strcmp(p, "s") != 0 && strcmp(p, "d") != 0) usage("-p takes s or d");
      prec = p[0];
    } else if (strcmp(argv[a], "--check") == 0)
      check = true;
    else if (strcmp(argv[a], "--gpu-potrf") == 0)
      gpu_potrf = true;
    else if (strcmp(argv[a], "--inverse-trsm") == 0)
      inverse_trsm = true;
    else if (strcmp(argv[a], "--mpi") == 0)
      mpi = true;
    else if (strcmp(argv[a], "--prelocked") == 0)
      prelocked = true;
    else if (strcmp(argv[a], "--init-tasks") == 0)
      init_tasks = true;
    else if (strcmp(argv[a], "--trsm-leaf") == 0) {
      const char *w = a + 1 < argc ? argv[++a] : NULL;
      TRSM_LEAF = w != NULL && strcmp(w, "0") == 0 ? 0 : (int)parse_positive(w, "--trsm-leaf");
    } else if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0)
      usage("help");
    else {
      char message[256];
      snprintf(message, sizeof message, "unknown argument '%s'", argv[a]);
      usage(message);
    }
  }
  if (n % ts != 0) usage("n must be a multiple of the block size");
  if (prelocked && init_tasks) usage("--prelocked and --init-tasks exclude each other");
  if (n / ts > 46340 || ts > 46340) usage("too many blocks or too large a block"); /* int indices */
#ifndef GPUSS_CHOLESKY_RUNTIME
  if (mpi) {
    fprintf(stderr, "cholesky: --mpi needs the GPUSs build (cholesky or cholesky_host)\n");
    return 2;
  }
#endif
#ifndef GPUSS_CHOLESKY_CUDA
  if (gpu_potrf) {
    fprintf(stderr, "cholesky: --gpu-potrf needs the CUDA build (configure with the CUDA toolkit)\n");
    return 2;
  }
#endif
  TS = (int)ts;
  NT = (int)(n / ts);
  const size_t elem = prec == 'd' ? sizeof(double) : sizeof(float);
  const size_t block_bytes = elem * (size_t)TS * TS;

  /* Allocate the lower triangle of blocks, each on its own (Figure 1). */
  if (prec == 'd')
    Ad = calloc((size_t)NT * NT, sizeof(double *));
  else
    As = calloc((size_t)NT * NT, sizeof(float *));
  if (Ad == NULL && As == NULL) {
    fprintf(stderr, "cholesky: out of memory\n");
    return 1;
  }
  for (int j = 0; j < NT; j++)
    for (int i = j; i < NT; i++) {
      void *block = malloc(block_bytes);
      if (block == NULL) {
        fprintf(stderr, "cholesky: out of memory for %d x %d blocks of %zu bytes\n", NT, NT, block_bytes);
        return 1;
      }
      if (prec == 'd')
        Ad[j * NT + i] = block;
      else
        As[j * NT + i] = block;
    }

  /* --inverse-trsm: one block for the inverse of every panel's diagonal factor. */
  void *inverse = NULL;
  if (inverse_trsm && (inverse = malloc(block_bytes)) == NULL) {
    fprintf(stderr, "cholesky: out of memory for the inverse block\n");
    return 1;
  }
  /* Written once here, like the matrix: the runtime page-locks task memory
   * at the first submit, and memory never touched must have its pages made
   * then (8 ms per 32 MB on the H200 node), inside the timed run. */
  if (inverse != NULL) memset(inverse, 0, block_bytes);

  int rank = 0, ranks = 1;
#ifdef GPUSS_CHOLESKY_RUNTIME
  if (mpi) {
    /* The distribution call (docs/mpi.md): block (i, j) to rank (i % p) * q + j % q
     * on a p x q grid of the ranks; the inverse block to rank 0. */
    css_mpi_block_cyclic(prec == 'd' ? (void **)Ad : (void **)As, NT, NT, NT, block_bytes, 0, 0);
    if (inverse != NULL) css_mpi_owner(inverse, block_bytes, 0);
    rank = css_mpi_rank();
    ranks = css_mpi_size();
  }
  /* Bring the runtime (and the GPUs) up now, so their start-up is not timed. */
  css_start();
#endif
#ifdef GPUSS_CHOLESKY_CUDA
  if (chol_cuda_device_count() > 0) {
    chol_gpu_prepare(prec, gpu_potrf, inverse_trsm);
    /* What locking costs on this node (it varies from 5 to 26 GB/s). */
    if (rank == 0) printf("page-lock rate: %.1f GB/s (cudaHostRegister of 256 MiB already written)\n",
                          chol_page_lock_rate() / 1e9);
  }
#endif

  if (init_tasks) {
    /* Initialise the matrix in parallel as host tasks (they lock nothing). */
    for (int j = 0; j < NT; j++)
      for (int i = j; i < NT; i++) {
        if (prec == 'd')
          chol_dinit(Ad[j * NT + i], i, j, (int)n);
        else
          chol_sinit(As[j * NT + i], i, j, (int)n);
      }
#pragma css barrier
  } else {
    fill_matrix(prec, n);
  }
  if (prelocked) {
    /* A first factorization, untimed: the runtime locks the matrix. */
    if (prec == 'd')
      cholesky_d(Ad, gpu_potrf, inverse);
    else
      cholesky_s(As, gpu_potrf, inverse);
#pragma css barrier
    fill_matrix(prec, n);
#ifdef GPUSS_CHOLESKY_RUNTIME
    /* Locked before the clock whatever the runtime chose for the first run
     * (it may have copied the matrix through staging buffers, which locks
     * nothing: CSS_STAGING_THREADS). */
    for (int b = 0; b < NT * NT; b++) {
      void *block = prec == 'd' ? (void *)Ad[b] : (void *)As[b];
      if (block) css_pin(block, block_bytes);
    }
    if (inverse != NULL) css_pin(inverse, block_bytes);
#endif
  }

  /* The check needs A x. Taking it now, from the blocks themselves, spares a
   * copy of A or a second pass of the generator. */
  double *x = NULL, *y = NULL, *tmp = NULL, anorm = 0;
  /* Under MPI each rank's memory holds the blocks it owns: rank 0 gathers
   * the matrix, and checks alone. */
  if (check && ranks > 1) gather_matrix(prec);
  if (check && rank == 0) {
    x = malloc(sizeof(double) * n);
    y = malloc(sizeof(double) * n);
    tmp = malloc(sizeof(double) * TS * TS);
    if (x == NULL || y == NULL || tmp == NULL) {
      fprintf(stderr, "cholesky: out of memory for the check\n");
      return 1;
    }
    for (long e = 0; e < n; e++)
      x[e] = cholesky_generate(e, n + e, n); /* arbitrary in [-0.5, 0.5) */
    anorm = multiply_original(prec, x, y, n, tmp);
  }

  /* The timed part: from the first submit until every block is back in host memory. */
  double start = now_seconds();
  if (prec == 'd')
    cholesky_d(Ad, gpu_potrf, inverse);
  else
    cholesky_s(As, gpu_potrf, inverse);
#pragma css barrier
  double seconds = now_seconds() - start;

  const char *verdict = "skipped";
  if (check && ranks > 1) gather_matrix(prec);
  if (check && rank == 0) {
    double *w = malloc(sizeof(double) * n);
    if (w == NULL) {
      fprintf(stderr, "cholesky: out of memory for the check\n");
      return 1;
    }
    multiply_factor(prec, x, w, n, tmp);
    cblas_daxpy((int)n, -1.0, y, 1, w, 1);
    double residual = norm2(w, n) / (anorm * norm2(x, n));
    /* For this well-conditioned matrix the rounding error stays near
     * 0.01-0.06 eps for n = 1024 ... 16384 in both precisions, while one
     * missing trailing update (a lost task, a stale copy) gives 3.5e-6 to
     * 1.5e-5, 30 single-precision eps or more (measured with OpenBLAS). 4 eps
     * sits between the two. */
    double eps = prec == 'd' ? DBL_EPSILON : FLT_EPSILON;
    double tolerance = 4.0 * eps;
    bool pass = residual < tolerance;
    printf("check: residual |Ax - LL^Tx| / (|A| |x|) = %.3e (tolerance %.1e)\n", residual, tolerance);
    if (n <= 2048) {
      double difference = compare_with_lapack(prec, n, tmp);
      double limit = prec == 'd' ? 1e-12 : 1e-5;
      printf("check: max |L - L_lapack| / max |L_lapack| = %.3e (tolerance %.1e)\n", difference, limit);
      pass = pass && difference < limit;
    }
    verdict = pass ? "PASS" : "FAIL";
    free(w);
  }

#ifdef GPUSS_CHOLESKY_RUNTIME
  /* Finish before the summary so that the runtime's own output (CSS_STATS)
   * comes first and the summary stays the last line. */
  fflush(stdout);
  css_finish();
#endif
  const char *policy = getenv("CSS_CACHE_POLICY");
  if (policy == NULL || *policy == '\0') policy = "wb";
  double gflops = (double)n * n * n / 3.0 / seconds / 1e9;
  char distribution[32] = "";
  if (mpi) snprintf(distribution, sizeof distribution, " ranks=%d", ranks);
  if (rank == 0)
    printf("cholesky n=%ld ts=%d prec=%c gpus=%d policy=%s memory=%s%s seconds=%.6f gflops=%.2f check=%s\n", n,
           TS, prec, accelerators_in_use(), policy,
           prelocked ? "prelocked" : init_tasks ? "task-init" : "first-run", distribution, seconds, gflops,
           verdict);

  for (int j = 0; j < NT; j++)
    for (int i = j; i < NT; i++)
      free(prec == 'd' ? (void *)Ad[j * NT + i] : (void *)As[j * NT + i]);
  free(Ad);
  free(inverse);
  free(As);
  free(x);
  free(y);
  free(tmp);
  return strcmp(verdict, "FAIL") == 0 ? 1 : 0;
}
