/* A kernel family's host side: buffers, seeded inputs, CPU reference, restore, check. The
 * runner drives every family through these operations, named in the family's registry row;
 * a workload reads its family's parameters from the problem (problem parameters) and the
 * configuration (configuration parameters) by their index (GP_SAXPY_GRID, …). The helpers
 * the workloads share are defined in workload.c and random.c. */
#ifndef GPUPROF_WORKLOAD_H
#define GPUPROF_WORKLOAD_H

#include "gpuprof/plan.h"
#include "gpuprof/registry.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct gp_workload_ops {
    /* Usage errors of one configuration that only the family's launch arithmetic reveals
     * (a grid too large for the size): decided while expanding, before any device. */
    int (*check)(const gp_problem *p, const gp_config *c);
    /* The fewest bytes the algorithm must move through device memory. */
    uint64_t (*bytes_moved)(const gp_problem *p);
    /* Device bytes the problem needs at most (the memory check before allocating). */
    uint64_t (*device_bytes)(const gp_problem *p, const gp_device_info *dev);
    /* Allocate, fill with seeded random data, compute the CPU reference. The contract:
     * create() sets *state before its first failure (it is left NULL only when allocating
     * the state itself fails), and destroy() frees whatever was made, NULL included: the
     * runner calls destroy() after create() whether create() succeeded or not. */
    int (*create)(const gp_problem *p, const gp_device_info *dev, void **state);
    /* Before every launch, outside any timed region: restore inputs, poison outputs, with
     * copies and memsets only (in a profiling session a kernel here would be a range). */
    int (*prepare)(void *state, const gp_config *c);
    int (*launch)(void *state, const gp_config *c, const gp_hooks *hooks);
    /* Compare the result of the latest launch (described by res->launches) with the CPU. */
    int (*verify)(void *state, const gp_config *c, const gp_result *res, gp_check *check);
    void (*destroy)(void *state);
} gp_workload_ops;

/* Seeded inputs (splitmix64, include/gpuprof/seeded.h): int32 in [0, 255] as in the book,
 * float32 in [0, 1). The device holds them (gp_fill_*_device); the host fills a copy where a
 * check compares element by element, and sums the first n values of a stream without storing
 * them: exactly for int32, in double for float32 (with the sum of magnitudes). */
void gp_fill_float(float *dst, uint64_t n, uint64_t seed);
int64_t gp_seeded_int32_sum(uint64_t n, uint64_t seed);
void gp_seeded_float_sum(uint64_t n, uint64_t seed, double *sum, double *abs_sum);

/* The float32 sum check: within a tolerance of the double reference. */
void gp_check_float_sum(double got, double ref, double ref_abs, gp_check *check);

/* Device allocation helpers that record the failing call. */
int gp_device_alloc(void **ptr, uint64_t bytes, const char *what);
int gp_download(void *dst, const void *src, uint64_t bytes);

/* Blocks a one-dimensional grid needs for n items, `per_block` each, checked against the
 * hardware's limit: GP_ERR_USAGE naming `what` when it is too large. */
int gp_check_grid_x(uint64_t n, uint64_t per_block, const char *what);

#endif
