// cg_blas1.hpp -- a header-only library of blocked BLAS-1 and stencil task
// kernels, in the way C++ users packaged StarSs/OmpSs kernels: every task is
// an inline function (or function template) defined here with its directive;
// the program only includes this header. Used by cxx-header-only-cg.cpp.
#ifndef CG_BLAS1_HPP
#define CG_BLAS1_HPP

#include <cstddef>

// *s = 0
#pragma css task output(*s)
inline void clear_scalar(double *s)
{
    *s = 0.0;
}

// *dot += x . y over one block
#pragma css task in(n, [n]x, [n]y) inout(*dot)
inline void dot_block(int n, const double *x, const double *y, double *dot)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += x[i] * y[i];
    *dot += s;
}

// *q = *num / *den
#pragma css task in(*num, *den) out(*q)
inline void ratio(const double *num, const double *den, double *q)
{
    *q = *num / *den;
}

// y += sign * (*a) * x, the factor read from a task's result
#pragma css task in(n, *a, sign, [n]x) inout([n]y)
template <typename T>
void axpy_block(int n, const T *a, T sign, const T *x, T *y)
{
    const T f = sign * *a;
    for (int i = 0; i < n; ++i)
        y[i] += f * x[i];
}

// p = x + beta * p, beta computed on the master and passed by value
#pragma css task in(n, beta, [n]x) inout([n]p)
inline void xpby_block(int n, const double *x, double beta, double *p)
{
    for (int i = 0; i < n; ++i)
        p[i] = x[i] + beta * p[i];
}

// q = A p for the 1-D Laplacian; pp is the block with one halo value each side
#pragma css task in(n, [n + 2]pp) out([n]q)
inline void laplace_block(int n, const double *pp, double *q)
{
    for (int i = 0; i < n; ++i)
        q[i] = 2.0 * pp[i + 1] - pp[i] - pp[i + 2];
}

#endif
