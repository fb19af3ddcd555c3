/* The same old C, in a file with directives. */
#pragma css task inout(v[4])
void twice(int *v);
void twice(int *v) {
  for (int i = 0; i < 4; i++) v[i] *= 2;
}
static scale = 1;
first(v) int *v; { return v[0] * scale; }
int main(void) {
  int v[4] = {1, 2, 3, 4};
  twice(v);
#pragma css barrier
  printf("%d\n", first(v));
  return 0;
}
