/* Order statistics of timing samples, shared by the timer and compare. */
#ifndef GPUPROF_STATS_H
#define GPUPROF_STATS_H

#include <stddef.h>

/* The median of v[0..n) (n ≥ 1); sorts v. */
double gp_median(double *v, size_t n);

/* 1.4826 × the median absolute deviation over the median, in %, of v[0..n) (unchanged);
 * scratch holds n values. 0 when the median is not positive. */
double gp_relative_spread(const double *v, size_t n, double *scratch);

#endif
