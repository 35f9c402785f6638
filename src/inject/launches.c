/* The launch callbacks: choose the launches to profile (filters.h) and profile them in their
 * context's sessions (sessions.h): with kernel replay a session per launch, started at its
 * API entry and decoded at its exit (CUPTI saves and restores device memory between passes,
 * so an in-place kernel still computes its result); with one pass, one pass around
 * consecutive profiled launches, ended before any other kernel runs there. The launch lock
 * is held from every launch's entry to its exit, so no other thread's kernel falls into a
 * profiled launch's session, and a launch being captured into a CUDA graph is left alone (it
 * runs later, as a graph node). */
#include "inject/launches.h"

#include "gpuprof/checked_calls.h"
#include "inject/launch_ranges.h"

#include "gpuprof/collectives.h"
#include "inject/codes.h"
#include "inject/contexts.h"
#include "inject/filters.h"
#include "inject/graph_launches.h"
#include "inject/launch_ranges.h"
#include "inject/locks.h"
#include "inject/profiled.h"
#include "inject/sessions.h"
#include "inject/source_pass.h"
#include "inject/subscription.h"

#include <stdbool.h>

/* What the entry callback tells the exit callback of the same launch (its correlationData). */
#define ORDINARY 0u
#define STARTED 1u   /* its session was started */
#define PATCHED 2u   /* it is the kernel's patched launch (--source) */

typedef struct {
    CUfunction f;
    CUstream stream;
    unsigned grid[3], block[3], smem;
    bool per_thread_stream;    /* a _ptsz entry point: the default stream is the thread's */
} launch_facts;

#define PLAIN_LAUNCH(T)                                                                      \
    do {                                                                                     \
        const T *p = params;                                                                 \
        *l = (launch_facts){p->f, p->hStream, {p->gridDimX, p->gridDimY, p->gridDimZ},       \
                            {p->blockDimX, p->blockDimY, p->blockDimZ}, p->sharedMemBytes,   \
                            false};                                                          \
    } while (0)
#define EX_LAUNCH(T)                                                                         \
    do {                                                                                     \
        const T *p = params;                                                                 \
        const CUlaunchConfig *c = p->config;                                                 \
        *l = (launch_facts){p->f, c->hStream, {c->gridDimX, c->gridDimY, c->gridDimZ},       \
                            {c->blockDimX, c->blockDimY, c->blockDimZ}, c->sharedMemBytes,   \
                            false};                                                          \
    } while (0)

static bool launch_facts_of(CUpti_CallbackId cbid, const void *params, launch_facts *l)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: PLAIN_LAUNCH(cuLaunchKernel_params); break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        PLAIN_LAUNCH(cuLaunchKernel_ptsz_params);
        l->per_thread_stream = true;
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        PLAIN_LAUNCH(cuLaunchCooperativeKernel_params);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        PLAIN_LAUNCH(cuLaunchCooperativeKernel_ptsz_params);
        l->per_thread_stream = true;
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: EX_LAUNCH(cuLaunchKernelEx_params); break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        EX_LAUNCH(cuLaunchKernelEx_ptsz_params);
        l->per_thread_stream = true;
        break;
    default: return false;
    }
    return true;
}

/* A launch into a stream being captured only records a graph node: nothing runs now. */
static bool being_captured(const launch_facts *l)
{
    CUstream s = l->stream ? l->stream : l->per_thread_stream ? CU_STREAM_PER_THREAD : NULL;
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    return cuStreamIsCapturing(s, &status) == CUDA_SUCCESS &&
           status != CU_STREAM_CAPTURE_STATUS_NONE;
}

/* ---- one launch ---------------------------------------------------------------------------- */

/* After the last launch --launch-count allows, no launch needs a callback (but with --nvtx,
 * for its range): the passes end first, since a launch without a callback would fall into
 * one. */
static void stop_watching_when_done(void)
{
    if (!gp_filters_done())
        return;
    gp_contexts_end_all_passes();
    if (!gp_launch_ranges_on())
        gp_subscription_stop_launches();
}

static gp_launch_info info_of(const CUpti_CallbackData *d, const launch_facts *l)
{
    return (gp_launch_info){.id = d->correlationId, .kernel = (char *)d->symbolName,
                            .code = gp_codes_of(l->f),
                            .grid = {l->grid[0], l->grid[1], l->grid[2]},
                            .block = {l->block[0], l->block[1], l->block[2]},
                            .smem = l->smem,
                            .collective = gp_kernel_is_collective(d->symbolName)};
}

/* API entry: start this launch's session when it is to be profiled; end the context's pass
 * when it is not, so that it does not become a range. A launch being captured into a graph
 * runs nothing now and leaves the pass alone: ending it would synchronise the context, which
 * a capture forbids (the capture would fail). */
static void on_enter(const CUpti_CallbackData *d, const launch_facts *l)
{
    *d->correlationData = ORDINARY;
    if (being_captured(l))
        return;
    const gp_launch_info info = info_of(d, l);
    gp_codes_note_launch(d->correlationId, info.code); /* for its kernel's activity record */
    if (gp_source_pass_wanted() && gp_filters_matches(info.kernel) &&
        gp_source_pass_begin(d->context, gp_contexts_sessions(d->context), &info)) {
        *d->correlationData = PATCHED; /* its lines instead of its counters */
        return;
    }
    gp_sessions *s = gp_contexts_profile(d->context, &info, GP_TAKE_CHOSEN);
    if (s && gp_sessions_start(s, &info)) {
        *d->correlationData = STARTED;
        return;
    }
    gp_contexts_end_pass(d->context);
}

/* API exit of a profiled launch: its session or pass takes it. The others need no record
 * here: their activity records say all there is. */
static void on_exit_of(const CUpti_CallbackData *d, const launch_facts *l)
{
    if (*d->correlationData != PATCHED && *d->correlationData != STARTED)
        return;
    const CUresult *ret = d->functionReturnValue;
    const bool ran = !ret || *ret == CUDA_SUCCESS;
    gp_launch_info info = info_of(d, l);
    GP_CHECKED(cuptiGetStreamIdEx(d->context, l->stream, l->per_thread_stream, &info.stream),
               "a profiled launch was recorded on stream 0");
    if (*d->correlationData == PATCHED) {
        gp_source_pass_end(d->context, &info, ran);
        return;
    }
    gp_sessions *s = gp_contexts_sessions(d->context);
    if (!s)
        return;
    if (gp_sessions_launched(s, &info, ran))
        gp_profiled_add(d->correlationId);
    stop_watching_when_done();
}

static bool is_graph_launch(CUpti_CallbackId cbid)
{
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

void gp_launches_on_callback(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    launch_facts l;
    if (gp_graph_launches_shadowing())
        return; /* a shadow launch of this thread's graph launch: profiled there */
    if (is_graph_launch(cbid)) {
        /* Under the lock: no other thread's kernel falls into its shadow launches or its
         * sampling window, nor its nodes into another thread's session. */
        if (d->callbackSite == CUPTI_API_ENTER) {
            gp_launch_lock();
            gp_graph_launch_enter(d);
        } else {
            gp_graph_launch_exit(d);
            gp_launch_unlock();
        }
        return;
    }
    if (!launch_facts_of(cbid, d->functionParams, &l))
        return;
    if (d->callbackSite == CUPTI_API_ENTER) {
        gp_launch_lock(); /* held until this launch's exit */
        on_enter(d, &l);
        return;
    }
    on_exit_of(d, &l);
    gp_launch_unlock();
}
