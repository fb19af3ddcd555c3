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

// No fused multiply-adds: the host reference rounds every step.
__global__ void halo_relax_kernel(double *a, std::size_t pitch, std::size_t i0, std::size_t j0, std::size_t b) {
  std::size_t i = i0 + blockIdx.y * static_cast<std::size_t>(blockDim.y) + threadIdx.y;
  std::size_t j = j0 + blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= i0 + b || j >= j0 + b) return;
  double halos = __dadd_rn(__dadd_rn(__dadd_rn(a[(i0 - 1) * pitch + j], a[(i0 + b) * pitch + j]),
                                     a[i * pitch + j0 - 1]),
                           a[i * pitch + j0 + b]);
  a[i * pitch + j] = __dadd_rn(__dmul_rn(0.5, a[i * pitch + j]), __dmul_rn(0.125, halos));
}

} // namespace

void launch_halo_relax(double *a, std::size_t pitch, std::size_t i0, std::size_t j0, std::size_t b,
                       cudaStream_t stream) {
  dim3 threads(16, 16), blocks(static_cast<unsigned>((b + 15) / 16), static_cast<unsigned>((b + 15) / 16));
  halo_relax_kernel<<<blocks, threads, 0, stream>>>(a, pitch, i0, j0, b);
}

void launch_fill(double *x, std::size_t n, double value, cudaStream_t stream) {
  fill_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(x, n, value);
}

void launch_scale_add(double *x, std::size_t n, double factor, double addend, cudaStream_t stream) {
  scale_add_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(x, n, factor, addend);
}

void launch_axpy(double *y, const double *x, std::size_t n, double alpha, cudaStream_t stream) {
  axpy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(y, x, n, alpha);
}
