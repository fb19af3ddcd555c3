// Compiler options Clang does not know (gcc's) are dropped, not errors.
// RUN: %gpuss-translate %s -o %t.c -- -fopt-info-vec -fstack-reuse=none -fno-tree-pre -DN=4 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: error
// RUN: grep -q "__css_submit_twice(v, " %t.c
#pragma css task inout(v[N])
void twice(int *v);
void g(int *v) { twice(v); }
