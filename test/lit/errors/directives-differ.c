// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --strict-whitespace %s
// RUN: test ! -e %t.c
#pragma css task input(n, [n]a) inout([n]b)
void axpy(int n, const double *a, double *b);

#pragma css task input(n, [n]x) input([n]y)
void axpy(int n, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}
// CHECK: directives-differ.c:6:42: error: the task directives on two declarations of 'axpy' differ: this one says 'input([n]y)' where the other says 'inout([n]b)'; write the same clauses on both, or annotate one declaration only
// CHECK-NEXT: {{.*}}| #pragma css task input(n, [n]x) input([n]y)
// CHECK-NEXT: {{^ *\| {42}\^}}
// CHECK: directives-differ.c:3:42: note: the other declaration's directive says 'inout([n]b)' here
// CHECK-NEXT: {{.*}}| #pragma css task input(n, [n]a) inout([n]b)
// CHECK-NEXT: {{^ *\| {42}\^}}
