/* Run a kernel command's request on the GPU and fill the report. */
#ifndef GPUPROF_RUNNER_H
#define GPUPROF_RUNNER_H

#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stddef.h>

/* Runs every configuration of the request. Returns GP_OK when everything ran (results that
 * fail their check are counted in *failed_checks, not treated as errors), or the error. */
int gp_run_kernels(const gp_request *req, gp_report *report, size_t *failed_checks);

#endif
