// Sections in two dimensions of a pointer to arrays name a strided block.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
#define N 8

#pragma css task inout(a[i0;ni][j0;nj]) input(ni, nj, i0, j0)
void block(double (*a)[N], int i0, int ni, int j0, int nj);

#pragma css task input(m[rows][N])
void rows(double m[][N], int rows);

void run(double (*a)[N]) {
  block(a, 2, 3, 4, 2);
  rows(a, 4);
}

// CHECK: struct __css_args_block {
// CHECK-NEXT:   double (*a)[8];
// CHECK: __css_acc[0].region.base = (void *)&(a)[i0][j0];
// CHECK-NEXT: __css_acc[0].region.row_bytes = css_mul((size_t)(nj), sizeof((a)[0][0]));
// CHECK-NEXT: __css_acc[0].region.rows = (size_t)(ni);
// CHECK-NEXT: __css_acc[0].region.stride = sizeof(*a);
// CHECK: static void __css_submit_rows(double (*m)[8], int rows,
// CHECK: __css_acc[0].region = css_contiguous(m, css_mul((size_t)(rows), sizeof(*m)));
