/*
 * gpuss.h: the public C interface of the GPUSs runtime (libgpuss).
 *
 * This is the whole boundary between translated programs and the runtime.
 * gpuss-translate emits calls to these functions; a user may also call them by
 * hand. It is plain C and works from C, C++ and CUDA translation units.
 *
 * Threads (docs/language.md, "Threads"): the runtime belongs to the master,
 * the thread that makes the first call; submit and synchronise there. The
 * runtime serialises css_start, css_submit, css_barrier, css_wait_on,
 * css_unpin and css_finish with one lock, so calls from other threads are
 * safe but ordered as they happen to take it, and a barrier or wait on holds
 * it until its tasks are done: another thread's submit waits that long. Task
 * bodies run on worker threads and may call css_translate, css_cuda_stream,
 * css_cublas_handle and css_version; a css_submit in a body creates a child
 * of the running task, and css_barrier or css_wait_on there waits for the
 * body's children, without the lock (nested tasks, docs/language.md);
 * css_finish and css_unpin in a body are an error. css_version may be called
 * from any thread. After css_finish, the next call starts the runtime again.
 *
 * The ABI is versioned: css_task_desc carries GPUSS_ABI_VERSION and the
 * runtime refuses descriptors from an incompatible translator.
 */
#ifndef GPUSS_H
#define GPUSS_H

#include <stddef.h>
#include <stdint.h>

/* GPUSS_VERSION_MAJOR, _MINOR, _PATCH and the string GPUSS_VERSION
 * ("major.minor.patch") of the headers; css_version() is the library's. */
#include "gpuss_version.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPUSS_ABI_VERSION 2

/* Put before the submit helpers gpuss-translate writes, one per task
 * function: they are never inlined, so that the task's descriptor, accesses
 * and packed arguments live in the helper's frame for the duration of the
 * call, not in every frame of a recursion that calls tasks (a recursion may
 * then go as deep as the sequential program). */
#if defined(__GNUC__) || defined(__clang__)
#define GPUSS_SUBMIT_HELPER __attribute__((noinline))
#else
#define GPUSS_SUBMIT_HELPER
#endif

/* The header's own helpers are `static inline` in C99 and C++; in C89
 * (`-std=c89`, `-ansi`, as old StarSs codes are often built) GCC and Clang
 * spell it __inline__, and any other compiler gets plain static functions. */
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define GPUSS_INLINE inline
#elif defined(__GNUC__) || defined(__clang__)
#define GPUSS_INLINE __inline__
#else
#define GPUSS_INLINE
#endif

/* The version of the library the program runs with, "major.minor.patch": the
 * GPUSS_VERSION it was built with. Any thread may call it, at any time. */
const char *css_version(void);

/* ---------------------------------------------------------------- regions */

/*
 * A region of user memory: `rows` runs of `row_bytes` consecutive bytes, the
 * first at `base`, each next one `stride` bytes after the previous. A plain
 * contiguous object is one row (rows == 1; stride is then ignored). Sections
 * of a pointer to arrays, such as `double (*a)[N]` with `a[i0;ni][j0;nj]`,
 * are several rows.
 */
typedef struct css_region {
  void *base;
  size_t row_bytes;
  size_t rows;
  size_t stride;
} css_region;

/* The region of `bytes` consecutive bytes at `base`. */
static GPUSS_INLINE css_region css_contiguous(const void *base, size_t bytes) {
  css_region region;
  region.base = (void *)base;
  region.row_bytes = bytes;
  region.rows = 1;
  region.stride = bytes;
  return region;
}

/* The size gpuss-translate gives a region whose bytes do not fit: a size of
 * 2^63 bytes or more (on 64-bit targets), which no region has, and which the
 * runtime reports as an error at the task's call ("region size overflows"). */
#define CSS_SIZE_OVERFLOW ((size_t)-1 / 2 + 1)

/* a * b for the sizes of a region, as gpuss-translate multiplies an item's
 * counts and its element size: CSS_SIZE_OVERFLOW where the product is past
 * what a size can be, and then for every product with it but by 0 (a
 * count of 0 names no byte). Plain size_t arithmetic would wrap: v[n] of
 * doubles with n = 2^61 + 1 came out as 8 bytes, and a device got 8 bytes of
 * what the body reads. Each factor counts as signed, so that a negative
 * count converted to size_t (`v[n - m]` with m > n) stays a negative size,
 * which the runtime reports as one. One branch, no division, with GCC and
 * Clang (nvcc's host compiler too). */
static GPUSS_INLINE size_t css_mul(size_t a, size_t b) {
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5)
  ptrdiff_t product;
  if (__builtin_mul_overflow((ptrdiff_t)a, (ptrdiff_t)b, &product)) return CSS_SIZE_OVERFLOW;
  return (size_t)product;
