/*
 * gpuss_mpi.h: GPUSs over MPI (docs/mpi.md).
 *
 * Every rank runs the same sequential program and makes the same task calls.
 * The program says once how its data is distributed (an owner rank for each
 * datum); the runtime runs each task on the rank that owns the data it
 * writes, runs nothing on the other ranks, and moves data between ranks by
 * itself: an input owned elsewhere is received before the task, and stays
 * cached until it is written again or the next barrier.
 *
 *   for (int j = 0; j < NT; j++)              declare once, on every rank
 *     for (int i = j; i < NT; i++)
 *       css_mpi_owner(A[j*NT + i], TS*TS*sizeof(double), css_mpi_block_cyclic_owner(i, j, 0, 0));
 *   cholesky(A);                              the sequential code, unchanged
 *   #pragma css barrier                       every datum is back on its owner
 *
 * The first css_mpi_ call starts distributed mode: it initialises MPI when
 * the program runs under mpirun (or srun) and has not done so itself, and
 * MPI_Finalize runs at exit. Until then, and in a program that makes no
 * css_mpi_ call, GPUSs works as without MPI. Built without MPI (or outside
 * mpirun), these functions work with one rank, so a distributed program runs
 * unchanged on one process.
 *
 * Threads: the program's thread (the master), as css_submit; none may be
 * called inside a task body. Misuse prints `gpuss: error:` with the call's
 * file:line and ends the program with exit status 1.
 */
#ifndef GPUSS_MPI_H
#define GPUSS_MPI_H

#include "gpuss.h"

#ifdef __cplusplus
extern "C" {
#endif

/* css_mpi_gather's root: every rank. */
#define CSS_MPI_ALL (-1)

/* Starts distributed mode (optional: any css_mpi_ call does); returns the
 * number of ranks. */
int css_mpi_init(void);
/* This process's rank, from 0, and the number of ranks. */
int css_mpi_rank(void);
int css_mpi_size(void);

/* From now on rank `rank` owns [address, address + bytes), and that rank's
 * memory holds its value: tasks that write it run there. Every rank must
 * make the same declarations in the same order (at the same point in its task
 * calls). A declaration replaces any earlier one it overlaps. To move data
 * whose value tasks computed to another owner, bring the value there first
 * (css_mpi_gather); declaring it without is an error, as the value would be
 * lost. */
void css_mpi_owner_at(const void *address, size_t bytes, int rank, const char *file, int line);
#define css_mpi_owner(address, bytes, rank) css_mpi_owner_at((address), (bytes), (rank), __FILE__, __LINE__)

/* The same for a strided region (css_region): rows of a larger array. */
void css_mpi_owner_region_at(const css_region *region, int rank, const char *file, int line);
#define css_mpi_owner_region(region, rank) css_mpi_owner_region_at((region), (rank), __FILE__, __LINE__)

/* 2-D block-cyclic distribution of tiles over a p x q grid of ranks: tile
 * (i, j) belongs to rank (i % p) * q + (j % q). p = q = 0 picks the grid for
 * the number of ranks (p * q = size, p <= q, as square as possible);
 * otherwise p * q must not exceed it. */
int css_mpi_block_cyclic_owner(int i, int j, int p, int q);
/* Declares every non-null tile of an m x n array of tile pointers stored by
 * columns, tiles[j * ld + i] being tile (i, j), each `tile_bytes` long, with
 * the owners above. */
void css_mpi_block_cyclic_at(void *const *tiles, int m, int n, int ld, size_t tile_bytes, int p, int q,
                             const char *file, int line);
#define css_mpi_block_cyclic(tiles, m, n, ld, tile_bytes, p, q)                                              \
  css_mpi_block_cyclic_at((tiles), (m), (n), (ld), (tile_bytes), (p), (q), __FILE__, __LINE__)

/* The program is done with the distributed data in [address, address +
 * bytes): their declarations go. Call it before freeing distributed memory
 * whose addresses later data may reuse. Waits for nothing. */
void css_mpi_forget_at(const void *address, size_t bytes, const char *file, int line);
#define css_mpi_forget(address, bytes) css_mpi_forget_at((address), (bytes), __FILE__, __LINE__)

/* The next task call runs on `rank`, whoever owns what it writes. Its
 * written data's current value then lives there, and goes back to its owner
 * at the next barrier. */
void css_mpi_task_rank_at(int rank, const char *file, int line);
#define css_mpi_task_rank(rank) css_mpi_task_rank_at((rank), __FILE__, __LINE__)

/* Brings the current value of the distributed data in [address, address +
 * bytes) to `root` (CSS_MPI_ALL: to every rank), waiting for the tasks that
 * write it. Every rank calls it; on return, root's memory holds the values.
 * For checks and output: after a barrier each rank's memory holds the
 * current value of the data it owns, and only that. */
void css_mpi_gather_at(const void *address, size_t bytes, int root, const char *file, int line);
#define css_mpi_gather(address, bytes, root) css_mpi_gather_at((address), (bytes), (root), __FILE__, __LINE__)

/* What this rank's layer has done so far. */
typedef struct css_mpi_counters {
  uint64_t tasks_run;     /* task calls that ran on this rank */
  uint64_t tasks_skipped; /* task calls that ran on other ranks */
  uint64_t sends;         /* messages sent, and their bytes */
  uint64_t bytes_sent;
  uint64_t receives; /* messages received, and their bytes */
  uint64_t bytes_received;
} css_mpi_counters;
void css_mpi_get_counters(css_mpi_counters *counters);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GPUSS_MPI_H */
