/* Hardware counters for the kernel commands: every configuration of a problem run once per
 * replay pass (user replay), its inputs restored and L2 flushed before each of its kernels,
 * as many configurations in one session as it holds; each range matched with the launch it
 * measured, and the metrics of each launch and of all of a result's launches derived. */
#ifndef GPUPROF_RUNNER_USER_REPLAY_H
#define GPUPROF_RUNNER_USER_REPLAY_H

#include "gpuprof/collector.h"
#include "gpuprof/kernels.h"
#include "gpuprof/report.h"

#include <stddef.h>

/* One configuration to profile: how to run its workload once, and the result its counters
 * go to. */
typedef struct {
    void *ctx;
    int (*restore)(void *ctx);                          /* inputs: copies and memsets only */
    int (*launch)(void *ctx, const gp_hooks *hooks);    /* every kernel of the workload */
    int (*flush)(void *ctx);                            /* flush L2: exactly one kernel */
    int (*check)(void *ctx);                            /* check the result of the latest run */
    gp_result *res;  /* its launches describe the ones the target makes (from a timed run) */
} gp_profile_target;

/* Ranges of the first session gp_collect makes for a problem of `own` configurations that
 * launch gpuprof's own kernels (one or more each) and `library` library calls: the size to
 * attach the collector with, before any kernel runs. */
size_t gp_collect_first_session(size_t own, size_t library);

/* Profile the targets. Calls each target's check right after its run in the last pass.
 * Fills each res->launches[i].metrics, res->metrics (derived from the launches' summed
 * counters), res->passes and the clocks; names the kernels of a library call. */
int gp_collect(gp_collector *c, const gp_profile_target *targets, size_t n);

#endif
