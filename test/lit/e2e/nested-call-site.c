// Issue 17's minimal form: a call-site task inside a helper function that a
// task body calls. The inner call is a child of the running task; before
// nested tasks it waited for the runtime's lock, which the master's barrier
// held, and the program never ended. Also run with CSS_NESTED=inline.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_NESTED=inline timeout 60 %t/par > %t/inline
// RUN: cmp %t/expected %t/inline
// RUN: CSS_NUM_CPUS=2 CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks=8 {{.*}}child_tasks=4 inline_tasks=0
// CHECK: a: 2 3 4 5 6 7 8 9 | b: 3 4 5 6 7 8 9 10
#include <stdio.h>

#pragma css task inout(a[n])
void inner(int *a, int n);

static void helper(int *a, int n) {
#pragma css task inout(a[n])
  inner(a, n);
}

#pragma css task inout(a[n])
void outer(int *a, int n) { helper(a, n); }

void inner(int *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] += 1;
}

int main(void) {
  int a[8] = {0, 1, 2, 3, 4, 5, 6, 7}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int round = 0; round < 2; round++) {
    outer(a, 8);
    outer(b, 8);
  }
#pragma css barrier
  printf("a:");
  for (int i = 0; i < 8; i++)
    printf(" %d", a[i]);
  printf(" | b:");
  for (int i = 0; i < 8; i++)
    printf(" %d", b[i]);
  printf("\n");
  return 0;
}
