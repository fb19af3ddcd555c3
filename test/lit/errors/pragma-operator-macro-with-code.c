// RUN: not %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
int puts(const char *);
#define SYNC_AND_SAY _Pragma("css barrier") puts("synchronised");
void run(void) {
  SYNC_AND_SAY
}
// CHECK: pragma-operator-macro-with-code.c:6:3: error: '#pragma css barrier' made by macro 'SYNC_AND_SAY' together with other code cannot be rewritten: make the macro expand to the _Pragma alone, or write '#pragma css barrier' on a line of its own
