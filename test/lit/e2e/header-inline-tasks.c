// Task calls and directives in the program's own headers: static inline
// functions that call declared tasks and a call-site task, with 'wait on'
// and 'barrier', in a guarded header and a #pragma once header included
// twice (once more through another header, so skipped). They were not
// translated: the calls ran at once, racing the tasks, and the barrier was
// dropped. The translated headers are written into the output. Same output
// as the sequential program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas -I %inputs/header_tasks %s -o %t/seq
// RUN: %t/seq > %t/expected
// RUN: %gpuss-cc -I %inputs/header_tasks %s -o %t/par
// RUN: %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: %gpuss-cc --translate-only -I %inputs/header_tasks %s -o %t/translated.c
// RUN: FileCheck --check-prefix=CODE %s < %t/translated.c
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9][0-9]}}
// CHECK: sum 2001000 scaled 12006000 42
// CODE: #line 1 "{{.*}}sum.h"
// CODE: #line 1 "{{.*}}scale.h"
// CODE: /* gpuss: #pragma once */
// CODE: css_barrier(); /* #pragma css barrier */
// CODE: __css_submit_add(&acc, v + i, chunk, "{{.*}}sum.h", 9);
// CODE: #line 1 "{{.*}}other.h"
// CODE-NEXT: /* Includes scale.h again
// CODE-NEXT: /* gpuss: {{.*}}scale.h is above */
#include <stdio.h>
#include "sum.h"
#include "other.h"

void add(long *acc, const long *v, int n) {
  for (int i = 0; i < n; i++)
    *acc += v[i];
}
void scale(long *v, int n, long f) {
  for (int i = 0; i < n; i++)
    v[i] *= f;
}

int main(void) {
  static long v[2000];
  for (int i = 0; i < 2000; i++)
    v[i] = i + 1;
  long s = sum_all(v, 2000, 100);
  scale_all(v, 2000, 250, 3);
  long t = sum_all(v, 2000, 100) * 2;
  printf("sum %ld scaled %ld %d\n", s, t, other_answer());
  return 0;
}
