/*
 * fib: the recursive Fibonacci of OmpSs-2 and BOTS, as nested tasks.
 *
 * Each call above the cut-off is a task that calls itself twice as child
 * tasks, which write its local variables, waits for them with a taskwait in
 * its body, and adds their results. A plain compiler builds the sequential
 * recursion from the same file.
 *
 *   fib [-n N] [-c CUTOFF]
 *   fib n=34 cutoff=20 result=5702887 seconds=0.0123 check=PASS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cutoff = 20;

static long fib_sequential(int n) { return n < 2 ? n : fib_sequential(n - 1) + fib_sequential(n - 2); }

#pragma css task input(n) output(res)
void fib(int n, long *res);

void fib(int n, long *res) {
  if (n < cutoff) {
    *res = fib_sequential(n);
    return;
  }
  long x, y;
  fib(n - 1, &x);
  fib(n - 2, &y);
#pragma css taskwait
  *res = x + y;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  int n = 34;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (argv[i][1] == 'n') n = atoi(argv[i + 1]);
    else if (argv[i][1] == 'c') cutoff = atoi(argv[i + 1]);
  }
  long result = 0;
  double start = now();
  fib(n, &result);
#pragma css taskwait
  double seconds = now() - start;
  long expected = fib_sequential(n);
  printf("fib n=%d cutoff=%d result=%ld seconds=%.6f check=%s\n", n, cutoff, result, seconds,
         result == expected ? "PASS" : "FAIL");
  return result == expected ? 0 : 1;
}
