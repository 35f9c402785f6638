/* libgpuprof-inject.so, the library `gpuprof exec` has the CUDA driver load into a program:
 * what its parts share. Everything runs inside someone else's process: nothing here exits,
 * prints, or changes the program's CUDA state beyond what profiling needs; what cannot be
 * done becomes a warning record. */
#ifndef GPUPROF_INJECT_H
#define GPUPROF_INJECT_H

#include "gpuprof/metrics.h"

#include <cuda.h>
#include <cupti.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

/* The options gpuprof exec passed through the environment (exec/protocol.h). */
typedef struct {
    gp_metrics_request metrics;   /* kind NONE: time every kernel, profile none */
    bool has_regex;
    regex_t regex;                /* --kernel, matched against mangled and demangled names */
    uint64_t skip, count;         /* --launch-skip, --launch-count (UINT64_MAX: no limit) */
    uint64_t per_kernel;          /* --per-kernel (UINT64_MAX: no limit) */
} gp_inject_options;

extern gp_inject_options gp_inject;

/* No more launch callbacks: every launch --launch-count allows was profiled. */
void gp_inject_stop_launch_callbacks(void);
/* A warning record: what could not be done, and what to do about it. */
void gp_inject_warn(const char *text, const char *hint);

/* launches.c: the launch callbacks (metrics mode) and the contexts' profilers. */
void gp_launches_on_callback(CUpti_CallbackId cbid, const CUpti_CallbackData *d);
void gp_launches_on_context_created(CUcontext ctx);
void gp_launches_on_context_destroyed(CUcontext ctx);
bool gp_launches_was_profiled(uint32_t correlation_id);
/* End every context's open pass, writing its launches: at the end of the process, and after
 * a crash (may_wait false: skipped when another thread is inside a launch). */
void gp_launches_end_passes(bool may_wait);

/* activity.c: kernel times from CUPTI's activity records. */
int gp_activity_start(void);
void gp_activity_flush(void);

#endif
