/* The launch callbacks: choose the launches to profile (ncu's filters), and profile them in
 * their context's sessions (sessions.h): with kernel replay a session per launch, started at
 * its API entry and decoded at its exit (CUPTI saves and restores device memory between
 * passes, so an in-place kernel still computes its result); with one pass, one pass around
 * consecutive profiled launches, ended before any other kernel runs there. One lock is held
 * from every launch's entry to its exit, so no other thread's kernel falls into a profiled
 * launch's session, and a launch being captured into a CUDA graph is left alone (it runs
 * later, as a graph node). */
#include "inject/launches.h"

#include "gpuprof/collector.h"
#include "gpuprof/demangle.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/profiler.h"
#include "gpuprof/status.h"
#include "inject/graph_launches.h"
#include "inject/profiled.h"
#include "inject/record.h"
#include "inject/sessions.h"
#include "inject/subscription.h"

#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CONTEXTS 64
/* What the entry callback tells the exit callback of the same launch (its correlationData). */
#define ORDINARY 0u
#define STARTED 1u   /* its session was started */

typedef struct {
    gp_sessions sessions;      /* its collector opened at the first launch to profile */
    bool tried;                /* opening was tried (and failed when the collector is NULL) */
} context_state;

/* A distinct kernel (by mangled name): whether the filter takes it, launches profiled. */
typedef struct {
    bool matches;
    uint64_t profiled;
} kernel_state;

/* What to profile: gpuprof exec's options (protocol.h), taken at the start. */
static struct {
    gp_metrics_request metrics;
    bool has_regex;
    regex_t regex;                /* --kernel, matched against mangled and demangled names */
    uint64_t skip, count;         /* --launch-skip, --launch-count (UINT64_MAX: no limit) */
    uint64_t per_kernel;          /* --per-kernel (UINT64_MAX: no limit) */
    gp_exec_replay replay;        /* --replay */
    unsigned app_pass;            /* application: the group this run collects */
} wanted;

static pthread_mutex_t launch_lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static context_state contexts[MAX_CONTEXTS];
static size_t n_contexts;
static gp_hashmap kernels;         /* kernel_state by mangled name, under the launch lock */
static uint64_t matching_launches, profiled_launches;

/* Recursive: CUPTI may call back on this thread while the lock is held. */
static void make_lock(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&launch_lock, &a);
    pthread_mutexattr_destroy(&a);
}

static void lock(void)
{
    pthread_once(&lock_once, make_lock);
    pthread_mutex_lock(&launch_lock);
}

static bool try_lock(void)
{
    pthread_once(&lock_once, make_lock);
    return pthread_mutex_trylock(&launch_lock) == 0;
}

static void unlock(void)
{
    pthread_mutex_unlock(&launch_lock);
}

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

/* ---- kernels and the filters ------------------------------------------------------------- */

int gp_launches_start(const gp_exec_options *o)
{
    gp_hashmap_init(&kernels, sizeof(kernel_state));
    const gp_exec_request *q = &o->request;
    wanted.metrics = o->metrics;
    if (q->kernel_regex[0]) {
        if (regcomp(&wanted.regex, q->kernel_regex, REG_EXTENDED | REG_NOSUB) != 0) {
            wanted.metrics.kind = GP_METRICS_NONE; /* gpuprof exec checked it; a failure
                                                      here profiles nothing */
            return -1;
        }
        wanted.has_regex = true;
    }
    wanted.skip = q->launch_skip;
    wanted.count = q->launch_count;
    wanted.per_kernel = q->per_kernel;
    wanted.replay = q->replay;
    wanted.app_pass = o->app_pass;
    return 0;
}

static bool filter_matches(const char *mangled)
{
    if (!wanted.has_regex)
        return true;
    if (regexec(&wanted.regex, mangled, 0, NULL, 0) == 0)
        return true;
    char *demangled = gp_demangle(mangled);
    bool match = demangled && regexec(&wanted.regex, demangled, 0, NULL, 0) == 0;
    free(demangled);
    return match;
}

