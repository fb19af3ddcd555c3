// depend(...) is read (OpenMP and OmpSs), but `[a:b]` inside it means b
// elements from a to OpenMP and elements a to b to OmpSs: refused, with what
// to write, rather than guessed.
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma omp task depend(in: a[0:n]) depend(out: b[0;n])
void use(int n, const double *a, double *b);
// CHECK: depend-ambiguous-range.c:6:30: error: 'a[0:n]' in depend(...) is ambiguous: OpenMP reads [a:b] as b elements from a, OmpSs as elements a to b; write [a;n] for n elements from a (or name it in in(...), out(...) or inout(...), where [a:b] is OmpSs' a to b)
