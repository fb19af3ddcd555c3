// Items with no dimensions: one element of a pointer, all of an array.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
struct point { double x, y; };

#pragma css task inout(p) input(grid)
void move(struct point *p, const int grid[4][4]);

void run(struct point *p, int g[4][4]) {
  move(p, g);
}

// CHECK: struct __css_args_move {
// CHECK-NEXT:   struct point *p;
// CHECK-NEXT:   const int (*grid)[4];
// CHECK: __css_acc[0].region = css_contiguous(p, sizeof(*p));
// CHECK: __css_acc[1].region = css_contiguous(grid, (size_t)4 * sizeof(*grid));
