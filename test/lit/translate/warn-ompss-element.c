// OmpSs element dependences written in GPUSs's notation: 'x[k-1]' is k-1
// elements in GPUSs. With 'x[k]' in the same directive the writer most
// likely meant elements: a warning that suggests 'x[k-1;1]'. Counts that
// only look alike ('a[n]', 'b[n+2]' of two pointers) are not warned about.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --implicit-check-not=warning: %s
#pragma css task in(x[k-1]) out(x[k])
void next_value(double *x, int k);
// CHECK: warn-ompss-element.c:[[@LINE-2]]:22: warning: 'x[k-1]' is the k-1 elements from x[0] ('x[n]' counts elements in GPUSs), not element k-1 as in OmpSs; with 'x[k]' in the same directive this looks like OmpSs element dependences: for single elements write 'x[k-1;1]' and 'x[k;1]'

#pragma css task in(a[n]) inout(b[n+2]) input(n)
void halo(const double *a, double *b, int n);

// Two such pairs in one directive: each is warned about.
#pragma css task in(x[k-1]) out(x[k]) in(y[k-1]) out(y[k])
void next_values(double *x, double *y, int k);
// CHECK: warn-ompss-element.c:[[@LINE-2]]:22: warning: 'x[k-1]' is the k-1 elements from x[0]
// CHECK: warn-ompss-element.c:[[@LINE-3]]:43: warning: 'y[k-1]' is the k-1 elements from y[0]
