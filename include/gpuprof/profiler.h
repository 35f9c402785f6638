/* Hardware counters per kernel launch through CUPTI (Range Profiler + Profiler Host API).
 * profiler.c is the only file that includes CUPTI. */
#ifndef GPUPROF_PROFILER_H
#define GPUPROF_PROFILER_H

#include "gpuprof/kernels.h"
#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stdio.h>

typedef struct gp_profiler gp_profiler;

/* How the profiler runs one workload once: restore its inputs and launch it. */
typedef struct {
    void *ctx;
    int (*prepare)(void *ctx);                          /* restore inputs, flush L2 */
    int (*launch)(void *ctx, const gp_hooks *hooks);    /* every kernel of the workload */
    int (*flush)(void *ctx);                            /* flush L2 only */
} gp_profile_target;

/* Start CUPTI on the current device and build the configuration for the requested metrics.
 * On failure nothing is held, info->state is GP_PROF_UNAVAILABLE with the reason (and the
 * fix) in info->reason, and the return value is the error code. */
int gp_profiler_open(const gp_device_info *dev, const gp_metrics_request *request,
                     gp_profiler **out, gp_profiler_info *info);

/* Profile one run of the target: one range per kernel launch, as many replay passes as the
 * configuration needs. Fills res->launches[i].metrics, res->metrics (the aggregate of all
 * launches), res->passes and the clocks. res->launches must describe the launches the
 * target makes (from a timed run). */
int gp_profiler_collect(gp_profiler *p, const gp_profile_target *target, gp_result *res);

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
