/* libgpuprof-inject.so, the library `gpuprof exec` has the CUDA driver load into a program:
 * its entry point and its end. The driver calls InitializeInjection before the program's
 * first CUDA call returns. It reads gpuprof exec's options from the environment (protocol.h),
 * hands them to the filters, the contexts and the graph launches (filters.h, contexts.h,
 * graph_launches.h), subscribes to CUPTI (subscription.h: contexts created and destroyed;
 * kernel launches when counters are asked for), starts the activity records that time every
 * kernel (activity_records.h), and writes its records until the process exits or crashes.
 * CUPTI's profiler cannot be initialised here, nor the driver called: the context-created
 * and launch callbacks do that.
 *
 * The rules every file of the library keeps are inject/inject.h's. inject.c calls the other
 * parts, which never call it back. */
#include "inject/inject.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/protocol.h"
#include "inject/activity_memory.h"
#include "inject/activity_records.h"
#include "inject/codes.h"
#include "inject/contexts.h"
#include "inject/cubin_copies.h"
#include "inject/filters.h"
#include "inject/graph_launches.h"
#include "inject/graphs.h"
#include "inject/launch_ranges.h"
#include "inject/launches.h"
#include "inject/record.h"
#include "inject/source_pass.h"
#include "inject/stalls.h"
#include "inject/subscription.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORTED __attribute__((visibility("default")))

extern char **environ;

/* ---- the process --------------------------------------------------------------------------- */

/* Is this the process gpuprof exec started (its child, also after the program exec'd
 * another), or with --follow-children any process that started from it? */
static bool wanted_here(const gp_exec_options *o)
{
    return o->request.follow_children || o->parent_pid == (long)getppid();
}

/* ---- callbacks --------------------------------------------------------------------------- */

/* Counters are collected (--metrics other than none): the launch callbacks profile. Guard:
 * none, set by InitializeInjection before any callback. */
static bool profiling;

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain,
                                 CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        const CUpti_ResourceData *r = data;
        if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
            gp_activity_memory_retry(false);
            gp_contexts_on_created(r->context);
            gp_stalls_on_created(r->context);
        } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
            gp_activity_flush(); /* while the context's records can still be read */
            gp_stalls_on_destroyed(r->context);
            gp_contexts_on_destroyed(r->context);
        } else {
            gp_codes_on_resource(cbid, r);
            gp_graphs_on_resource(cbid, r);
            gp_launch_ranges_on_node(cbid, r);
            gp_cubin_copies_on_module(cbid, r);
        }
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        gp_activity_memory_retry(false);
        if (gp_subscription_is_graph_callback(cbid)) {
            gp_graphs_on_callback(cbid, data);
        } else if (gp_codes_is_load_callback(cbid)) {
            gp_codes_on_call(cbid, data);
        } else {
            const CUpti_CallbackData *d = data;
            if (d->callbackSite == CUPTI_API_ENTER && gp_launch_ranges_on())
                gp_launch_ranges_note(d->correlationId);
            if (profiling)
                gp_launches_on_callback(cbid, d);
            if (d->callbackSite == CUPTI_API_EXIT && gp_stalls_on())
                gp_stalls_after_launch(d->context);
        }
    }
}

/* ---- the end of the process ----------------------------------------------------------- */

/* The calls that failed where nothing could return their failure (gpuprof/checked_calls.h):
 * a warning each, before the last record. */
static void warn_failed_calls(void)
{
    for (const gp_call_site *site = gp_failed_call_sites(); site; site = site->next) {
        char text[512];
        gp_call_site_warning(site, text, sizeof text);
        gp_record_warning(text, NULL);
    }
}

static void finish(void)
{
    static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
    static bool done;                                         /* Guard: once */
    pthread_mutex_lock(&once);
    if (!done) {
        done = true;
        gp_contexts_end_passes(true);
        gp_stalls_finish();
        gp_activity_memory_retry(true); /* still not started: said in a warning */
        gp_activity_flush();
        warn_failed_calls();
        gp_record r;
        gp_record_begin(&r, GP_RECORD_END);
        gp_record_end(&r);
        /* The file stays open: the driver's teardown after this may still end a context,
         * and the kernel times flushed then are worth keeping. */
    }
    pthread_mutex_unlock(&once);
}

/* A crash: write the profiled launches of the open passes and the kernel times CUPTI still
 * holds, then die of the same signal the way the program would have (its own handler, if it
 * had one, runs as before). Flushing is not async-signal-safe; the process is ending either
 * way, and the records are what is left. */
static const int crash_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
/* The program's own handlers. Guard: none, written once before any callback, read by the
 * crash handler. */
static struct sigaction previous[sizeof crash_signals / sizeof crash_signals[0]];

static void on_crash(int sig)
{
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        if (crash_signals[i] == sig)
            sigaction(sig, &previous[i], NULL);
    gp_contexts_end_passes(false);
    gp_activity_flush();
    raise(sig);
}

static void watch_crashes(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        sigaction(crash_signals[i], &sa, &previous[i]);
}

/* ---- the entry point ---------------------------------------------------------------------- */

EXPORTED int InitializeInjection(void)
{
    static bool initialized; /* Guard: none, the driver calls this once, before any callback */
    if (initialized)
        return 1;
    initialized = true;
    static gp_exec_options options; /* large for a stack. Guard: none, as `initialized` */
    gp_exec_options_decode(environ, &options);
    if (!options.records_dir || !wanted_here(&options) ||
        gp_record_open(options.records_dir, getpid()) != 0)
        return 1; /* not a process gpuprof exec asked about: stay out of its way */
    gp_record r;
    gp_record_begin(&r, GP_RECORD_PROCESS);
    gp_record_int(&r, "ppid", getppid());
    gp_record_end(&r);
    if (gp_filters_start(&options.request) != 0) {
        gp_record_warning("the kernel or NVTX filters do not compile here: nothing was "
                          "profiled", NULL);
        options.metrics.kind = GP_METRICS_NONE;
    }
    gp_contexts_start(&options);
    profiling = options.metrics.kind != GP_METRICS_NONE;
    const bool ranges = gp_launch_ranges_start(options.request.nvtx);
    gp_graph_launches_start(options.request.graph_profiling, options.request.graph_samples,
                            profiling);
    gp_source_pass_start(profiling && options.request.source);
    gp_stalls_start(options.request.stalls ? options.request.stall_period : 0);
    gp_cubin_copies_start(gp_source_pass_wanted() || gp_stalls_on());
    if (gp_subscription_start(on_callback, profiling || ranges || gp_stalls_on(),
                              profiling && options.request.graph_profiling != GP_GRAPH_TIME,
                              profiling && options.request.source) != 0)
        return 1;
    if (ranges)
        gp_subscription_watch_graph_nodes();
    if (gp_activity_start() != 0)
        gp_record_warning("CUPTI's activity records could not be started: kernels are not timed",
                          NULL);
    watch_crashes();
    atexit(finish);
    return 1;
}
