// A 2-D discrete Fourier transform in SMPSs style over C99 variable-length
// array parameters: 'double _Complex a[n][n]' named whole (inout(a)) by the
// transposition and by rows (inout(a{i}{})) by the row transforms, the
// sizes coming from the other parameters at each call. Same output as the
// sequential program, on host workers and on simulated devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O1 -Wno-unknown-pragmas %s -lm -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -O1 %s -lm -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#pragma css task input(n, i) inout(a{i}{})
void dft_row(long n, long i, double _Complex a[n][n]) {
  double _Complex out[n];
  for (long k = 0; k < n; k++) {
    double _Complex s = 0;
    for (long j = 0; j < n; j++)
      s += a[i][j] * cexp(-2.0 * M_PI * I * (double)(j * k % n) / (double)n);
    out[k] = s;
  }
  for (long k = 0; k < n; k++)
    a[i][k] = out[k];
}

#pragma css task input(n) inout(a)
void transpose(long n, double _Complex a[n][n]) {
  for (long i = 0; i < n; i++)
    for (long j = i + 1; j < n; j++) {
      double _Complex t = a[i][j];
      a[i][j] = a[j][i];
      a[j][i] = t;
    }
}

#pragma css task input(n, a) output(energy)
void total_energy(long n, const double _Complex a[n][n], double *energy) {
  double e = 0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      e += creal(a[i][j] * conj(a[i][j]));
  *energy = e;
}

static void fft2d(long n, double _Complex (*a)[n]) {
  for (long i = 0; i < n; i++)
    dft_row(n, i, a);
  transpose(n, a);
  for (long i = 0; i < n; i++)
    dft_row(n, i, a);
  transpose(n, a);
}

int main(void) {
  long n = 16;
  double _Complex (*a)[n] = malloc(sizeof(double _Complex) * n * n);
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      a[i][j] = (double)((i * 5 + j * 3) % 7) - 3.0 + I * (double)((i + 2 * j) % 4);
  double before, after;
  total_energy(n, a, &before);
  fft2d(n, a);
  total_energy(n, a, &after);
#pragma css barrier
  printf("energy %.6f, after the transform / n^2 %.6f\n", before, after / (double)(n * n));
  printf("%.6f%+.6fi %.6f%+.6fi\n", creal(a[0][0]), cimag(a[0][0]), creal(a[3][5]), cimag(a[3][5]));
  free(a);
  return 0;
}
// CHECK: energy [[E:[0-9.]+]], after the transform / n^2 [[E]]
