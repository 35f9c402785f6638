/* Kernel times from CUPTI's activity records: a `K` line per kernel that ran (gpuprof/record_format.h),
 * written by CUPTI's activity thread. */
#ifndef GPUPROF_INJECT_ACTIVITY_RECORDS_H
#define GPUPROF_INJECT_ACTIVITY_RECORDS_H

#include "inject/inject.h"

/* Start recording kernels; -1 when CUPTI refuses. */
int gp_activity_start(void);
/* Write the kernels CUPTI holds so far (at a context's end, the process's end, a crash). */
void gp_activity_flush(void);
/* Kernel records paused around a SASS-patched launch (source_pass.h), which counts nothing
 * while CUPTI records kernels (H100, CUDA 13.0): kernels that end meanwhile go unrecorded. */
void gp_activity_pause_kernels(void);
void gp_activity_resume_kernels(void);

#endif
