/* exec --source: each kernel's per-line view, from one launch of it per context patched by
 * CUPTI's SASS Metrics API (gpuprof/sass_source.h), after its counter groups: a launch whose
 * signature lacks none is run patched, outside any profiling pass and untimed (its `launch`
 * record has no counters and it has no kernel record), its context synchronised at its
 * entry and exit, and each instruction it counted written as a `source` record, with its file
 * and line from the cubins kept (inject/cubin_copies.h). A kernel that cannot be patched,
 * or that CUPTI counted nothing of, gets a `source_note` record with the reason. Collective
 * kernels are left unpatched (a synchronisation at their exit waits for their peers).
 *
 * What the SASS metrics need (bench/README.md, Per-line view): lazy patching; the
 * configuration set once per device; the subscriber's whole resource domain enabled
 * (subscription.c), without which only the process's first flush counts; no range profiler
 * enabled on the context and CUPTI's kernel records paused, without which it counts nothing.
 *
 * Guard: the launch lock. */
#ifndef GPUPROF_INJECT_SOURCE_PASS_H
#define GPUPROF_INJECT_SOURCE_PASS_H

#include "inject/inject.h"

#include "inject/sessions.h"

#include <cuda.h>
#include <cupti.h>
#include <stdbool.h>

/* --source asked: before any callback. */
void gp_source_pass_start(bool wanted);
bool gp_source_pass_wanted(void);

/* Whether the launch would be the kernel's patched one (a graph's kernel node, asked before
 * its graph launch's shadow launches). */
bool gp_source_pass_wants(gp_sessions *s, const gp_launch_info *l);
/* At a launch's API entry: whether this launch is the kernel's patched one (patching is on
 * now); `s` are its context's sessions (NULL: no profiler there), which say whether the
 * signature has its counters. A shadow launch of a graph's kernel node (graph_launches.h) may
 * be patched too: its records name the graph launch, and it gets no launch record. */
bool gp_source_pass_begin(CUcontext ctx, gp_sessions *s, const gp_launch_info *l);
/* At its API exit: the context synchronised, patching stopped, kernel records resumed, the
 * records written (l->stream set). */
void gp_source_pass_end(CUcontext ctx, const gp_launch_info *l, bool ran);

#endif
