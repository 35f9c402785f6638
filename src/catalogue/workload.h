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

/* The most buffers of each kind (device, host) a family's state holds: reduce's six on the
 * device are the most. */
#define GP_WORKLOAD_MAX_BUFFERS 8

/* What every family's state begins with: its problem, and each buffer made for it, so that
 * one destroy (gp_workload_destroy) frees whatever create() got as far as making. */
typedef struct {
    gp_problem p;
    void *device[GP_WORKLOAD_MAX_BUFFERS];
    size_t n_device;
    void *host[GP_WORKLOAD_MAX_BUFFERS];
    size_t n_host;
} gp_workload_state;

typedef struct gp_workload_ops {
    /* Usage errors of one configuration that only the family's launch arithmetic reveals
     * (a grid too large for the size): decided while expanding, before any device. */
    int (*check)(const gp_problem *p, const gp_config *c);
    /* The fewest bytes the algorithm must move through device memory. */
    uint64_t (*bytes_moved)(const gp_problem *p);
    /* Device bytes the problem needs at most (the memory check before allocating). */
    uint64_t (*device_bytes)(const gp_problem *p, const gp_device_info *dev);
    /* The family's state: a struct of state_bytes that begins with a gp_workload_state. */
    size_t state_bytes;
    /* Allocate (gp_state_device_alloc, gp_state_host_alloc), fill with seeded random data,
     * compute the CPU reference, in the state gp_workload_create made. The contract:
     * destroy() frees whatever was made, NULL included: the runner calls it after
     * gp_workload_create whether that succeeded or not. */
    int (*create)(void *state, const gp_device_info *dev);
    /* Before every launch, outside any timed region: restore inputs, poison outputs, with
     * copies and memsets only (in a profiling session a kernel here would be a range). */
    int (*prepare)(void *state, const gp_config *c);
    int (*launch)(void *state, const gp_config *c, const gp_hooks *hooks);
    /* Compare the result of the latest launch (described by res->launches) with the CPU. */
    int (*verify)(void *state, const gp_config *c, const gp_result *res, gp_check *check);
    /* gp_workload_destroy, or a family's own that ends with it. */
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

/* The problem's state, made here (the family's state_bytes zeroed, the problem copied) and
 * filled by the family's create(). *state is set before create() can fail: it is left NULL
 * only when allocating the state itself fails. */
int gp_workload_create(const gp_problem *p, const gp_device_info *dev, void **state);
/* gp_device_alloc, the buffer kept in the state for gp_workload_destroy to free. */
int gp_state_device_alloc(gp_workload_state *w, void **ptr, uint64_t bytes, const char *what);
/* malloc, the buffer kept in the state for gp_workload_destroy to free; NULL when out of host
 * memory (the caller's message says for what), or past GP_WORKLOAD_MAX_BUFFERS. */
void *gp_state_host_alloc(gp_workload_state *w, size_t bytes);
/* Every family's destroy(): the state's buffers, then the state itself; NULL does nothing. */
void gp_workload_destroy(void *state);

/* Blocks a one-dimensional grid needs for n items, `per_block` each, checked against the
 * hardware's limit: GP_ERR_USAGE naming `what` when it is too large. */
int gp_check_grid_x(uint64_t n, uint64_t per_block, const char *what);

#endif
