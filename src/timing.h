/* Timing one configuration with CUDA events around every kernel launch. */
#ifndef GPUPROF_TIMING_H
#define GPUPROF_TIMING_H

#include "gpuprof/kernels.h"
#include "gpuprof/report.h"

/* How to run the workload once: restore its inputs and flush L2, then launch it. */
typedef struct {
    void *ctx;
    int (*prepare)(void *ctx);
    int (*launch)(void *ctx, const gp_hooks *hooks);
} gp_timed_target;

/* Run the target `repeats` times; fill res->timing (of the whole run) and one launch record
 * per kernel launch with its own median. */
int gp_time_target(const gp_timed_target *t, unsigned repeats, gp_result *res);

#endif
