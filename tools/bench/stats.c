// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The benchmark's statistics: the median that the cost measurements
 * (cost.c) and the report's figures (report.c) both take.  Below both, so
 * neither calls the other for it.
 */
#include <stdlib.h>

#include "tools/bench/bench.h"

int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
