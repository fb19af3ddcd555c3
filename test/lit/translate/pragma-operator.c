// Directives written with _Pragma, directly and through macros that expand
// to them: the task directive applies to the declaration after the macro,
// and synchronisation made so is rewritten in place.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -Werror -Wno-unknown-pragmas -I %gpuss-include %t.c
#define TASK_INOUT4 _Pragma("css task inout(a[4])")
#define SYNC _Pragma("css barrier")

TASK_INOUT4
void bump(int *a);

void run(int *x, int *y) {
  bump(x);
  SYNC;
  bump(y);
  _Pragma("css wait on(y[4])")
}
// CHECK: /* #pragma css task inout ( a [ 4 ] ) */
// CHECK: static void __css_submit_bump(int *a,
// CHECK: __css_submit_bump(x, "{{.*}}pragma-operator.c", 14);
// CHECK-NEXT: css_barrier(); /* #pragma css barrier */;
// CHECK-NEXT: __css_submit_bump(y, "{{.*}}pragma-operator.c", 16);
// CHECK-NEXT: do { css_region __css_wait[1]; __css_wait[0] = css_contiguous(y, (size_t)(4) * sizeof(*y)); css_wait_on_at("{{.*}}pragma-operator.c", 17, __css_wait, 1); } while (0); /* #pragma css wait on ( y [ 4 ] ) */
