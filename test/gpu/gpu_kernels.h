// Kernel launchers for the GPU tests (compiled by nvcc, called from C++20).
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

void launch_scale_add(double *x, std::size_t n, double factor, double addend, cudaStream_t stream);
void launch_axpy(double *y, const double *x, std::size_t n, double alpha, cudaStream_t stream);
void launch_fill(double *x, std::size_t n, double value, cudaStream_t stream);
// One step of a halo stencil over the b x b block at (i0, j0) of the matrix
// `a` (rows `pitch` elements apart): each cell from itself and the four
// one-wide strips around the block, rounded exactly as the host does it.
void launch_halo_relax(double *a, std::size_t pitch, std::size_t i0, std::size_t j0, std::size_t b,
                       cudaStream_t stream);
