// A C99 prototype may leave a variable-length array parameter's sizes to the
// definition (`[*]`); the declaration that carries the directive must give
// them, since the code written around the call spells the parameter's type.
// The generated code used to fail in the C compiler ("'[*]' not allowed in
// other than function prototype scope", at the line after the program's end).
// RUN: not %gpuss-translate %s -o %t.c -- -std=c99 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#pragma css task input(n) inout(a[0;n][0;n])
void scale(int n, double a[*][*]);
// CHECK: vla-unspecified-size.c:9:26: error: parameter 'a' of task function 'scale' is declared 'double[*][*]', whose '[*]' leaves its sizes to another declaration; give them in the declaration that carries the directive (e.g. 'double a[n][m]' with n and m parameters before it), or declare it as a plain pointer with its shape in the clause

#pragma css task input(n) inout(b[0;n])
void shift(int n, double (*b)[*]);
// CHECK: vla-unspecified-size.c:13:28: error: parameter 'b' of task function 'shift' is declared 'double (*)[*]'

void scale(int n, double a[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i][j] *= 2;
}
