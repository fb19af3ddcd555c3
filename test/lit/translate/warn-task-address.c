// Taking the address of a task function: a call through the pointer is an
// ordinary call that races with the tasks in flight (a sum came out between
// 2.03M and 4.0M instead of 2,002,000). A warning where the address is taken;
// direct calls stay tasks.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: FileCheck --check-prefix=CODE %s < %t.c
#pragma css task inout(acc) input(v[n]) input(n)
void add(long *acc, const long *v, int n);

typedef void (*adder)(long *, const long *, int);

void run(long *acc, const long *v) {
  adder a = add;
  // CHECK: warn-task-address.c:[[@LINE-1]]:13: warning: the address of task function 'add' is taken here: a call through this pointer is an ordinary call, not a task; it runs at once, unordered with the tasks in flight that use its data; call 'add' by its name where it must be a task, or wait for its data before calling through the pointer
  // CHECK: warn-task-address.c:7:13: note: the directive of 'add' is here
  add(acc, v, 4);
  (*add)(acc, v, 4);
  a(acc, v, 4);
}
// CODE: {{^}}  __css_submit_add(acc, v, 4, "{{.*}}", 16);
// CODE-NEXT: {{^}}  (__css_submit_add)(acc, v, 4, "{{.*}}", 17);
// CODE-NEXT: {{^}}  a(acc, v, 4);
