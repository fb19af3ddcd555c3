// OpenMP data-sharing clauses on a task statement: a variable in two of
// them is an error, a name the statement does not use (misspelt, or not
// declared: OpenMP compilers refuse it) is warned about, and a declaration
// cannot be a task's statement, nor can a directive other than critical or
// atomic stand between the task directive and its statement.
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: test ! -e %t.c
int main(void) {
  int x = 1, y = 2;
#pragma omp task shared(x) firstprivate(x)
  x = 3;
#pragma omp task shared(y, nosuch)
  y = 4;
#pragma omp task
  int q = 3;
#pragma omp task shared(x)
#pragma omp single
  x += 1;
#pragma omp task default(none) shared(x)
  x += y;
#pragma omp task shared(y, y)
  y = 1;
#pragma omp taskwait
  return x + y + q;
}
// The misplaced construct is found first, when the directive is attached.
// CHECK: task-data-sharing.c:17:13: error: '#pragma omp single' between a task directive and its statement: put it in braces after the task directive, '{ #pragma omp single <statement> }'
// CHECK: task-data-sharing.c:16:13: note: task directive here
// CHECK: task-data-sharing.c:10:41: error: 'x' is named in firstprivate(...) and in shared(...): a variable has one data-sharing attribute; keep one
// CHECK: task-data-sharing.c:12:28: warning: 'nosuch' in shared(...) is no variable the task's statement uses from around it; the clause changes nothing for it
// CHECK: task-data-sharing.c:15:3: error: a task directive before a declaration
// CHECK: task-data-sharing.c:20:8: error: 'y' is used by the task and its directive says default(none): name it in shared(...), firstprivate(...), private(...) or a data clause
// CHECK: task-data-sharing.c:21:28: error: 'y' is named twice in shared(...); keep one
