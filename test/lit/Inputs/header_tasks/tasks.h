/* Annotated prototypes (header_tasks, for e2e/header-inline-tasks.c). */
#pragma once
#pragma css task inout(acc) input(v[n], n)
void add(long *acc, const long *v, int n);
#pragma css task inout(v[n]) input(n, f)
void scale(long *v, int n, long f);
