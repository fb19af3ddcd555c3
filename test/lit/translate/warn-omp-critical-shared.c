// A global that a task block uses with no clause naming it is warned about
// (unordered with the other tasks), except where every use is inside a
// critical or atomic construct: shared on purpose, and guarded.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s --implicit-check-not=warning:
long guarded_sum, guarded_count, loose;

void run(const long *v, int n) {
  for (int b = 0; b < n; b += 16) {
#pragma omp task in(v[b;16])
    {
      long local = 0;
      for (int i = b; i < b + 16; i++)
        local += v[i];
#pragma omp atomic
      guarded_sum += local;
#pragma omp critical(count)
      {
        guarded_count++;
      }
      loose += local;
    }
  }
#pragma omp taskwait
}
// CHECK: warn-omp-critical-shared.c:5:34: warning: 'loose' is used in the task block at line 10 and no clause names it
