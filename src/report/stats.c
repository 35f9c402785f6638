/* The noise statistic: the spread of the repeats measured the way their median is, so that
 * one repeat delayed by something else on the GPU does not make a steady kernel look noisy.
 * The factor 1.4826 makes it the standard deviation for normally distributed times, so it
 * reads like nvbench's noise (a relative standard deviation). */
#include "gpuprof/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gp_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double gp_relative_spread(const double *v, size_t n, double *scratch)
{
    memcpy(scratch, v, n * sizeof *v);
    const double m = gp_median(scratch, n);
    for (size_t i = 0; i < n; i++)
        scratch[i] = fabs(v[i] - m);
    return m > 0 ? 100.0 * 1.4826 * gp_median(scratch, n) / m : 0.0;
}
