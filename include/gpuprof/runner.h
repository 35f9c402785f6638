/* Run a kernel command's plan on the GPU and fill the report. */
#ifndef GPUPROF_RUNNER_H
#define GPUPROF_RUNNER_H

#include "gpuprof/plan.h"
#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stddef.h>

/* Who hears of the run as it goes, in plan order (either hook may be NULL): a configuration
 * about to run, and a result that is final (timed, checked and, with metrics, profiled: the
 * configurations of a problem are profiled together, so with metrics its results become
 * final together). A hook's error stops the run. */
typedef struct {
    void *ctx;
    void (*starting)(void *ctx, size_t result);
    int (*finished)(void *ctx, size_t result);
} gp_run_observer;

/* Runs every configuration of the plan, one result each, in plan order; every result is
 * described (family, variant, size, type, block, parameters, bytes moved) before the first
 * runs. Returns GP_OK when everything ran (results that fail their check are counted in
 * *failed_checks, not treated as errors), or the error. obs may be NULL. */
int gp_run_plan(const gp_request *req, const gp_plan *plan, gp_report *report,
                size_t *failed_checks, const gp_run_observer *obs);

#endif
