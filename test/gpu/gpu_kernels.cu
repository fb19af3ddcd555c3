// The kernels of the GPU tests, launched on the stream a task body is given.
#include "gpu_kernels.h"

namespace {

__global__ void scale_add_kernel(double *x, std::size_t n, double factor, double addend) {
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) x[i] = x[i] * factor + addend;
}

__global__ void axpy_kernel(double *y, const double *x, std::size_t n, double alpha) {
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] += alpha * x[i];
}

__global__ void fill_kernel(double *x, std::size_t n, double value) {
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) x[i] = value;
}

} // namespace

void launch_fill(double *x, std::size_t n, double value, cudaStream_t stream) {
  fill_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(x, n, value);
}

void launch_scale_add(double *x, std::size_t n, double factor, double addend, cudaStream_t stream) {
  scale_add_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(x, n, factor, addend);
}

void launch_axpy(double *y, const double *x, std::size_t n, double alpha, cudaStream_t stream) {
  axpy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(y, x, n, alpha);
}
