/*
 * strassen: Strassen's matrix multiplication, C = A B, as nested tasks.
 *
 * Each level above the cut-off is a task that allocates its temporaries,
 * computes the ten sums and differences of quadrants, the seven products
 * (recursive Strassen tasks) and the four quadrants of C as child tasks,
 * waits for them and frees the temporaries. Quadrants are strided blocks of
 * row-major matrices with their own leading dimension, named with OmpSs
 * shapes and sections: `[n][lda]a[0;n][0;n]`. Below the cut-off a plain
 * triple loop. The regions alone order the children.
 *
 *   strassen [-n N] [-c CUTOFF]      (N a power of two)
 *   strassen n=1024 cutoff=128 seconds=0.31 max_error=3.1e-15 check=PASS
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long cutoff = 128;

/* c = a + sign * b, three h x h blocks */
#pragma css task input(h, lda, ldb, ldc, sign, [h][lda]a[0;h][0;h], [h][ldb]b[0;h][0;h]) \
                 output([h][ldc]c[0;h][0;h])
void add(long h, const double *a, long lda, const double *b, long ldb, double sign, double *c, long ldc);

/* c = w + x - y + z, h x h blocks of leading dimension h, into c */
#pragma css task input(h, ldc, [h][h]w, [h][h]x, [h][h]y, [h][h]z) output([h][ldc]c[0;h][0;h])
void add4(long h, const double *w, const double *x, const double *y, const double *z, double *c, long ldc);

/* c = a b */
#pragma css task input(n, lda, ldb, ldc, [n][lda]a[0;n][0;n], [n][ldb]b[0;n][0;n]) output([n][ldc]c[0;n][0;n])
void strassen(long n, const double *a, long lda, const double *b, long ldb, double *c, long ldc);

void add(long h, const double *a, long lda, const double *b, long ldb, double sign, double *c, long ldc) {
  for (long i = 0; i < h; i++)
    for (long j = 0; j < h; j++)
      c[i * ldc + j] = a[i * lda + j] + sign * b[i * ldb + j];
}

void add4(long h, const double *w, const double *x, const double *y, const double *z, double *c, long ldc) {
  for (long i = 0; i < h; i++)
    for (long j = 0; j < h; j++) {
      long k = i * h + j;
      c[i * ldc + j] = ((w[k] + x[k]) - y[k]) + z[k];
    }
}

static void multiply(long n, const double *a, long lda, const double *b, long ldb, double *c, long ldc) {
  for (long i = 0; i < n; i++) {
    for (long j = 0; j < n; j++)
      c[i * ldc + j] = 0;
    for (long k = 0; k < n; k++) {
      double aik = a[i * lda + k];
      for (long j = 0; j < n; j++)
        c[i * ldc + j] += aik * b[k * ldb + j];
    }
  }
}

void strassen(long n, const double *a, long lda, const double *b, long ldb, double *c, long ldc) {
  if (n <= cutoff) {
    multiply(n, a, lda, b, ldb, c, ldc);
    return;
  }
  long h = n / 2, hh = h * h;
  const double *a11 = a, *a12 = a + h, *a21 = a + h * lda, *a22 = a + h * lda + h;
  const double *b11 = b, *b12 = b + h, *b21 = b + h * ldb, *b22 = b + h * ldb + h;
  double *c11 = c, *c12 = c + h, *c21 = c + h * ldc, *c22 = c + h * ldc + h;
  /* Ten sums and seven products, h x h each, leading dimension h. */
  double *t = malloc((size_t)17 * hh * sizeof(double));
  double *s[10], *m[7];
  for (int i = 0; i < 10; i++)
    s[i] = t + i * hh;
  for (int i = 0; i < 7; i++)
    m[i] = t + (10 + i) * hh;
  add(h, a11, lda, a22, lda, 1, s[0], h);  /* A11 + A22 */
  add(h, b11, ldb, b22, ldb, 1, s[1], h);  /* B11 + B22 */
  add(h, a21, lda, a22, lda, 1, s[2], h);  /* A21 + A22 */
  add(h, b12, ldb, b22, ldb, -1, s[3], h); /* B12 - B22 */
  add(h, b21, ldb, b11, ldb, -1, s[4], h); /* B21 - B11 */
  add(h, a11, lda, a12, lda, 1, s[5], h);  /* A11 + A12 */
  add(h, a21, lda, a11, lda, -1, s[6], h); /* A21 - A11 */
  add(h, b11, ldb, b12, ldb, 1, s[7], h);  /* B11 + B12 */
  add(h, a12, lda, a22, lda, -1, s[8], h); /* A12 - A22 */
  add(h, b21, ldb, b22, ldb, 1, s[9], h);  /* B21 + B22 */
  strassen(h, s[0], h, s[1], h, m[0], h);  /* M1 */
  strassen(h, s[2], h, b11, ldb, m[1], h); /* M2 */
  strassen(h, a11, lda, s[3], h, m[2], h); /* M3 */
  strassen(h, a22, lda, s[4], h, m[3], h); /* M4 */
  strassen(h, s[5], h, b22, ldb, m[4], h); /* M5 */
  strassen(h, s[6], h, s[7], h, m[5], h);  /* M6 */
  strassen(h, s[8], h, s[9], h, m[6], h);  /* M7 */
  add4(h, m[0], m[3], m[4], m[6], c11, ldc); /* M1 + M4 - M5 + M7 */
  add(h, m[2], h, m[4], h, 1, c12, ldc);     /* M3 + M5 */
  add(h, m[1], h, m[3], h, 1, c21, ldc);     /* M2 + M4 */
  add4(h, m[0], m[2], m[1], m[5], c22, ldc); /* M1 + M3 - M2 + M6 */
#pragma css taskwait
  free(t);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  long n = 1024;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (argv[i][1] == 'n') n = atol(argv[i + 1]);
    else if (argv[i][1] == 'c') cutoff = atol(argv[i + 1]);
  }
  if (n <= 0 || (n & (n - 1)) != 0) {
    fprintf(stderr, "strassen: N must be a power of two\n");
    return 2;
  }
  size_t bytes = (size_t)n * n * sizeof(double);
  double *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *reference = malloc(bytes);
  unsigned long long x = 0x9e3779b97f4a7c15ULL;
  for (long i = 0; i < n * n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    a[i] = (double)(x % 2001) / 1000.0 - 1.0;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b[i] = (double)(x % 2001) / 1000.0 - 1.0;
  }
  double start = now();
  strassen(n, a, n, b, n, c, n);
#pragma css barrier
  double seconds = now() - start;
  multiply(n, a, n, b, n, reference, n);
  double worst = 0, scale = 0;
  for (long i = 0; i < n * n; i++) {
    worst = fmax(worst, fabs(c[i] - reference[i]));
    scale = fmax(scale, fabs(reference[i]));
  }
  double error = worst / (scale * n);
  int pass = error < 1e-12;
  printf("strassen n=%ld cutoff=%ld seconds=%.6f max_error=%.1e check=%s\n", n, cutoff, seconds, error,
         pass ? "PASS" : "FAIL");
  free(a);
  free(b);
  free(c);
  free(reference);
  return pass ? 0 : 1;
}