#else
  /* The same with a division: magnitudes, and the sign apart. */
  const size_t most = CSS_SIZE_OVERFLOW - 1; /* PTRDIFF_MAX */
  int negative = 0;
  size_t product;
  if (a > most) {
    a = 0 - a;
    negative = !negative;
  }
  if (b > most) {
    b = 0 - b;
    negative = !negative;
  }
  if (a != 0 && b > (negative ? most + 1 : most) / a) return CSS_SIZE_OVERFLOW;
  product = a * b;
  return negative ? 0 - product : product;
#endif
}

/* ---------------------------------------------------------------- accesses */

typedef enum css_direction {
  CSS_IN = 1,   /* input(...):  read only */
  CSS_OUT = 2,  /* output(...): written before it is read; may be renamed */
  CSS_INOUT = 3 /* inout(...):  read and written */
} css_direction;

/*
 * Data movement for tasks that run on an accelerator. Without
 * `target copy_in/copy_out` clauses the translator sets CSS_COPY_DEFAULT and
 * the runtime moves what the direction implies. With copy clauses it sets
 * CSS_COPY_EXPLICIT plus the bits the clauses name.
 */
enum css_copy_flags {
  CSS_COPY_DEFAULT = 0,
  CSS_COPY_EXPLICIT = 1u << 0, /* the two bits below are authoritative */
  CSS_COPY_IN = 1u << 1,       /* bring the data to the device before the task */
  CSS_COPY_OUT = 1u << 2       /* the task's result must reach host memory */
};

/*
 * `group`: accesses of one task with the same nonzero group are regions the
 * body reaches through one pointer (the regions of one parameter, such as a
 * block and its halo strips). The runtime keeps them in one storage laid out
 * as user memory is, so that pointer arithmetic from one region reaches the
 * others wherever the task runs. Accesses whose regions share bytes are kept
 * together too, whatever their groups; 0 means the access needs nothing else.
 */
typedef struct css_access {
  css_region region;
  uint32_t direction; /* css_direction */
  uint32_t copy;      /* css_copy_flags */
  uint32_t group;     /* 0, or the same for the regions of one pointer */
} css_access;

/* ---------------------------------------------------------------- tasks */

enum css_device_kind {
  CSS_DEVICE_SMP = 0, /* runs on a host worker (or a simulated device) */
  CSS_DEVICE_CUDA = 1 /* runs on a GPU worker */
};

enum css_task_flags {
  CSS_TASK_HIGH_PRIORITY = 1u << 0, /* `highpriority`: scheduled before others */
  CSS_TASK_FINAL = 1u << 1          /* OmpSs/OpenMP `final(e)`, e true: its children, and
                                       theirs, run inline in its body (a recursion's cut-off) */
};

/*
 * What a task body receives besides its packed arguments. `addresses[i]` is
 * where the first byte of access i lives for this execution: user memory, a
 * renamed buffer, or device memory. Translated bodies rebase each pointer
 * argument with css_translate().
 *
 * `device_index` numbers the runtime's devices: the GPU ordinal, or the
 * simulated device's index. With CSS_GPU_PARTITIONS=N each GPU is N devices,
 * GPU g's being g*N .. g*N+N-1, each with its own worker thread; a body that
 * wants the ordinal asks cudaGetDevice() (the worker has made its GPU current).
 */
typedef struct css_task_env {
  void *const *addresses;
  const css_access *accesses; /* as submitted, in user addresses */
  uint32_t num_accesses;
  int32_t device_kind;  /* css_device_kind of the executing worker */
  int32_t device_index; /* the executing device from 0 (see above); -1 on the host */
  void *cuda_stream;    /* cudaStream_t of the GPU worker; NULL elsewhere */
  void *cublas_handle;  /* cublasHandle_t bound to cuda_stream; NULL elsewhere */
} css_task_env;

/* Where `host_pointer`, which lies in (or is based on) access `index`, lives
 * for this execution. */
static GPUSS_INLINE void *css_translate(const css_task_env *env, uint32_t index, const void *host_pointer) {
  const char *submitted = (const char *)env->accesses[index].region.base;
  return (char *)env->addresses[index] + ((const char *)host_pointer - submitted);
}

typedef void (*css_task_body)(void *args, const css_task_env *env);

typedef struct css_task_desc {
  uint32_t abi_version; /* GPUSS_ABI_VERSION */
  uint32_t device_kind; /* css_device_kind */
  uint32_t flags;       /* css_task_flags */
  uint32_t num_accesses;
  const css_access *accesses; /* copied by css_submit */
  css_task_body body;
  const void *args; /* packed arguments, copied by css_submit */
  size_t args_size;
  const char *label; /* the task function's name; must outlive the program */
  const char *file;  /* the call site; must outlive the program */
  int line;
} css_task_desc;

/*
 * Submit a task. Scalars must already be packed into `args` by value. The
 * runtime copies the descriptor, accesses and arguments, so all may live on
 * the caller's stack. Misuse (null region with bytes, a region that wraps
 * around the address space, a submit after css_finish, a CUDA task without a
 * GPU) prints `gpuss: error:` with the task's label and file:line and ends the
 * program with exit status 1.
 */
