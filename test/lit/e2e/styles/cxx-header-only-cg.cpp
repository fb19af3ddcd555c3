// C++ conjugate gradient on a header-only task library (Inputs/cg_blas1.hpp):
// the tasks are inline functions and one function template, defined with
// their directives in the header, working on `std::vector<double>::data()`
// blocks (`in(n, [n]x)`, a padded vector read with a halo `[n + 2]pp`).
// Scalars stay in tasks: the dot products accumulate into `inout(*dot)`,
// alpha is computed by a task and read by the AXPY tasks through `in(*a)`;
// the master waits only for what it reads, with `#pragma css taskwait
// on(rho_new, rho)` every iteration (then it computes beta and passes it by
// value) and `taskwait on([N]xs)` on the solution before the final taskwait.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: iter 0 rho
// CHECK: iter 60 rho
// CHECK: x[0]
// CHECK: checksum

#include <cstdio>
#include <vector>

#include "Inputs/cg_blas1.hpp"

constexpr int N = 2048;
constexpr int BS = 256;
constexpr int NBLK = N / BS;
constexpr int ITERS = 60;

int main()
{
    std::vector<double> x(N, 0.0), r(N), q(N);
    std::vector<double> p(N + 2, 0.0); // p[0] and p[N + 1] stay 0
    double rho = 0.0, rho_new = 0.0, pq = 0.0, alpha = 0.0;

    for (int i = 0; i < N; ++i) {
        r[i] = 1.0 + (double)((i * 17) % 23) / 23.0; // b - A*0
        p[i + 1] = r[i];
    }

    double *xs = x.data(), *rs = r.data(), *qs = q.data(), *ps = p.data() + 1;

    clear_scalar(&rho);
    for (int b = 0; b < NBLK; ++b)
        dot_block(BS, rs + b * BS, rs + b * BS, &rho);

    for (int it = 0; it <= ITERS; ++it) {
        for (int b = 0; b < NBLK; ++b)
            laplace_block(BS, p.data() + b * BS, qs + b * BS);
        clear_scalar(&pq);
        for (int b = 0; b < NBLK; ++b)
            dot_block(BS, ps + b * BS, qs + b * BS, &pq);
        ratio(&rho, &pq, &alpha);
        for (int b = 0; b < NBLK; ++b) {
            axpy_block(BS, &alpha, 1.0, ps + b * BS, xs + b * BS);
            axpy_block<double>(BS, &alpha, -1.0, qs + b * BS, rs + b * BS);
        }
        clear_scalar(&rho_new);
        for (int b = 0; b < NBLK; ++b)
            dot_block(BS, rs + b * BS, rs + b * BS, &rho_new);

#pragma css taskwait on(rho_new, rho)
        if (it % 10 == 0)
            std::printf("iter %d rho %.6e\n", it, rho_new);
        const double beta = rho_new / rho;
        rho = rho_new;
        for (int b = 0; b < NBLK; ++b)
            xpby_block(BS, rs + b * BS, beta, ps + b * BS);
    }

#pragma css taskwait on([N]xs)
    std::printf("x[0] %.6f x[N/2] %.6f x[N-1] %.6f\n", x[0], x[N / 2], x[N - 1]);
#pragma css taskwait
    double checksum = 0.0;
    for (int i = 0; i < N; ++i)
        checksum += x[i] * ((i % 5) + 1) * 1e-3 + p[i + 1] * ((i % 3) + 1);
    std::printf("alpha %.6e\n", alpha);
    std::printf("checksum %.6e\n", checksum);
    return 0;
}
