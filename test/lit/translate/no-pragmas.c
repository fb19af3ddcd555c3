// A source without directives comes out unchanged.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: diff %s %t.c
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
