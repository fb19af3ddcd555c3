// OpenMP's data-sharing clauses on a task function: they mean nothing there
// (its arguments are copied at the call); on a task statement they are read
// (e2e/styles/ompss-omp-fib-shared.c).
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task firstprivate(n) inout([n]a)
void work(int n, double *a);
// CHECK: unsupported-firstprivate.c:6:18: error: clause 'firstprivate' is for a task on a statement; a task function's arguments are copied when the call happens (scalars by value), and pointers reach their data through input, output and inout; remove the clause
#pragma omp task shared(x) inout(x[0;n])
void shared_clause(int n, double *x);
// CHECK: unsupported-firstprivate.c:9:18: error: clause 'shared' is for a task on a statement
#pragma omp task inout(x[0;n]) default(none)
void default_clause(int n, double *x);
// CHECK: unsupported-firstprivate.c:12:32: error: clause 'default' is for a task on a statement
