/*
 * free_shim: a free() that comes before libgpuss's when preloaded
 * (LD_PRELOAD), as a sanitizer's runtime or a preloaded allocator would.
 * gpu.page-locks-shadowed runs the page-lock cases with it.
 */
#include <stddef.h>

extern void __libc_free(void *pointer);

void free(void *pointer) {
  __libc_free(pointer);
}
