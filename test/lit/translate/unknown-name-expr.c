// Names in dimension expressions: macros, globals, enumerators, parameters.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
#define ROWS 4
int cols = 8;
enum { DEPTH = 2 };
#pragma css task inout(a[ROWS][cols][DEPTH * sizeof(int) / sizeof(int)]) input(n, b[n > 0 ? n : 1])
void f(int *a, int n, int *b);
void g(int *a, int *b) { f(a, 3, b); }
// CHECK: css_contiguous(a, css_mul(css_mul(css_mul((size_t)(ROWS), (size_t)(cols)), (size_t)(DEPTH * sizeof(int) / sizeof(int))), sizeof(*a)));
// CHECK: css_contiguous(b, css_mul((size_t)(n > 0 ? n : 1), sizeof(*b)));
