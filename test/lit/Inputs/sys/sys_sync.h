/* A system header (-isystem) with a directive in a function body. */
static inline void sys_sync(void) {
#pragma css barrier
}
