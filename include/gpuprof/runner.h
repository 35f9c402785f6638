/* Run a kernel command's plan on the GPU and fill the report. */
#ifndef GPUPROF_RUNNER_H
#define GPUPROF_RUNNER_H

#include "gpuprof/plan.h"
#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stddef.h>

/* Runs every configuration of the plan, one result each, in plan order. Returns GP_OK when
 * everything ran (results that fail their check are counted in *failed_checks, not treated
 * as errors), or the error. */
int gp_run_plan(const gp_request *req, const gp_plan *plan, gp_report *report,
                size_t *failed_checks);

#endif
