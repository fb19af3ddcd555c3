// C++: a task function template; its struct, trampoline and submit helper
// are templates with the same parameters, and calls keep their explicit
// template arguments.
// RUN: %gpuss-translate %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx -fsyntax-only -Wall -std=c++17 -I %gpuss-include %t.cpp
#include <cstddef>
namespace lin {
#pragma css task input(n, alpha, x[n]) inout(y[n])
template <typename T>
void axpy(std::size_t n, T alpha, const T *x, T *y);

#pragma css task inout(a[N][N])
template <typename T, int N>
void transpose(T (*a)[N]);
} // namespace lin

void run(float *x, float *y, double (*a)[4]) {
  lin::axpy(8, 2.0f, x, y);
  lin::axpy<float>(8, 2.0f, x, y);
  lin::transpose<double, 4>(a);
}

// CHECK: /* gpuss: task axpy: {{.*}} */
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: struct __css_args_axpy {
// CHECK-NEXT:   ::std::size_t n;
// CHECK-NEXT:   T alpha;
// CHECK-NEXT:   const T *x;
// CHECK-NEXT:   T *y;
// CHECK-NEXT:   static_assert(__is_trivially_copyable(T), "task axpy: a parameter of type 'T' must be trivially copyable to be copied into a task");
// CHECK-NEXT: };
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: static void __css_body_axpy(void *__css_argp, const css_task_env *__css_env) {
// CHECK-NEXT:   __css_args_axpy<T> *__css_a = (__css_args_axpy<T> *)__css_argp;
// CHECK-NEXT:   ::lin::axpy<T>(__css_a->n,
// CHECK: template <typename T>
// CHECK-NEXT: static void __css_submit_axpy(::std::size_t n, T alpha, const T *x, T *y, const char *__css_file, int __css_line) {
// CHECK:   __css_desc.body = ::__css_body_axpy<T>;
// CHECK:   static const char __css_label[] = "axpy";
// CHECK-NEXT:   __css_desc.label = __css_label;
// CHECK: template <typename T, int N>
// CHECK-NEXT: struct __css_args_transpose {
// CHECK-NEXT:   T (*a)[N];
// CHECK-NEXT: };
// CHECK:   ::lin::transpose<T, N>((T (*)[N])css_translate(__css_env, 0, __css_a->a));
// CHECK: void run(float *x, float *y, double (*a)[4]) {
// CHECK-NEXT:   ::__css_submit_axpy(8, 2.0f, x, y, "{{.*}}cxx-template.cpp", 19);
// CHECK-NEXT:   ::__css_submit_axpy<float>(8, 2.0f, x, y, "{{.*}}cxx-template.cpp", 20);
// CHECK-NEXT:   ::__css_submit_transpose<double, 4>(a, "{{.*}}cxx-template.cpp", 21);
