/* #pragma once, a call-site task and a barrier in an inline function. */
#pragma once
#include "tasks.h"
static inline void scale_all(long *v, int n, int chunk, long f) {
  for (int i = 0; i < n; i += chunk) {
#pragma css task inout(v[i;chunk]) input(chunk, f)
    scale(v + i, chunk, f);
  }
#pragma css barrier
}
