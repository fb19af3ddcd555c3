// Tasks on the locals of a function that returns before the next barrier:
// a scratch array (declared task functions), a scalar passed by address (a
// call-site task), a block's local in a loop. The translator waits for those
// tasks where each local stops living (end of block, return, break); before,
// the tasks read locals the caller had overwritten, and the runtime copied
// results back into dead stack frames. Same output as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: %gpuss-cc --translate-only %s -o %t/translated.c
// RUN: FileCheck --check-prefix=CODE %s < %t/translated.c
// RUN: FileCheck %s < %t/expected
// CHECK: total
// CODE: css_release(__css_wait, 1); } while (0); /* gpuss: tasks use tmp */ }
// CODE: css_release(__css_wait, 1); } while (0); /* gpuss: tasks use scale */ return
#include <stdio.h>
#include <time.h>

#define N 512

#pragma css task inout(out[N])
void slow(double *out) {
  struct timespec t = {0, 20 * 1000 * 1000};
  nanosleep(&t, NULL);
  for (int i = 0; i < N; i++)
    out[i] += 1;
}

#pragma css task output(tmp[N]) input(k)
void fill(double *tmp, int k) {
  for (int i = 0; i < N; i++)
    tmp[i] = k + i * 0.5;
}

#pragma css task input(tmp[N]) inout(out[N])
void combine(const double *tmp, double *out) {
  for (int i = 0; i < N; i++)
    out[i] += tmp[i];
}

void times(double *f, double *out) {
  for (int i = 0; i < N; i++)
    out[i] *= *f;
}

void stage(double *out, int k) {
  double tmp[N];
  fill(tmp, k);
  combine(tmp, out); // waits for slow(out): tmp must live until then
}

int scaled(double *out, int k) {
  double scale = 1.0 + k / 8.0;
#pragma css task input(scale) inout(out[N])
  times(&scale, out);
  if (k % 2)
    return 1; // scale must live until its task has run
  return 0;
}

void scribble(void) {
  volatile double junk[3 * N];
  for (int i = 0; i < 3 * N; i++)
    junk[i] = -1e9;
}

int main(void) {
  static double out[N];
  int odd = 0;
  for (int k = 0; k < 4; k++) {
    slow(out);
    stage(out, k);
    scribble();
    odd += scaled(out, k);
    scribble();
    for (int j = 0; j < 3; j++) {
      double part[N];
      fill(part, j);
      combine(part, out);
      if (j == k)
        break;
    }
  }
#pragma css barrier
  double s = 0;
  for (int i = 0; i < N; i++)
    s += out[i] * (i % 3 + 1);
  printf("total %.3f odd %d\n", s, odd);
  return 0;
}