static kernel_state *kernel_named(const char *name)
{
    bool added = false;
    kernel_state *k = gp_hashmap_add_str(&kernels, name, &added);
    if (k && added)
        k->matches = filter_matches(name);
    return k;
}

typedef enum {
    NOT_CHOSEN,
    BEYOND_QUOTA,     /* its kernel has its --per-kernel launches: profiled only if its
                         signature still lacks a pass (sessions.h) */
    CHOSEN
} choice;

/* ncu's order: the filter by name, then --launch-skip and --launch-count over the launches
 * it takes, then at most --per-kernel of each kernel. (A launch being captured into a graph
 * does not run now: the caller asks about none of them.) */
static choice choose(const char *name, kernel_state **k)
{
    *k = kernel_named(name);
    if (!*k || !(*k)->matches)
        return NOT_CHOSEN;
    const uint64_t index = matching_launches++;
    if (index < wanted.skip || profiled_launches >= wanted.count)
        return NOT_CHOSEN;
    return (*k)->profiled >= wanted.per_kernel ? BEYOND_QUOTA : CHOSEN;
}

/* ---- contexts and their profilers -------------------------------------------------------- */

static context_state *find_context(CUcontext ctx)
{
    for (size_t i = 0; i < n_contexts; i++)
        if (contexts[i].sessions.ctx == ctx)
            return &contexts[i];
    return NULL;
}

static void write_device(uint32_t uid, uint32_t ordinal)
{
    CUdevice dev;
    if (cuDeviceGet(&dev, (int)ordinal) != CUDA_SUCCESS)
        return;
    char name[256] = "";
    int major = 0, minor = 0, sms = 0, l2 = 0, clock = 0, mem_clock = 0, bus = 0;
    size_t memory = 0;
    cuDeviceGetName(name, sizeof name, dev);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
    cuDeviceGetAttribute(&clock, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev);
    cuDeviceGetAttribute(&mem_clock, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, dev);
    cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, dev);
    cuDeviceTotalMem(&memory, dev);
    gp_record r;
    gp_record_begin(&r, GP_RECORD_DEVICE);
    gp_record_int(&r, "pid", getpid());
    gp_record_uint(&r, "context", uid);
    gp_record_uint(&r, "device", ordinal);
    gp_record_string(&r, "name", name);
    gp_record_int(&r, "cc_major", major);
    gp_record_int(&r, "cc_minor", minor);
    gp_record_int(&r, "sms", sms);
    gp_record_uint(&r, "memory", memory);
    gp_record_int(&r, "l2", l2);
    gp_record_int(&r, "sm_clock_khz", clock);
    gp_record_int(&r, "memory_clock_khz", mem_clock);
    gp_record_int(&r, "bus_bits", bus);
    gp_record_end(&r);
}

void gp_launches_on_context_created(CUcontext ctx)
{
    uint32_t uid = 0, device = 0;
    cuptiGetContextId(ctx, &uid);
    cuptiGetDeviceId(ctx, &device);
    write_device(uid, device);
    lock();
    if (n_contexts < MAX_CONTEXTS)
        contexts[n_contexts++] =
            (context_state){.sessions = {.ctx = ctx, .uid = uid, .device = device}};
    unlock();
}

/* The groups as JSON: an array of arrays of counter indices ("[[0,1],[2]]"), built on the
 * heap (the program's thread may have a small stack). */
static void write_groups(gp_record *r, const gp_collector *c)
{
    const size_t len = GP_MAX_GROUPS * GP_MAX_COUNTERS * 4 + 64;
    char *json = malloc(len);
    if (!json) {
        r->failed = 1;
        return;
    }
    size_t used = (size_t)snprintf(json, len, "[");
    for (size_t g = 0; g < c->n_groups; g++) {
        used += (size_t)snprintf(json + used, len - used, "%s[", g ? "," : "");
        for (size_t k = 0; k < c->groups[g].n_counters; k++)
            used += (size_t)snprintf(json + used, len - used, "%s%zu", k ? "," : "",
                                     c->groups[g].counters[k]);
        used += (size_t)snprintf(json + used, len - used, "]");
    }
    snprintf(json + used, len - used, "]");
    gp_record_raw(r, "groups", json);
    free(json);
}

