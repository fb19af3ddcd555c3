// Sections of one dimension: [lo;len] and [lo:hi].
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
#define N 100
int offset = 3;

#pragma css task input(a[offset;10]) output(b[2:N-1])
void copy(const int *a, int *b);

void run(int *a, int *b) { copy(a, b); }

// CHECK: __css_acc[0].region = css_contiguous((a) + (offset), (size_t)(10) * sizeof(*a));
// CHECK: __css_acc[0].direction = CSS_IN;
// CHECK: __css_acc[1].region = css_contiguous((b) + (2), css_mul((size_t)((N-1) - (2) + 1), sizeof(*b)));
// CHECK: __css_acc[1].direction = CSS_OUT;
