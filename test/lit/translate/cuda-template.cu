// A cuda task that is a function template: its kernel launches, dependent or
// not, run on the worker's stream, and calls become calls of the template
// submit helper.
// REQUIRES: cuda-headers
// RUN: %gpuss-translate %s -o %t.cu --
// RUN: FileCheck %s < %t.cu
#define TS 64
template <typename T>
__global__ void scale_kernel(T *a, T f) { a[threadIdx.x] *= f; }

#pragma css target device(cuda)
#pragma css task inout(a[TS])
template <typename T>
void scale(T *a) {
  scale_kernel<<<1, TS>>>(a, T(2));
  scale_kernel<T><<<1, TS>>>(a, T(2));
}

void run(float *a, double *b) {
  scale(a);
  scale<double>(b);
}

// CHECK: scale_kernel<<<1, TS, 0, css_cuda_stream()>>>(a, T(2));
// CHECK-NEXT: scale_kernel<T><<<1, TS, 0, css_cuda_stream()>>>(a, T(2));
// CHECK: static void __css_body_scale(
// CHECK: ::scale<T>((T *)css_translate(__css_env, 0, __css_a->a));
// CHECK: template <typename T>
// CHECK-NEXT: static void __css_submit_scale(T *a, const char *__css_file, int __css_line) {
// CHECK: __css_desc.device_kind = CSS_DEVICE_CUDA;
// CHECK: ::__css_submit_scale(a, "{{.*}}cuda-template.cu", 20);
// CHECK-NEXT: ::__css_submit_scale<double>(b, "{{.*}}cuda-template.cu", 21);
