// RUN: not %gpuss-translate %s -o %t.c -- -isystem %inputs/sys 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
#include "sys_sync.h"
void run(void) { sys_sync(); }
// CHECK: sys_sync.h:3:13: error: '#pragma css barrier' in a system header cannot be translated: the translator rewrites the main file and the program's own headers; include this header with -I or "..." instead of -isystem
