// Kernel launchers for the GPU tests (compiled by nvcc, called from C++20).
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

void launch_scale_add(double *x, std::size_t n, double factor, double addend, cudaStream_t stream);
void launch_axpy(double *y, const double *x, std::size_t n, double alpha, cudaStream_t stream);
void launch_fill(double *x, std::size_t n, double value, cudaStream_t stream);
