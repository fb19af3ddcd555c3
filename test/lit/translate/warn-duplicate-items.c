// An item named twice, in one clause or in two: a warning (the task reads
// and writes an item named in input and in inout).
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: FileCheck --check-prefix=CODE %s < %t.c
#pragma css task input(a[4]) inout(a[4]) output(b[2], b[2])
void f(int *a, int *b);
void call(int *a, int *b) { f(a, b); }
// CHECK: warn-duplicate-items.c:5:36: warning: 'a[4]' is named in both 'input' and 'inout': the task reads and writes it (inout); name it once, in inout(a[4])
// CHECK: warn-duplicate-items.c:5:24: note: named here first
// CHECK: warn-duplicate-items.c:5:55: warning: 'b[2]' is named twice in 'output'; name it once
// CODE: static void __css_submit_f(
// CODE: __css_acc[0].direction = CSS_INOUT;
// CODE: __css_acc[1].direction = CSS_OUT;
// CODE: __css_desc.num_accesses = 2;
