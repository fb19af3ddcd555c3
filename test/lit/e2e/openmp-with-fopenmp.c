// Under -fopenmp a program is OpenMP's: the wrappers link libgomp ahead of
// libgpuss, whose omp_* routines (for OmpSs programs) would otherwise take
// the place of libgomp's in GCC's parallel loops (the loop split wrongly,
// SIGSEGV with 3 threads or more, before).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuss-cc -fopenmp %s -o %t/omp
// RUN: OMP_NUM_THREADS=4 timeout 60 %t/omp | FileCheck %s
// RUN: OMP_NUM_THREADS=3 timeout 60 %t/omp | FileCheck %s
// CHECK: sum 499500 hits 1000 threads-ok 1
#include <omp.h>
#include <stdio.h>
static int hits[1000];
int main(void)
{
	long s = 0;
	int threads = 0;
#pragma omp parallel for reduction(+:s)
	for (int i = 0; i < 1000; i++) {
		s += i;
		hits[i]++;
	}
#pragma omp parallel
#pragma omp single
	threads = omp_get_num_threads();
	int h = 0;
	for (int i = 0; i < 1000; i++)
		h += hits[i];
	printf("sum %ld hits %d threads-ok %d\n", s, h, threads == omp_get_max_threads());
	return 0;
}
