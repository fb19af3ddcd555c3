#include <stdio.h>
#include "wrap_tasks.h"
int main(void) {
  int v[4] = {1, 2, 3, 4};
  twice(v);
#pragma css barrier
  printf("%d %d %d %d\n", v[0], v[1], v[2], v[3]);
  return 0;
}
