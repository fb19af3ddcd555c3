// A parameter declared as an array whose length its declaration does not
// give (`double a[]`, `double a[][4]`, `double a[*]`), named alone in a
// clause: the translator took it as one element (one row), and devices
// copied only that, silently (x7=0 y30=0 where the program gives 2 and 1;
// a helper's sweep of numerical C, 2026-11-29). Refused, asking for the
// length; a declared length (`a[8]`, `a[n]`) names the whole array.
// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --implicit-check-not=error: %s
#pragma css task input(n) inout(a)
void f(int n, double a[]);
// CHECK: array-param-unknown-length.c:[[@LINE-2]]:33: error: 'a' is declared as an array of unknown length (type 'double[]'); give the length in the clause, e.g. 'a[n]'
#pragma css task input(n) inout(a)
void g(int n, double a[][4]);
// CHECK: array-param-unknown-length.c:[[@LINE-2]]:33: error: 'a' is declared as an array of unknown length (type 'double[][4]')
#pragma css task input(n) inout(a)
void h(int n, double a[*]);
// CHECK: array-param-unknown-length.c:[[@LINE-2]]:33: error: 'a' is declared as an array of unknown length (type 'double[*]')
#pragma css task input(n) inout(a)
void fine(int n, double a[n]);
#pragma css task inout(a)
void fixed(double a[8]);
#pragma css task input(n) inout(a[n])
void given(int n, double a[]);
