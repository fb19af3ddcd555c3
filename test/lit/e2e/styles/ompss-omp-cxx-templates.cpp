// C++ OmpSs with `#pragma omp`: a namespaced set of function-template task
// kernels, each with `#pragma omp target device(smp) copy_deps` (or none)
// and `#pragma omp task in(...) out(...)` / `inout(*acc)` written before
// the `template <typename T>` line, as OmpSs C++ codes annotate their kernel
// templates; a `label(...)` on each. A driver template runs the same power
// iteration on a 1-D three-point operator for `long` (modular arithmetic,
// exact) and for `double`, on `std::vector::data()` blocks of 512 elements:
// the stencil reads its block with a one-element halo on each side from a
// padded vector (`in(xp[0;n+2])`), the norm is accumulated by tasks into a
// local scalar (`inout(*acc)`), the master waits only for it
// (`#pragma omp taskwait on(norm)`), derives a factor and passes it by value
// to the rescaling tasks, which overwrite the vector the next stencils read.
// A final `#pragma omp taskwait` in each instantiation.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: long step 0 norm
// CHECK: long checksum
// CHECK: double step 0 norm
// CHECK: double checksum

#include <cmath>
#include <cstdio>
#include <vector>

namespace chain {

constexpr int N = 4096;
constexpr int BS = 512;
constexpr int NBLK = N / BS;
constexpr long P = 1000003;

template <typename T>
struct Ops;

template <>
struct Ops<long> {
    static const char *name() { return "long"; }
    static long apply(long l, long c, long r) { return (l + 3 * c + 2 * r) % P; }
    static long mac(long acc, long a, long b) { return (acc + a * b) % P; }
    static long factor(long norm) { return norm % 89 + 2; }
    static long scale(long v, long f) { return v * f % P; }
    static void print(long v) { std::printf("%ld", v); }
};

template <>
struct Ops<double> {
    static const char *name() { return "double"; }
    static double apply(double l, double c, double r) { return 0.25 * l + 0.5 * c + 0.25 * r + 0.125 * (r - l); }
    static double mac(double acc, double a, double b) { return acc + a * b; }
    static double factor(double norm) { return 1.0 / std::sqrt(norm / N); }
    static double scale(double v, double f) { return v * f; }
    static void print(double v) { std::printf("%.9e", v); }
};

#pragma omp target device(smp) copy_deps
#pragma omp task out(v[0;n]) label(chain_fill)
template <typename T>
void fill(T *v, int n, int first)
{
    for (int i = 0; i < n; ++i)
        v[i] = static_cast<T>((first + i) * 7 % 23 + 1);
}

#pragma omp target device(smp) copy_deps
#pragma omp task in(xp[0;n+2]) out(y[0;n]) label(chain_stencil)
template <typename T>
void stencil(const T *xp, T *y, int n)
{
    for (int i = 0; i < n; ++i)
        y[i] = Ops<T>::apply(xp[i], xp[i + 1], xp[i + 2]);
}

#pragma omp task in(x[0;n]) inout(*acc) label(chain_dot)
template <typename T>
void dot(const T *x, int n, T *acc)
{
    T s = *acc;
    for (int i = 0; i < n; ++i)
        s = Ops<T>::mac(s, x[i], x[i]);
    *acc = s;
}

#pragma omp task in(y[0;n]) out(x[0;n]) label(chain_rescale)
template <typename T>
void rescale(const T *y, T *x, int n, T f)
{
    for (int i = 0; i < n; ++i)
        x[i] = Ops<T>::scale(y[i], f);
}

} // namespace chain

template <typename T>
void power_run(int steps)
{
    using namespace chain;
    std::vector<T> x(N + 2, T(0)); // x[0] and x[N + 1] stay 0
    std::vector<T> y(N, T(0));
    T norm = T(0);

    for (int b = 0; b < NBLK; ++b)
        fill<T>(x.data() + 1 + b * BS, BS, b * BS);

    for (int s = 0; s < steps; ++s) {
        for (int b = 0; b < NBLK; ++b)
            stencil(x.data() + b * BS, y.data() + b * BS, BS);
        norm = T(0);
        for (int b = 0; b < NBLK; ++b)
            dot(y.data() + b * BS, BS, &norm);
#pragma omp taskwait on(norm)
        std::printf("%s step %d norm ", Ops<T>::name(), s);
        Ops<T>::print(norm);
        std::printf("\n");
        T f = Ops<T>::factor(norm);
        for (int b = 0; b < NBLK; ++b)
            rescale(y.data() + b * BS, x.data() + 1 + b * BS, BS, f);
    }
#pragma omp taskwait

    T checksum = T(0);
    for (int i = 1; i <= N; ++i)
        checksum = Ops<T>::mac(checksum, x[i], static_cast<T>(i % 13 + 1));
    std::printf("%s x[1] ", Ops<T>::name());
    Ops<T>::print(x[1]);
    std::printf(" x[%d] ", N / 2);
    Ops<T>::print(x[N / 2]);
    std::printf("\n%s checksum ", Ops<T>::name());
    Ops<T>::print(checksum);
    std::printf("\n");
}

int main()
{
    power_run<long>(10);
    power_run<double>(10);
    return 0;
}
