// An OmpSs task on a block: the block becomes a static function called by
// the task; the variables its clauses name are reached through the task's
// pointers, the other locals it uses are copied at the submission, a
// global that no clause names is warned about; its local 'acc' is waited
// for before the function returns.
// RUN: %gpuss-translate %s -o %t.c -- 2> %t.err
// RUN: FileCheck %s < %t.c
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %cc -fsyntax-only -Wall -Wno-unknown-pragmas -I %gpuss-include %t.c
int calls;
double sum_chunk(const double *x, int lo, int n) {
  double acc = 0;
  int scale = 2;
#pragma css task in(x[lo;n]) inout(acc)
  {
    for (int i = lo; i < lo + n; i++)
      acc += scale * x[i];
    calls++;
  }
  return acc;
}
// WARN: task-block.c:10:5: warning: 'calls' is used in the task block at line 15 and no clause names it: the task uses it in place, unordered with the other tasks and not on a device; name it in a clause
// CHECK: static void __css_block_sum_chunk_l15(int lo, int n, double *__css_p_acc, int scale, const double *x)
// CHECK-NEXT: #line 15 "{{.*}}task-block.c"
// CHECK-NEXT: {
// CHECK-NEXT: for (int i = lo; i < lo + n; i++)
// CHECK-NEXT: (*__css_p_acc) += scale * x[i];
// CHECK: __css_args.lo = (lo);
// CHECK: __css_args.__css_p_acc = (&acc);
// CHECK: } while (0);
// CHECK-NEXT: #line 19 "{{.*}}task-block.c"
// CHECK: css_release(__css_wait, 1); } while (0); /* gpuss: tasks use acc */ return acc; }
