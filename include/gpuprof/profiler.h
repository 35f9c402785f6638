/* Hardware counters per kernel launch through CUPTI (Range Profiler + Profiler Host API).
 * profiler.c is the only file that includes CUPTI. */
#ifndef GPUPROF_PROFILER_H
#define GPUPROF_PROFILER_H

#include "gpuprof/kernels.h"
#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stdio.h>

typedef struct gp_profiler gp_profiler;

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

/* What the first collection will hold, known before any kernel runs: configurations that
 * launch gpuprof's own kernels (one or more each) and library calls. */
typedef struct {
    size_t own, library;
} gp_profile_plan;

/* Start CUPTI on the current device, build the configuration for the requested metrics and
 * size the counter data for the plan's first session (a larger one is sized again when it
 * comes). On failure nothing is held, info->state is GP_PROF_UNAVAILABLE with the reason
 * (and the fix) in info->reason, and the return value is the error code. */
int gp_profiler_open(int device, const gp_metrics_request *request, const gp_profile_plan *plan,
                     gp_profiler **out, gp_profiler_info *info);

/* The same on a thread of its own, so CUPTI's set-up overlaps the caller's work; wait gives
 * what gp_profiler_open would have (the error and hint in the waiting thread's channel),
 * cancel waits and lets go of whatever was opened. It may start before the caller opens
 * the device: CUPTI's own initialisation needs none. */
typedef struct gp_profiler_opener gp_profiler_opener;
int gp_profiler_open_async(int device, const gp_metrics_request *request,
                           const gp_profile_plan *plan, gp_profiler_opener **out);
int gp_profiler_open_wait(gp_profiler_opener *o, gp_profiler **out, gp_profiler_info *info);
void gp_profiler_open_cancel(gp_profiler_opener *o);

/* Profile the targets: one range per kernel launch, as many replay passes as the
 * configuration needs, every target run once per pass, as many targets in one CUPTI session
 * as it holds (a library call, whose kernels gpuprof cannot count, runs last in its
 * session). Calls each target's check right after its run in the last pass. Fills each
 * res->launches[i].metrics, res->metrics (the aggregate of all launches), res->passes and
 * the clocks. */
int gp_profiler_collect(gp_profiler *p, const gp_profile_target *targets, size_t n);

void gp_profiler_close(gp_profiler *p);

/* The catalogue against a chip, without a GPU: which metrics it provides, how many passes
 * the default and full sets take. Writes a report-like listing through the callback. */
typedef struct {
    const char *key;
    bool available;
    const char *missing;   /* first input the chip lacks */
} gp_metric_availability;

int gp_profiler_chip_metrics(const char *chip, gp_metric_availability *avail, size_t n,
                             int *passes_default, int *passes_all);
/* Chip name of a device (e.g. "GH100"); needs the driver but no profiling permission. */
int gp_profiler_device_chip(int device, char *chip, size_t len);

#endif
