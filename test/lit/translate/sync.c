// barrier, wait on, start and finish.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
#define N 32
double result;

#pragma css task output(r) input(v[N])
void sum(const double *v, double *r);

int main(void) {
  double v[N] = {0}, total;
#pragma css start
  sum(v, &total);
#pragma css wait on(total, v[0;N])
#pragma css barrier
#pragma css finish
  return (int)total;
}

// CHECK: css_start(); /* #pragma css start */
// CHECK: __css_submit_sum(v, &total, "{{.*}}sync.c", 14);
// CHECK: do { css_region __css_wait[2]; __css_wait[0] = css_contiguous(&total, sizeof total); __css_wait[1] = css_contiguous((v) + (0), css_mul((size_t)(N), sizeof(*v))); css_wait_on_at("{{.*}}sync.c", 15, __css_wait, 2); } while (0); /* #pragma css wait on(total, v[0;N]) */
// CHECK: css_barrier(); /* #pragma css barrier */
// CHECK: css_finish(); /* #pragma css finish */
