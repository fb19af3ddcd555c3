// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
void f(int *a);
int counter;
void g(int *a) {
#pragma css task inout(a[4])
  counter++;
}
#pragma css task inout(a[4])
int value = 3;
// CHECK: not-followed.c:7:3: error: a task directive must be followed by a function declaration, a function definition, a statement that calls a function or a block '{ ... }'; this statement is not a function call
// CHECK: not-followed.c:6:13: note: task directive here
// CHECK: not-followed.c:10:1: error: a task directive must be followed by a function declaration, a function definition or a call; this declares something else
