// C++ static member functions as tasks: a solver class groups its kernels
// as static members annotated inside the class, the way users wrap SMPSs
// kernels in a class. A tiled vector update and a tiled 1-D smoothing run
// through them; the object's own state stays on the master.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: energy
// CHECK: checksum

#include <cstdio>
#include <cstdlib>

class Smoother {
public:
  static constexpr int TILE = 64;

#pragma css task input(src[TILE + 2]) output(dst[TILE])
  static void smooth_tile(const double *src, double *dst);

#pragma css task input(a) inout(y[TILE]) input(x[TILE])
  static void axpy_tile(double a, const double *x, double *y);

#pragma css task input(x[TILE]) output(e)
  static void energy_tile(const double *x, double *e);

  explicit Smoother(int tiles) : tiles_(tiles), n_(tiles * TILE) {
    u_ = static_cast<double *>(std::calloc(n_ + 2, sizeof(double)));
    w_ = static_cast<double *>(std::calloc(n_ + 2, sizeof(double)));
    for (int i = 1; i <= n_; ++i)
      u_[i] = (i % 17) / 8.0 - 1.0;
  }
  ~Smoother() {
    std::free(u_);
    std::free(w_);
  }

  void step(double relax) {
    for (int t = 0; t < tiles_; ++t)
      smooth_tile(&u_[t * TILE], &w_[1 + t * TILE]);
    for (int t = 0; t < tiles_; ++t)
      axpy_tile(relax, &w_[1 + t * TILE], &u_[1 + t * TILE]);
  }

  double energy(double *parts) {
    for (int t = 0; t < tiles_; ++t)
      energy_tile(&u_[1 + t * TILE], &parts[t]);
#pragma css barrier
    double e = 0;
    for (int t = 0; t < tiles_; ++t)
      e += parts[t];
    return e;
  }

  double checksum() const {
    double s = 0;
    for (int i = 0; i < n_ + 2; ++i)
      s += u_[i] * (i % 6 + 1);
    return s;
  }

private:
  int tiles_, n_;
  double *u_, *w_;
};

void Smoother::smooth_tile(const double *src, double *dst) {
  for (int i = 0; i < TILE; ++i)
    dst[i] = 0.25 * src[i] + 0.5 * src[i + 1] + 0.25 * src[i + 2] - src[i + 1];
}

void Smoother::axpy_tile(double a, const double *x, double *y) {
  for (int i = 0; i < TILE; ++i)
    y[i] += a * x[i];
}

void Smoother::energy_tile(const double *x, double *e) {
  double s = 0;
  for (int i = 0; i < TILE; ++i)
    s += x[i] * x[i];
  *e = s;
}

int main() {
  Smoother s(6);
  double parts[6];
  for (int it = 0; it < 12; ++it) {
    s.step(0.8);
    if (it % 4 == 3)
      std::printf("energy after %d: %.9f\n", it + 1, s.energy(parts));
  }
  s.energy(parts);
  std::printf("checksum %.9f\n", s.checksum());
  return 0;
}
