// Corners of OpenMP's data-sharing rules on task statements, with the
// results OpenMP gives (gcc -fopenmp), which differ from the sequential
// program where a task has copies of its own:
// - firstprivate(G) of a global: the task writes its copy (it wrote the
//   global itself);
// - a static local: shared, reached in place (the generated code named it
//   where it is not visible, and did not compile);
// - a statement calling a function that returns a value, printf: a task
//   block (it was refused as a task function that returns a value).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuss-cc -Wall -Werror %s -o %t/par
// RUN: %t/par | FileCheck %s
// RUN: CSS_NUM_CPUS=4 %t/par | FileCheck %s
// RUN: CSS_SIM_DEVICES=2 CSS_CACHE_POLICY=wb CSS_GPU_MEMORY=64K %t/par | FileCheck %s
// CHECK-DAG: hello from a task
// CHECK-DAG: r 100 G 1
// CHECK-DAG: static 4 sum 6

#include <stdio.h>

int G = 1;

int main(void)
{
	int r = 0, sum = 0, i;
	static int st = 4;

#pragma omp task firstprivate(G) shared(r)
	{
		G = 100;
		r += G;
	}
#pragma omp task
	printf("hello from a task\n");
	for (i = 0; i < 4; i++)
#pragma omp task shared(sum) firstprivate(i)
#pragma omp atomic
		sum += i + (st - 4);
#pragma omp taskwait
	printf("r %d G %d\n", r, G);
	printf("static %d sum %d\n", st, sum);
	return 0;
}
