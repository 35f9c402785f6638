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

/* --max-noise's limits: rounds of --repeat launches, samples kept, seconds per result. */
#define GP_MAX_NOISE_ROUNDS 50
#define GP_MAX_NOISE_SAMPLES 5000
#define GP_MAX_NOISE_SECONDS 10.0

typedef struct {
    unsigned repeats;            /* timed repeats, or repeats per round with a noise target */
    double max_noise_pct;        /* NAN: no target, time `repeats` once */
} gp_timing_goal;

/* Run the target as the goal says; fill res->timing (of the whole run: median, spread, noise,
 * the repeats made) and one launch record per kernel launch with its own median. */
int gp_time_target(const gp_timed_target *t, const gp_timing_goal *goal, gp_result *res);

#endif
