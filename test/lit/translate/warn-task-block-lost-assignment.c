// A task block works on copies of the locals no clause names (OmpSs'
// firstprivate): an assignment to one whose value the function reads after
// the task is lost, silently, where the sequential program keeps it. Warned
// about at the assignment; a local used as the block's own temporary is not.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s --implicit-check-not=warning:
int compute(int a);
void show(int v);

void f(int y) {
  int result = 0, count = 0, i, tmp;
#pragma omp task in(y)
  {
    result = compute(y);
  }
// CHECK: warn-task-block-lost-assignment.c:[[@LINE-2]]:5: warning: 'result' is assigned in the task block at line 12, but no clause names it, so the task assigns its own copy: the code after the task still reads the value from before it; name it in output(result) or inout(result)
  for (int k = 0; k < 4; k++) {
#pragma omp task in(y)
    {
      count += y;
    }
  }
// CHECK: warn-task-block-lost-assignment.c:[[@LINE-3]]:7: warning: 'count' is assigned in the task block at line 18
  // Temporaries of the block: the next use after it overwrites them, or
  // there is none.
#pragma omp task in(y)
  {
    for (i = 0; i < y; i++)
      tmp = compute(i);
    show(tmp);
  }
#pragma omp taskwait
  for (i = 0; i < 2; i++)
    show(i);
  show(result);
  show(count);
}
