// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
struct inner { double *data; };
struct outer { struct inner *in; int n; };
#pragma css task inout(o->in->data[0;o->n])
void f(struct outer *o);
// CHECK: member-item-two-pointers.c:5:31: error: 'o->in->data' reaches its data through a second pointer ('->data'): a task's data must be reachable from a parameter through one pointer member at most; pass 'o->in' as a parameter of its own