void css_submit(const css_task_desc *desc);

/* ---------------------------------------------------------------- synchronisation */

/* Start the runtime. Optional: the first submit starts it too. */
void css_start(void);

/* Wait for every task; all results are then in user memory. The runtime
 * also finishes by itself at exit. A submit after css_finish is an error. */
void css_finish(void);

/* Wait for every task submitted so far; all results are in user memory. */
void css_barrier(void);

/* Return once the tasks called before that use each region (its last writer
 * and the readers after it) have finished and the region's value is in user
 * memory: the program may then read and write it. Other tasks keep
 * running. */
void css_wait_on(const css_region *regions, size_t count);

/* css_wait_on for a directive at file:line (`#pragma css wait on`, an
 * OmpSs `taskwait on`): a region it cannot wait for (a null address with
 * bytes, a negative size) is reported there. gpuss-translate calls it; file
 * must outlive the program (a string literal). */
void css_wait_on_at(const char *file, int line, const css_region *regions, size_t count);

/* Return once the tasks called before that write each region have finished
 * and its value is in user memory, so that the program may read it; tasks
 * that only read it keep running (where one wrote it since the last
 * barrier, those too, as css_wait_on). gpuss-translate calls it before it
 * copies a `const T &` argument named in a clause into a task: the copy
 * then holds the value the sequential program reads at the call. Inside a
 * task body it waits for the body's children where one of them wrote the
 * regions. */
void css_wait_written(const css_region *regions, size_t count);

/* The program is done with these regions, as if it freed them: a local
 * variable whose function returns, say. Returns once every task that uses
 * them (readers too) has finished and their values are in user memory, and
 * the runtime forgets them, so that other data placed there later starts
 * afresh. Other tasks keep running. gpuss-translate calls it where a local
 * that tasks use stops living. Inside a task body it waits for the body's
 * children; after css_finish it does nothing. */
void css_release(const css_region *regions, size_t count);

/* Undo the page-locking GPUSs gave [address, address + bytes). Memory that
 * tasks copied to or from a GPU stays page-locked, for speed, until the
 * program frees it (libgpuss sees free, realloc and munmap, waits for the
 * tasks that still use the memory, and undoes the lock first: CUDA keeps the
 * registration of freed memory, and a later allocation at the same addresses
 * would be copied from the old pages) or css_finish. Call this before releasing such memory in a way libgpuss
 * cannot see: a raw munmap system call, mremap, madvise (or use
 * CSS_PIN_HOST=barrier). It waits for every task first, as css_barrier
 * does. Without GPUs, or with CSS_PIN_HOST=0, it only waits. */
void css_unpin(const void *address, size_t bytes);

/* Page-lock [address, address + bytes) now, for copies to and from GPUs.
 * The runtime locks task memory by itself at its first GPU copy, or, on a
 * node that locks slowly, copies it through staging buffers for its first
 * copies instead (CSS_STAGING_THREADS, docs/environment.md); a program that
 * knows the memory will cross to GPUs many times, or that times a run with
 * its memory locked before the clock, locks it here. Does not wait for
 * tasks. The lock is undone like the runtime's own: when the program frees
 * the memory, at css_unpin or at css_finish. Without GPUs, or with
 * CSS_PIN_HOST=0, it does nothing. Starts the runtime if it has not
 * started. */
void css_pin(const void *address, size_t bytes);

/* ---------------------------------------------------------------- critical sections */

/* OpenMP's critical and atomic constructs in OmpSs programs, which the
 * translator writes as
 *   for (css_critical_enter(n); css_critical_held(n); css_critical_leave(n)) stmt
 * One process-wide lock per name ("" for every unnamed critical, "<atomic>"
 * for atomic constructs). Any thread, in or out of task bodies; they do not
 * start the runtime. Entering a lock the calling thread holds is an error
 * (it would never end). */
void css_critical_enter(const char *name);
int css_critical_held(const char *name); /* whether the calling thread holds it */
void css_critical_leave(const char *name);

/* ---------------------------------------------------------------- CUDA task bodies */

/* The executing GPU worker's stream and cuBLAS handle (NULL off a GPU worker).
 * The void* forms are always declared; the typed forms when CUDA's headers are
 * in reach (nvcc, or GPUSS_WITH_CUDA_TYPES defined before including gpuss.h). */
void *css_cuda_stream_ptr(void);
void *css_cublas_handle_ptr(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#if defined(__CUDACC__) || defined(GPUSS_WITH_CUDA_TYPES)
#include <cublas_v2.h>
#include <cuda_runtime.h>
static inline cudaStream_t css_cuda_stream(void) {
  return (cudaStream_t)css_cuda_stream_ptr();
}
static inline cublasHandle_t css_cublas_handle(void) {
  return (cublasHandle_t)css_cublas_handle_ptr();
}
#endif

#endif /* GPUSS_H */
