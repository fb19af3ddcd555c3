// OmpSs programs write their tasks with `#pragma omp`: task, taskwait
// (noflush, on), target device(...) copy_deps, depend(...), and OpenMP's
// constructs around and inside them: critical and atomic run under
// process-wide locks, and parallel, single, for and taskgroup end in a
// barrier unless nowait says otherwise. OpenMP's other directives are left.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: FileCheck --check-prefix=BLOCK %s < %t.c
// RUN: %cc -fsyntax-only -Wall -Wshadow -Werror -Wno-unknown-pragmas -I %gpuss-include %t.c
// RUN: %gpuss-translate %S/Inputs/omp-no-tasks.c -o %t2.c --
// RUN: FileCheck --check-prefix=NOTASKS %s < %t2.c

long total;
long hist[4];

// CHECK: /* #pragma omp target device(smp) copy_deps */
// CHECK: /* #pragma omp task in(v[0;n]) depend(inout: *acc) */
#pragma omp target device(smp) copy_deps
#pragma omp task in(v[0;n]) depend(inout: *acc)
void sum(int n, const long *v, long *acc) {
  for (int i = 0; i < n; i++) {
// CHECK: for (css_critical_enter("<atomic>"); css_critical_held("<atomic>"); css_critical_leave("<atomic>")) /* #pragma omp atomic update */
#pragma omp atomic update
    total += v[i];
// CHECK: for (css_critical_enter("hist"); css_critical_held("hist"); css_critical_leave("hist")) /* #pragma omp critical (hist) */
#pragma omp critical (hist)
    hist[v[i] & 3]++;
// CHECK: for (css_critical_enter(""); css_critical_held(""); css_critical_leave("")) /* #pragma omp critical */
#pragma omp critical
    { *acc += v[i]; }
  }
}
// CHECK: gpuss: task sum: #pragma omp task in(v[0;n]) depend(inout: *acc)
// CHECK: __css_acc[1].direction = CSS_INOUT;

int main(void) {
  static long v[8][64];
  long acc = 0;
// CHECK: for (int __css_omp_region1 = 1; __css_omp_region1; __css_omp_region1 = 0, css_barrier()) /* #pragma omp parallel */
// CHECK: for (int __css_omp_region2 = 1; __css_omp_region2; __css_omp_region2 = 0, css_barrier()) /* #pragma omp single */
#pragma omp parallel
#pragma omp single
  {
    for (int b = 0; b < 8; b++)
      sum(64, v[b], &acc);
// CHECK: css_wait_on_at("{{.*}}omp-pragmas.c", 47, {{.*}}); /* #pragma omp taskwait on(acc) */
#pragma omp taskwait on(acc)
// CHECK: /* #pragma omp single nowait */
// CHECK-NOT: css_barrier()) /* #pragma omp single nowait */
#pragma omp single nowait
    acc += 1;
// CHECK: css_barrier()) /* #pragma omp taskgroup */
#pragma omp taskgroup
    {
      for (int b = 0; b < 8; b++)
        sum(64, v[b], &acc);
    }
// CHECK: css_barrier()) /* #pragma omp for schedule(static, 1) */
#pragma omp for schedule(static, 1)
    for (int b = 0; b < 8; b++)
      sum(64, v[b], &acc);
  }
// CHECK: #pragma omp simd
#pragma omp simd
  for (int i = 0; i < 64; i++)
    v[0][i] = i;
// CHECK: /* #pragma omp master */
#pragma omp master
  acc += 2;
// A taskloop's implicit taskgroup, with master or alone.
// CHECK: css_barrier()) /* #pragma omp master taskloop grainsize(2) */
#pragma omp master taskloop grainsize(2)
  for (int b = 0; b < 8; b++)
    sum(64, v[b], &acc);
// CHECK: /* #pragma omp taskloop nogroup */
// CHECK-NOT: css_barrier()) /* #pragma omp taskloop nogroup */
#pragma omp taskloop nogroup
  for (int b = 0; b < 8; b++)
    sum(64, v[b], &acc);
// OpenMP 5's taskwait depend(...) is taskwait on(...).
// CHECK: css_wait_on_at("{{.*}}omp-pragmas.c", 82, {{.*}}); /* #pragma omp taskwait depend(in: acc) */
#pragma omp taskwait depend(in: acc)
// CHECK: css_barrier(); /* #pragma omp taskwait noflush */
#pragma omp taskwait noflush
// An inline task block with a critical construct inside: written into the
// outlined function.
// BLOCK: static void __css_block_main_l{{[0-9]+}}(long *__css_p_acc)
// BLOCK: for (css_critical_enter("blk"); css_critical_held("blk"); css_critical_leave("blk")) /* #pragma omp critical(blk) */
// BLOCK-NEXT: (*__css_p_acc) += 1;
#pragma omp task inout(acc)
  {
#pragma omp critical(blk)
    acc += 1;
  }
#pragma omp taskwait
  return (int)(acc & 1);
}

// A program without tasks keeps its OpenMP: parallel and barrier are left
// to the compiler; critical and atomic still take GPUSs' locks (a task body
// of another file may run the function).
// NOTASKS: #pragma omp parallel for
// NOTASKS: for (css_critical_enter(""); css_critical_held(""); css_critical_leave("")) /* #pragma omp critical */
// NOTASKS: #pragma omp barrier
