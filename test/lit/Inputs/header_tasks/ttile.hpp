// A class template and a function template whose members call tasks.
#pragma once
#pragma css task inout([n] y) input(n, a, [n] x)
template <typename T> void axpy(int n, T a, const T *x, T *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

template <typename T> struct Vec {
  int n;
  T *data;
  void add_scaled(T a, const Vec &x) {
    for (int i = 0; i < n; i += 8)
      axpy<T>(8, a, x.data + i, data + i);
  }
  T sum() const {
#pragma css wait on(data[0; n])
    T s = 0;
    for (int i = 0; i < n; ++i)
      s += data[i];
    return s;
  }
};
