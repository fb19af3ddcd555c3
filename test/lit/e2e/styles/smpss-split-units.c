/* A program split over three translation units, as SMPSs users organised
 * larger codes: the annotated prototypes, the globals' extern declarations
 * and a small `static inline` task live in Inputs/band_tasks.h; the kernels
 * and the global `double grid[NR][NC]` are defined in Inputs/band_kernels.c
 * (plain C, no directives); Inputs/band_driver.c calls the tasks on those
 * globals and on its own file-static arrays, with `wait on` on a static
 * array before rewriting it; this unit calls them too, and calls the
 * header's inline task on its own locals. Linked together; %a output. */
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas -I %S/Inputs %s %S/Inputs/band_kernels.c %S/Inputs/band_driver.c -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc -I %S/Inputs %s %S/Inputs/band_kernels.c %S/Inputs/band_driver.c -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: total 0
// CHECK: total 3
// CHECK: row 31
// CHECK: local

#include <stdio.h>
#include "band_tasks.h"

int main(void)
{
	int r0, round, i;
	double local[NR], ones[NR];

	for (r0 = 0; r0 < NR; r0 += RB)
		band_fill(grid, r0, 17 + r0);

	for (i = 0; i < NR; i++) {
		local[i] = 0.0;
		ones[i] = (double)i / 8.0;
	}

	for (round = 0; round < 4; round++) {
		driver_round(round);
		/* this unit's copy of the inline task, on rows the driver's
		 * band_rowsum tasks wrote */
		vadd(NR, rowsum, local);
		vadd(NR, ones, local);
		printf("total %d %a\n", round, driver_total());
	}

#pragma css barrier
	for (i = 0; i < NR; i += 7)
		printf("row %d %a %a\n", i, grid[i][0], grid[i][NC - 1]);
	printf("row 31 %a\n", rowsum[31]);
	{
		double t = 0.0;
		for (i = 0; i < NR; i++)
			t += local[i];
		printf("local %a\n", t);
	}
	return 0;
}
