// The translated .cu compiles with nvcc.
// REQUIRES: nvcc
// RUN: %gpuss-translate %s -o %t.cu --
// RUN: %nvcc -c -I %gpuss-include %t.cu -o %t.o
#define TS 64
__global__ void inc_kernel(float *a) { a[threadIdx.x] += 1.0f; }

#pragma css target device(cuda) copy_inout(a[TS])
#pragma css task inout(a[TS])
void inc(float *a) { inc_kernel<<<1, TS>>>(a); }

void run(float *a) { inc(a); }
