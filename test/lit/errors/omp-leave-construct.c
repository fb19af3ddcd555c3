// Leaving the statement of an OpenMP construct with return, goto, break or
// continue (OpenMP forbids it; gcc -fopenmp refuses it too) is an error at
// its line: a critical's lock would stay held (the program hung, or stopped
// with "nested critical" at run time), a region's end would not wait for
// its tasks. A break or continue that stays inside (a loop or switch of
// the statement's own) is fine.
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.c
int counter, found;
#pragma omp task in(v[0;n]) in(n)
void scan(int *v, int n);
void scan(int *v, int n) {
  for (int i = 0; i < n; i++) {
#pragma omp critical
    {
      if (v[i] < 0) {
        found = 1;
        return;
      }
      counter++;
    }
// CHECK: omp-leave-construct.c:18:9: error: 'return' leaves the statement of '#pragma omp critical', which OpenMP forbids: the lock the construct holds would stay held, and the next thread to enter would wait for ever; end the statement normally (set a flag, and test it after the construct)
// CHECK: omp-leave-construct.c:14:13: note: the construct
#pragma omp critical(sums)
    switch (v[i]) {
    case 0:
      break;
    default:
      counter += 2;
    }
#pragma omp atomic
    counter += 1;
  }
#pragma omp critical
  for (int i = 0; i < 2; i++) {
    if (i) break;
    continue;
  }
}
int main(void) {
  int v[4] = {1, 0, -3, 4};
  for (int i = 0; i < 4; i++) {
#pragma omp critical
    if (v[i] == 4) continue;
// CHECK: omp-leave-construct.c:44:20: error: 'continue' leaves the statement of '#pragma omp critical'
  }
#pragma omp single
  {
    scan(v, 4);
    if (found) goto done;
// CHECK: omp-leave-construct.c:50:16: error: 'goto' leaves the statement of '#pragma omp single', which OpenMP forbids: the end of the construct, which waits for its tasks, would be skipped
  }
done:
  return counter;
}
