/*
 * omp.h for OmpSs programs built with gpuss-cc (without -fopenmp).
 *
 * OmpSs programs include <omp.h> for a clock and a few queries, as they did
 * under Nanos++. gpuss-cc puts this header ahead of the compiler's when
 * the program is not compiled with -fopenmp (then the compiler's omp.h and
 * libgomp are used, and every omp pragma is OpenMP's). libgpuss implements
 * what it declares, in GPUSs's terms: there is no thread team; the threads
 * are the program's own and the runtime's, which run task bodies.
 * docs/language.md, "OmpSs' #pragma omp", lists them.
 */
#ifndef GPUSS_OMP_H
#define GPUSS_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds since some fixed moment, and the clock's resolution. */
double omp_get_wtime(void);
double omp_get_wtick(void);

/* The threads that may run task bodies: the program's thread, the host
 * workers (CSS_NUM_CPUS) and one per device (starts the runtime). */
int omp_get_max_threads(void);
/* In a task body, the same; elsewhere 1: the program's thread runs a
 * parallel region's code alone (GPUSs has no team). */
int omp_get_num_threads(void);
/* This thread's number, from 0 (the program's thread) to
 * omp_get_max_threads() - 1 for the runtime's threads. */
int omp_get_thread_num(void);
int omp_get_num_procs(void);
/* Whether the calling code runs inside a task body. */
int omp_in_parallel(void);
/* Whether it runs inside a final task (final(e) with e true), where the
 * tasks it calls run inline. */
int omp_in_final(void);
/* Ignored, with a warning: CSS_NUM_CPUS sets the host workers. */
void omp_set_num_threads(int threads);
/* Accepted and ignored (GPUSs has no teams to adjust or nest); the getters
 * say 0, and omp_get_level says 0 outside task bodies, 1 inside. */
void omp_set_dynamic(int dynamic);
int omp_get_dynamic(void);
void omp_set_nested(int nested);
int omp_get_nested(void);
int omp_get_level(void);

/* Locks; a nestable lock may be set again by the thread that holds it. */
typedef struct {
  void *gpuss_impl;
} omp_lock_t;
typedef struct {
  void *gpuss_impl;
} omp_nest_lock_t;
void omp_init_lock(omp_lock_t *lock);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
int omp_test_nest_lock(omp_nest_lock_t *lock);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GPUSS_OMP_H */
