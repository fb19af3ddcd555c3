/* GNU C nested functions: gcc accepts them, Clang does not. */
#include <stdio.h>
#pragma css task inout(v[4])
void twice(int *v);
void twice(int *v) {
  for (int i = 0; i < 4; i++) v[i] *= 2;
}
int main(void) {
  int v[4] = {1, 2, 3, 4};
  int add(int a) { return a + v[0]; }
  twice(v);
#pragma css barrier
  printf("%d\n", add(1));
  return 0;
}
