// A kernel launch in the body of a cuda task runs on the worker's stream.
// REQUIRES: cuda-headers
// RUN: %gpuss-translate %s -o %t.cu --
// RUN: FileCheck %s < %t.cu
#define TS 64
__global__ void scale_kernel(float *a, float f) { a[threadIdx.x] *= f; }

#pragma css target device(cuda)
#pragma css task inout(a[TS])
void scale(float *a) {
  scale_kernel<<<1, TS>>>(a, 2.0f);
  scale_kernel<<<1, TS, 128>>>(a, 2.0f);
  scale_kernel<<<1, TS, 0, 0>>>(a, 2.0f);
}

void not_a_task(float *a) { scale_kernel<<<1, TS>>>(a, 1.0f); }

void run(float *a) { scale(a); }

// CHECK: scale_kernel<<<1, TS, 0, css_cuda_stream()>>>(a, 2.0f);
// CHECK-NEXT: scale_kernel<<<1, TS, 128, css_cuda_stream()>>>(a, 2.0f);
// CHECK-NEXT: scale_kernel<<<1, TS, 0, css_cuda_stream()>>>(a, 2.0f);
// CHECK: void not_a_task(float *a) { scale_kernel<<<1, TS>>>(a, 1.0f); }
// CHECK: __css_desc.device_kind = CSS_DEVICE_CUDA;
// CHECK: void run(float *a) { ::__css_submit_scale(a, "{{.*}}cuda-launch.cu", 18); }
