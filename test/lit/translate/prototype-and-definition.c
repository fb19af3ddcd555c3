// The pragma on the prototype and on the definition: they must say the
// same, however spelt (spacing, clause order, parameter names). A task
// defined after main with an unannotated prototype before it.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c

#pragma css task input(n) inout(a[n])
void scale(int n, double *a);

void late(int n, double *a);

int main(void) {
  double a[4] = {1, 2, 3, 4};
  scale(4, a);
  late(4, a);
#pragma css barrier
  return 0;
}

#pragma css task inout(v [ n ]) input(n)
void scale(int n, double *v) {
  for (int i = 0; i < n; i++)
    v[i] *= 2;
}

#pragma css task input(n) inout([n]a)
void late(int n, double *a) {
  a[0] += n;
}

// CHECK: /* #pragma css task input(n) inout(a[n]) */
// CHECK: static void __css_submit_scale(
// CHECK: static void __css_submit_late(
// CHECK: int main(void) {
// CHECK: __css_submit_scale(4, a, "{{.*}}prototype-and-definition.c", 15);
// CHECK-NEXT: __css_submit_late(4, a, "{{.*}}prototype-and-definition.c", 16);
// CHECK: /* #pragma css task inout(v [ n ]) input(n) */
// CHECK-NEXT: void scale(int n, double *v) {
// CHECK: /* #pragma css task input(n) inout([n]a) */
