// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
int first_negative(const int *v, int n) {
  int found = -1;
#pragma css task in(v[0;n]) out(found)
  {
    for (int i = 0; i < n; i++)
      if (v[i] < 0)
        return i;
  }
  return found;
}
// CHECK: task-block-return.c:9:9: error: a task block cannot be outlined into a task when it returns from the function; write the task as a function with a task directive, and call it here
