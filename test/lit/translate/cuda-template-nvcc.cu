// A translated cuda task template compiles with nvcc (the static_assert on
// a dependent by-value parameter included).
// REQUIRES: nvcc
// RUN: %gpuss-translate %s -o %t.cu --
// RUN: %nvcc -c -I %gpuss-include %t.cu -o %t.o
#define TS 64
template <typename T>
__global__ void axpy_kernel(T alpha, const T *x, T *y) { y[threadIdx.x] += alpha * x[threadIdx.x]; }

#pragma css target device(cuda)
#pragma css task input(alpha, x[TS]) inout(y[TS])
template <typename T>
void axpy(T alpha, const T *x, T *y) { axpy_kernel<<<1, TS>>>(alpha, x, y); }

void run(const float *xf, float *yf, const double *xd, double *yd) {
  axpy(2.0f, xf, yf);
  axpy<double>(0.5, xd, yd);
}
