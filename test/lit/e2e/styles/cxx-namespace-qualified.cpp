// C++ tasks in a namespace, defined out of line with qualified names
// (`void geo::advance(...)`) and taking that namespace's small structs by
// value. One task is annotated on its declaration inside the namespace, the
// other only on its qualified definition. A particle system advanced in
// chunks, with a per-chunk centroid.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: centroid 0
// CHECK: checksum

#include <cstdio>
#include <vector>

namespace geo {

struct Vec3 {
  double x, y, z;
};

struct Particle {
  Vec3 pos;
  Vec3 vel;
};

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }

#pragma css task inout(p[n]) input(n, dt, gravity)
void advance(Particle *p, int n, double dt, Vec3 gravity);

void centroid(const Particle *p, int n, Vec3 *c);

} // namespace geo

void geo::advance(Particle *p, int n, double dt, Vec3 gravity) {
  for (int i = 0; i < n; ++i) {
    p[i].vel = p[i].vel + dt * gravity;
    p[i].pos = p[i].pos + dt * p[i].vel;
    if (p[i].pos.z < 0) {          // bounce on the floor
      p[i].pos.z = -p[i].pos.z;
      p[i].vel.z = -0.75 * p[i].vel.z;
    }
  }
}

#pragma css task input(p[n], n) output(c)
void geo::centroid(const Particle *p, int n, Vec3 *c) {
  Vec3 s{0, 0, 0};
  for (int i = 0; i < n; ++i)
    s = s + p[i].pos;
  *c = (1.0 / n) * s;
}

int main() {
  const int n = 960, chunk = 120, nchunks = n / chunk;
  std::vector<geo::Particle> parts(n);
  std::vector<geo::Vec3> centres(nchunks);
  for (int i = 0; i < n; ++i) {
    parts[i].pos = {double(i % 10), double(i % 7), 5.0 + (i % 13) / 4.0};
    parts[i].vel = {0.1 * (i % 3), -0.05 * (i % 5), 0.0};
  }
  const geo::Vec3 g{0.0, 0.0, -9.81};
  for (int step = 0; step < 40; ++step)
    for (int c = 0; c < nchunks; ++c)
      geo::advance(&parts[c * chunk], chunk, 0.01 + 0.001 * (step % 3), g);
  for (int c = 0; c < nchunks; ++c)
    geo::centroid(&parts[c * chunk], chunk, &centres[c]);
#pragma css barrier

  double checksum = 0;
  for (int c = 0; c < nchunks; ++c) {
    std::printf("centroid %d: %.6f %.6f %.6f\n", c, centres[c].x, centres[c].y, centres[c].z);
    checksum += (c + 1) * (centres[c].x + 2 * centres[c].y + 3 * centres[c].z);
  }
  for (int i = 0; i < n; ++i)
    checksum += parts[i].vel.z * (i % 4);
  std::printf("checksum %.6f\n", checksum);
  return 0;
}
