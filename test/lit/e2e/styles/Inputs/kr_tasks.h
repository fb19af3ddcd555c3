/* kr_tasks.h: the library's interface as an old C header writes it, with
 * old-style declarations (no parameter lists); the task directives are on
 * the definitions, in the program's own file. */
#ifndef KR_TASKS_H
#define KR_TASKS_H

extern void vfill();
extern void vaxpy();
extern void vdot();
extern void vclip();

#endif
