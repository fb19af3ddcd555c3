// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
void scale(double **tiles, int t);
void run(double **C, int t) {
#pragma css task inout(C[t][0;64])
  scale(C, t);
}
// CHECK: section-through-stored-pointer.c:5:28: error: 'C[t][0;64]' names data through the pointer stored in 'C': a task reaches its data through its parameters; pass that pointer to the task and name its parameter (items through stored pointers are for 'wait on')
