// SMPSs programs list their by-value arguments in input(...), a function
// pointer (the operation a generic task applies) among them. A function
// pointer is a value: what it points to is code, with no dependencies.
// (It was refused: "cannot tell the size of what 'op' points to".)
// Same output as the sequential program, on host workers and simulated
// devices.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: FileCheck %s < %t/expected
// CHECK: acc=46 max=9 prod=3628800
#include <stdio.h>

typedef long (*binop)(long, long);

#pragma css task input(op, x) inout(*acc)
void apply(binop op, long x, long *acc);

#pragma css task input(op, n, v[n]) output(*r)
void fold(long (*op)(long, long), int n, const long *v, long *r);

static long add(long a, long b) { return a + b; }
static long max(long a, long b) { return a > b ? a : b; }
static long mul(long a, long b) { return a * b; }

int main(void) {
  long acc = 1, v[10], m, p;
  for (int i = 0; i < 10; i++) {
    apply(add, i, &acc);
    v[i] = i + 1;
  }
  fold(max, 9, v, &m);
  fold(mul, 10, v, &p);
#pragma css barrier
  printf("acc=%ld max=%ld prod=%ld\n", acc, m, p);
  return 0;
}

void apply(binop op, long x, long *acc) { *acc = op(*acc, x); }

void fold(long (*op)(long, long), int n, const long *v, long *r) {
  long s = v[0];
  for (int i = 1; i < n; i++)
    s = op(s, v[i]);
  *r = s;
}
