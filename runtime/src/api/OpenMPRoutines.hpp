// OpenMPRoutines: the OpenMP API routines of include/omp/omp.h, which OmpSs
// programs call (omp_get_wtime, omp_get_thread_num, omp locks, ...).
//
// Owns the numbering of the threads that call omp_get_thread_num and the
// count of threads that may run task bodies, which the process runtime
// sets when it starts (capi.cpp, on the program's thread). Any thread.
#pragma once

namespace gpuss::omp {

// The process runtime has started with `threads` threads that may run task
// bodies; the calling thread (the program's) is thread 0.
void runtime_started(unsigned threads);

} // namespace gpuss::omp
