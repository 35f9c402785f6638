/* libgpuprof-inject.so: the driver calls InitializeInjection before the program's first CUDA
 * call returns. It reads gpuprof exec's options from the environment, subscribes to CUPTI
 * (contexts created and destroyed; kernel launches when counters are asked for), starts the
 * activity records that time every kernel, and writes its records until the process exits.
 * CUPTI's profiler cannot be initialised here, nor the driver called: the context-created
 * and launch callbacks do that. */
#include "exec/protocol.h"
#include "exec/inject/inject.h"
#include "exec/inject/record.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORTED __attribute__((visibility("default")))

extern char **environ;

gp_inject_options gp_inject;

static CUpti_SubscriberHandle subscriber;
static bool subscribed;

void gp_inject_warn(const char *text, const char *hint)
{
    gp_record r;
    gp_record_begin(&r, GP_RECORD_WARNING);
    gp_record_int(&r, "pid", getpid());
    gp_record_string(&r, "text", text);
    if (hint && hint[0])
        gp_record_string(&r, "hint", hint);
    gp_record_end(&r);
}

/* ---- options --------------------------------------------------------------------------- */

/* The launch filters of the options; -1 when the kernel filter does not compile. */
static int take_options(const gp_exec_options *o)
{
    gp_inject.metrics = o->metrics;
    if (o->kernel_regex && *o->kernel_regex) {
        if (regcomp(&gp_inject.regex, o->kernel_regex, REG_EXTENDED | REG_NOSUB) != 0)
            return -1; /* gpuprof exec checked it; a failure here profiles nothing */
        gp_inject.has_regex = true;
    }
    gp_inject.skip = o->launch_skip;
    gp_inject.count = o->launch_count;
    gp_inject.per_kernel = o->per_kernel;
    return 0;
}

/* Is this the process gpuprof exec started (its child, also after the program exec'd
 * another), or with --follow-children any process that started from it? */
static bool wanted_here(const gp_exec_options *o)
{
    return o->follow_children || o->parent_pid == (long)getppid();
}

/* ---- callbacks --------------------------------------------------------------------------- */

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain,
                                 CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        const CUpti_ResourceData *r = data;
        if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
            gp_launches_on_context_created(r->context);
        else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
            gp_activity_flush(); /* while the context's records can still be read */
            gp_launches_on_context_destroyed(r->context);
        }
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        gp_launches_on_callback(cbid, data);
    }
}

static const CUpti_CallbackId launch_callbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

void gp_inject_stop_launch_callbacks(void)
{
    /* The graph launches keep theirs: one may be under way on another thread. */
    for (size_t i = 0; i < sizeof launch_callbacks / sizeof launch_callbacks[0]; i++)
        if (launch_callbacks[i] != CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch &&
            launch_callbacks[i] != CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)
            cuptiEnableCallback(0, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, launch_callbacks[i]);
}

static int subscribe(void)
{
    CUpti_SubscriberParams sp = {.structSize = CUpti_SubscriberParams_STRUCT_SIZE};
    char other[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN * 2] = "";
    sp.subscriberName = "gpuprof exec";
    sp.oldSubscriberName = other;
    sp.oldSubscriberSize = sizeof other;
    CUptiResult r = cuptiSubscribe_v2(&subscriber, on_callback, NULL, &sp);
    if (r != CUPTI_SUCCESS) {
        char text[256];
        snprintf(text, sizeof text, "another CUPTI tool (%s) already watches the program: "
                 "nothing was timed or profiled", other[0] ? other : "unnamed");
        gp_inject_warn(text, "run the program under one profiler at a time");
        return -1;
    }
    subscribed = true;
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    if (gp_inject.metrics.kind == GP_METRICS_NONE)
        return 0; /* timing only: no launch callbacks, the least overhead per launch */
    for (size_t i = 0; i < sizeof launch_callbacks / sizeof launch_callbacks[0]; i++)
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, launch_callbacks[i]);
    return 0;
}

/* ---- the end of the process ----------------------------------------------------------- */

static void finish(void)
{
    static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
    static bool done;
    pthread_mutex_lock(&once);
    if (!done) {
        done = true;
        gp_launches_end_passes(true);
        gp_activity_flush();
        gp_record r;
        gp_record_begin(&r, GP_RECORD_END);
        gp_record_int(&r, "pid", getpid());
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
static struct sigaction previous[sizeof crash_signals / sizeof crash_signals[0]];

static void on_crash(int sig)
{
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        if (crash_signals[i] == sig)
            sigaction(sig, &previous[i], NULL);
    gp_launches_end_passes(false);
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
    static bool initialized;
    if (initialized)
        return 1;
    initialized = true;
    static gp_exec_options options; /* static: its metric list is large for a stack */
    gp_exec_options_decode(environ, &options);
    if (!options.records_dir || !wanted_here(&options) ||
        gp_record_open(options.records_dir, getpid()) != 0)
        return 1; /* not a process gpuprof exec asked about: stay out of its way */
    gp_record r;
    gp_record_begin(&r, GP_RECORD_PROCESS);
    gp_record_int(&r, "pid", getpid());
    gp_record_int(&r, "ppid", getppid());
    gp_record_end(&r);
    if (take_options(&options) != 0) {
        gp_inject_warn("the kernel filter does not compile here: nothing was profiled", NULL);
        gp_inject.metrics.kind = GP_METRICS_NONE;
    }
    if (subscribe() != 0)
        return 1;
    if (gp_activity_start() != 0)
        gp_inject_warn("CUPTI's activity records could not be started: kernels are not timed",
                       NULL);
    watch_crashes();
    atexit(finish);
    return 1;
}
