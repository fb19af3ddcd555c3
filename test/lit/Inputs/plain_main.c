#include <assert.h>
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  printf("file %s\n", __FILE__);
  fflush(stdout);
  int unused_here;
  assert(argc == 1);
  return 0;
}
