#include <assert.h>
#include <stdio.h>
#include "wrap_tasks.h"
int main(int argc, char **argv) {
  int v[4] = {1, 2, 3, 4};
  (void)argv;
  twice(v);
#pragma css barrier
  printf("file %s\n", __FILE__);
  fflush(stdout);
  int unused_here;
  assert(argc == 1 && v[0] == 2);
  return 0;
}
