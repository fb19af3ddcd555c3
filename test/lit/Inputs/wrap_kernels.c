#include "wrap_tasks.h"
void twice(int *v) {
  for (int i = 0; i < 4; i++)
    v[i] *= 2;
}
