// UTF-8 identifiers in clauses (C99 extended characters), as the compiler
// accepts them in the code.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -I %gpuss-include %t.c
#define NΔ 8
#pragma css task input(n, a[n]) output(σ[NΔ])
void sums(int n, const double *a, double *σ);
void run(const double *a, double *σ) { sums(16, a, σ); }
// CHECK: css_contiguous(a, css_mul((size_t)(n), sizeof(*a)));
// CHECK: css_contiguous(σ, css_mul((size_t)(NΔ), sizeof(*σ)));
