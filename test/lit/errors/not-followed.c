// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
void f(int *a);
int counter;
void g(int *a) {
#pragma css task inout(a[4])
  int local = a[0] + counter;
  counter += local;
}
#pragma css task inout(a[4])
int value = 3;
// (the declarations' errors come first, the task statements' after)
// CHECK: not-followed.c:11:1: error: a task directive must be followed by a function declaration, a function definition or a call; this declares something else
// CHECK: not-followed.c:7:3: error: a task directive before a declaration: the task's statement must be a call, a block '{ ... }' or another statement, and what it declares would not outlive it