static void write_profiler(const gp_sessions *s)
{
    const gp_collector *c = s->collector;
    const char *keys[GP_MAX_SELECTED], *units[GP_MAX_SELECTED],
        *missing[GP_MAX_SELECTED];
    for (size_t i = 0; i < c->n_metrics; i++) {
        const gp_selected_metric *m = &c->metrics[i];
        keys[i] = m->def ? m->def->key : m->raw_name;
        units[i] = m->def ? m->def->unit : m->raw_unit;
        missing[i] = m->missing ? m->missing : "";
    }
    gp_record r;
    gp_record_begin(&r, GP_RECORD_PROFILER);
    gp_record_int(&r, "pid", getpid());
    gp_record_uint(&r, "context", s->uid);
    gp_record_string(&r, "chip", c->chip);
    gp_record_int(&r, "passes", c->passes);
    gp_record_string(&r, "set", gp_metrics_kind_name(c->kind));
    gp_record_strings(&r, "counters", c->counters, c->n_counters);
    gp_record_strings(&r, "metrics", keys, c->n_metrics);
    gp_record_strings(&r, "units", units, c->n_metrics);
    gp_record_strings(&r, "missing", missing, c->n_metrics);
    gp_record_string(&r, "replay", gp_exec_replay_name(s->rotation.mode));
    if (c->n_groups)
        write_groups(&r, c);
    gp_record_end(&r);
}

/* The context's sessions, their profiler opened the first time one of its launches is to be
 * profiled. A failure (no permission, another profiler) is said once; its launches are then
 * only timed. */
static gp_sessions *sessions_of(context_state *cs)
{
    gp_sessions *s = &cs->sessions;
    if (cs->tried)
        return s->collector ? s : NULL;
    cs->tried = true;
    gp_collector *c = NULL;
    int rc = gp_collector_open((int)s->device, &wanted.metrics, &c);
    if (rc == GP_OK)
        rc = gp_sessions_attach(s, c, wanted.replay, wanted.app_pass);
    if (rc != GP_OK) {
        char text[GP_MESSAGE_LEN + 64];
        snprintf(text, sizeof text, "metrics unavailable on device %u: %s", s->device,
                 gp_error());
        gp_record_warning(text, gp_hint());
        gp_collector_close(c);
        return NULL;
    }
    write_profiler(s);
    return s;
}

static void end_pass_of(context_state *cs)
{
    if (cs && cs->sessions.collector)
        gp_sessions_end_pass(&cs->sessions);
}

void gp_launches_on_context_destroyed(CUcontext ctx)
{
    lock();
    context_state *cs = find_context(ctx);
    if (cs) {
        end_pass_of(cs);
        if (cs->sessions.collector)
            gp_sessions_detach(&cs->sessions);
        *cs = contexts[--n_contexts];
        gp_graph_launches_forget(ctx);
    }
    unlock();
}

static void end_all_passes(void)
{
    for (size_t i = 0; i < n_contexts; i++)
        end_pass_of(&contexts[i]);
}

void gp_launches_end_passes(bool may_wait)
{
    if (may_wait)
        lock();
    else if (!try_lock())
        return; /* a crash while another thread launches: its pass is lost */
    end_all_passes();
    unlock();
}

/* ---- one launch ---------------------------------------------------------------------------- */

/* After the last launch --launch-count allows, no launch needs a callback: the passes end
 * first, since a launch without a callback would fall into one. */
static void stop_watching_when_done(void)
{
    if (profiled_launches < wanted.count)
        return;
    end_all_passes();
    gp_subscription_stop_launches();
}

