// The environment is checked when the program starts, before main: a
// malformed CSS_* value ends it with status 1 before its output begins (it
// was reported at the first task, after the program's output began), and a
// CSS_* name GPUSs does not read gets a warning that names the likely one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuss-cc %s -o %t/prog
// RUN: env CSS_CACHE_POLICY=writeback %t/prog > %t/out 2> %t/err; echo "status=$?" >> %t/out
// RUN: FileCheck --check-prefix=BAD %s < %t/out
// RUN: FileCheck --check-prefix=BAD-ERR %s < %t/err
// RUN: env CSS_NUMCPUS=2 %t/prog > %t/out2 2> %t/err2
// RUN: FileCheck --check-prefix=TYPO %s < %t/err2
// RUN: FileCheck --check-prefix=RUNS %s < %t/out2
// BAD-NOT: main started
// BAD: status=1
// BAD-ERR: gpuss: error: CSS_CACHE_POLICY='writeback' is not one of nocache, wt, wb
// TYPO: gpuss: warning: CSS_NUMCPUS is not a GPUSs variable and is ignored; did you mean CSS_NUM_CPUS?
// RUNS: main started
// RUNS: x=1
#include <stdio.h>

#pragma css task inout(x[1])
void bump(int *x) { x[0] += 1; }

int x;

int main(void) {
  printf("main started\n");
  fflush(stdout);
  bump(&x);
#pragma css barrier
  printf("x=%d\n", x);
  return 0;
}
