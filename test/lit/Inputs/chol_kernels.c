/* The wrappers, compiled apart from the code that calls them (the paper's
 * pattern): no pragma here, the header's declarations carry them. */
#include <math.h>
#include "chol_host.h"

/* A = L L^T, lower triangle of A overwritten with L. */
void chol_spotrf(float *A) {
  for (int j = 0; j < TS; j++) {
    float d = A[j * TS + j];
    for (int k = 0; k < j; k++)
      d -= A[j * TS + k] * A[j * TS + k];
    d = sqrtf(d);
    A[j * TS + j] = d;
    for (int i = j + 1; i < TS; i++) {
      float s = A[i * TS + j];
      for (int k = 0; k < j; k++)
        s -= A[i * TS + k] * A[j * TS + k];
      A[i * TS + j] = s / d;
    }
    for (int i = 0; i < j; i++)
      A[i * TS + j] = 0.0f;
  }
}

/* B = B L^-T, L = lower(T). */
void chol_strsm(float *T, float *B) {
  for (int r = 0; r < TS; r++)
    for (int j = 0; j < TS; j++) {
      float s = B[r * TS + j];
      for (int k = 0; k < j; k++)
        s -= B[r * TS + k] * T[j * TS + k];
      B[r * TS + j] = s / T[j * TS + j];
    }
}

/* C = C - A A^T. */
void chol_ssyrk(float *A, float *C) {
  for (int i = 0; i < TS; i++)
    for (int j = 0; j < TS; j++) {
      float s = 0.0f;
      for (int k = 0; k < TS; k++)
        s += A[i * TS + k] * A[j * TS + k];
      C[i * TS + j] -= s;
    }
}

/* C = C - A B^T. */
void chol_sgemm(float *A, float *B, float *C) {
  for (int i = 0; i < TS; i++)
    for (int j = 0; j < TS; j++) {
      float s = 0.0f;
      for (int k = 0; k < TS; k++)
        s += A[i * TS + k] * B[j * TS + k];
      C[i * TS + j] -= s;
    }
}