/* API entry: start this launch's session when it is to be profiled; end the context's pass
 * when it is not, so that it does not become a range. A launch being captured into a graph
 * runs nothing now and leaves the pass alone: ending it would synchronise the context, which
 * a capture forbids (the capture would fail). */
static gp_launch_info info_of(const CUpti_CallbackData *d, const launch_facts *l)
{
    return (gp_launch_info){.id = d->correlationId, .kernel = (char *)d->symbolName,
                            .grid = {l->grid[0], l->grid[1], l->grid[2]},
                            .block = {l->block[0], l->block[1], l->block[2]},
                            .smem = l->smem};
}

/* The context's sessions when a launch of this kernel is to be profiled, else NULL: the
 * filters count it as a launch. */
static gp_sessions *profiling(context_state *cs, const gp_launch_info *info)
{
    kernel_state *k = NULL;
    const choice c = info->kernel ? choose(info->kernel, &k) : NOT_CHOSEN;
    gp_sessions *s = c != NOT_CHOSEN && cs ? sessions_of(cs) : NULL;
    if (!s || (c == BEYOND_QUOTA && !gp_sessions_lacks(s, info)))
        return NULL;
    k->profiled++;
    profiled_launches++;
    return s;
}

static void on_enter(const CUpti_CallbackData *d, const launch_facts *l)
{
    *d->correlationData = ORDINARY;
    if (being_captured(l))
        return;
    context_state *cs = find_context(d->context);
    const gp_launch_info info = info_of(d, l);
    gp_sessions *s = profiling(cs, &info);
    if (s && gp_sessions_start(s, &info)) {
        *d->correlationData = STARTED;
        return;
    }
    end_pass_of(cs);
}

/* API exit of a profiled launch: its session or pass takes it. The others need no record
 * here: their activity records say all there is. */
static void on_exit_of(const CUpti_CallbackData *d, const launch_facts *l)
{
    if (*d->correlationData != STARTED)
        return;
    const CUresult *ret = d->functionReturnValue;
    context_state *cs = find_context(d->context);
    if (!cs)
        return;
    gp_launch_info info = info_of(d, l);
    cuptiGetStreamIdEx(d->context, l->stream, l->per_thread_stream, &info.stream);
    if (gp_sessions_launched(&cs->sessions, &info, !ret || *ret == CUDA_SUCCESS))
        gp_profiled_add(d->correlationId);
    stop_watching_when_done();
}

static bool is_graph_launch(CUpti_CallbackId cbid)
{
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

/* ---- what the graph launches borrow (graph_launches.h) ----------------------------------- */

static gp_sessions *choose_node(CUcontext ctx, const gp_launch_info *node)
{
    return profiling(find_context(ctx), node);
}

static void end_pass_on(CUcontext ctx)
{
    end_pass_of(find_context(ctx));
}

static void suspend_range_profilers(uint32_t device)
{
    for (size_t i = 0; i < n_contexts; i++)
        if (contexts[i].sessions.device == device && contexts[i].sessions.collector) {
            end_pass_of(&contexts[i]);
            gp_profiler_suspend(contexts[i].sessions.collector->profiler);
        }
}

static const gp_graph_hooks graph_hooks = {
    .choose = choose_node, .end_pass = end_pass_on,
    .suspend_range_profilers = suspend_range_profilers};

void gp_launches_start_graphs(const gp_exec_options *o)
{
    gp_graph_launches_start(o->request.graph_profiling, wanted.metrics.kind != GP_METRICS_NONE,
                            &graph_hooks);
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
            lock();
            gp_graph_launch_enter(d);
        } else {
            gp_graph_launch_exit(d);
            unlock();
        }
        return;
    }
    if (!launch_facts_of(cbid, d->functionParams, &l))
        return;
    if (d->callbackSite == CUPTI_API_ENTER) {
        lock(); /* held until this launch's exit */
        on_enter(d, &l);
        return;
    }
    on_exit_of(d, &l);
    unlock();
}
