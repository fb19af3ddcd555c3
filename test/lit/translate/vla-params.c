// C99 variable-length array parameters: the whole array as the parameter's
// type gives it, sized by the other parameters' values at the call. The
// argument struct keeps the address untyped (its type names the other
// parameters); the call gets it back with its type.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -I %gpuss-include %t.c
typedef int ELM;

#pragma css task input(n) inout(data)
void sort(long n, ELM data[n]);

#pragma css task input(n) inout(a)
void fft(long n, double _Complex a[n][n]);

#pragma css task input(n, src) output(dst)
void copy(long n, const float src[n][n], float dst[n][n]);

void run(long n, ELM *d, double _Complex (*a)[n], float (*s)[n], float (*t)[n]) {
  sort(n, d);
  fft(n, a);
  copy(n, s, t);
}

// CHECK-LABEL: struct __css_args_sort {
// CHECK-NEXT:   long n;
// CHECK-NEXT:   ELM *data;
// CHECK: __css_acc[0].region = css_contiguous(data, css_mul((size_t)(n), sizeof(*data)));
// CHECK-LABEL: struct __css_args_fft {
// CHECK-NEXT:   long n;
// CHECK-NEXT:   void *a;
// CHECK:      fft(__css_a->n,
// CHECK-NEXT:     css_translate(__css_env, 0, __css_a->a));
// CHECK: static void __css_submit_fft(long n, _Complex double (*a)[n], const char *__css_file, int __css_line) {
// CHECK: __css_acc[0].region = css_contiguous(a, css_mul((size_t)(n), sizeof(*a)));
// CHECK-LABEL: struct __css_args_copy {
// CHECK-NEXT:   long n;
// CHECK-NEXT:   const void *src;
// CHECK-NEXT:   void *dst;
// CHECK: __css_acc[0].region = css_contiguous(src, css_mul((size_t)(n), sizeof(*src)));
// CHECK: __css_acc[1].region = css_contiguous(dst, css_mul((size_t)(n), sizeof(*dst)));
