/* Old C that gcc accepts and Clang 19 rejects: implicit int, K&R
   definitions, implicit function declarations. No directives. */
static scale = 3;
twice_it(x) int x; { return x * scale / 3 * 2; }
int main(void) {
  printf("%d\n", twice_it(21));
  return 0;
}
