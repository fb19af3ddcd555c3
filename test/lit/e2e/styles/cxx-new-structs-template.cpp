// C++ arrays of small structs from `new T[]`, processed by function-template
// tasks (one directive, instantiated for two struct types), with a
// non-type template parameter giving the chunk length named in the clauses.
// A tiny spring-mass simulation and a histogram of bead states.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -std=c++17 -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cxx -std=c++17 %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: mass 0
// CHECK: checksum

#include <cstdio>

struct Mass {
  float x, v;
};

struct Bead {
  int state;
  float charge;
};

inline void update(Mass &m, float dt) {
  m.v -= dt * m.x;           // spring towards 0
  m.x += dt * m.v;
}

inline void update(Bead &b, float dt) {
  b.charge = b.charge * (1.0f - dt) + (b.state % 2 ? dt : -dt);
  b.state = (b.state * 5 + 1) % 7;
}

inline double energy_of(const Mass &m) { return 0.5 * (m.x * m.x + m.v * m.v); }
inline double energy_of(const Bead &b) { return b.state * b.charge; }

#pragma css task inout(items[LEN]) input(dt)
template <typename T, int LEN>
void step_chunk(T *items, float dt) {
  for (int i = 0; i < LEN; ++i)
    update(items[i], dt);
}

#pragma css task input(items[LEN]) output(out)
template <typename T, int LEN>
void energy_chunk(const T *items, double *out) {
  double e = 0;
  for (int i = 0; i < LEN; ++i)
    e += energy_of(items[i]);
  *out = e;
}

int main() {
  constexpr int CHUNK = 32, NCH = 6, N = CHUNK * NCH;
  Mass *masses = new Mass[N];
  Bead *beads = new Bead[N];
  double me[NCH], be[NCH];
  for (int i = 0; i < N; ++i) {
    masses[i] = Mass{(i % 9) / 4.0f - 1.0f, 0.0f};
    beads[i] = Bead{i % 7, 0.1f * (i % 4)};
  }
  for (int s = 0; s < 25; ++s)
    for (int c = 0; c < NCH; ++c) {
      step_chunk<Mass, CHUNK>(masses + c * CHUNK, 0.05f);
      if (s % 5 == 0)
        step_chunk<Bead, CHUNK>(&beads[c * CHUNK], 0.2f);
    }
  for (int c = 0; c < NCH; ++c) {
    energy_chunk<Mass, CHUNK>(masses + c * CHUNK, &me[c]);
    energy_chunk<Bead, CHUNK>(beads + c * CHUNK, &be[c]);
  }
#pragma css barrier
  double checksum = 0;
  for (int c = 0; c < NCH; ++c) {
    std::printf("mass %d %.6f bead %.6f\n", c, me[c], be[c]);
    checksum += (c + 1) * me[c] + be[c];
  }
  for (int i = 0; i < N; ++i)
    checksum += masses[i].x * (i % 3) + beads[i].state;
  std::printf("checksum %.6f\n", checksum);
  delete[] masses;
  delete[] beads;
  return 0;
}
