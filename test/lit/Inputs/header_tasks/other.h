/* Includes scale.h again: skipped (#pragma once) by the compiler. */
#include "scale.h"
static inline int other_answer(void) { return 42; }
