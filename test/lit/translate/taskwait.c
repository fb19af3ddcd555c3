// OmpSs spellings of the synchronisation directives: taskwait is a barrier,
// taskwait on(...) a wait on(...).
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c

#pragma css task inout([n]v) input(n)
void bump(int n, int *v);

void run(int *v) {
  bump(4, v);
#pragma css taskwait on([4]v)
  bump(4, v);
#pragma css taskwait
}

// CHECK: do { css_region __css_wait[1]; __css_wait[0] = css_contiguous(v, (size_t)(4) * sizeof(*v)); css_wait_on_at("{{.*}}taskwait.c", 12, __css_wait, 1); } while (0); /* #pragma css taskwait on([4]v) */
// CHECK: css_barrier(); /* #pragma css taskwait */
