/* The program's CUDA contexts as the library keeps them: a `device` record at each one's
 * creation, its profiler opened (and its `profiler` record written) at the first launch the
 * filters choose on it, its sessions (sessions.h), and their passes ended before anything
 * that must not fall into one. A context the table has no room for is said in a warning
 * record: its launches are timed, not profiled. */
#ifndef GPUPROF_INJECT_CONTEXTS_H
#define GPUPROF_INJECT_CONTEXTS_H

#include "inject/inject.h"

#include "gpuprof/protocol.h"
#include "inject/sessions.h"

#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>

/* Take the options' metrics and replay, before any callback. */
void gp_contexts_start(const gp_exec_options *o);

/* A context was created, or is being destroyed (its passes ended, its profiler closed, its
 * private stream forgotten). Each takes the launch lock. */
void gp_contexts_on_created(CUcontext ctx);
void gp_contexts_on_destroyed(CUcontext ctx);

/* The rest: the caller holds the launch lock. */

/* Which of the launches the filters choose may be profiled. */
typedef enum {
    GP_TAKE_CHOSEN,            /* every one */
    GP_TAKE_LACKING,           /* only one whose signature still lacks a group (a graph
                                  launch past --graph-samples: shadow launches only) */
    GP_TAKE_NONE               /* none: the launch is only counted */
} gp_take;

/* The context's sessions when this launch is to be profiled, else NULL: the filters count it
 * as a launch (a launch of a context not in the table too), the context's profiler is opened
 * at its first, and a launch beyond its kernel's --per-kernel is profiled only while its
 * signature lacks a group, as under GP_TAKE_LACKING. */
gp_sessions *gp_contexts_profile(CUcontext ctx, const gp_launch_info *launch, gp_take take);
/* The context's sessions; NULL when it is not in the table or has no profiler. */
gp_sessions *gp_contexts_sessions(CUcontext ctx);
/* The context's open pass ended, its launches written. */
void gp_contexts_end_pass(CUcontext ctx);
/* Every context's. */
void gp_contexts_end_all_passes(void);
/* The context's pass ended and its range profiler suspended: enabled anew at its next pass
 * (a SASS-patched launch counts nothing while the context has a range profiler). */
void gp_contexts_suspend_range_profiler(CUcontext ctx);
/* Every context's range profiler on the device suspended (before a sampling window). */
void gp_contexts_suspend_range_profilers(uint32_t device);

/* At the end of the process, and after a crash (may_wait false: skipped, and said, when
 * another thread is inside a launch): every context's open pass ended. Takes the lock. */
void gp_contexts_end_passes(bool may_wait);

#endif
