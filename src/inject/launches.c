/* The launch callbacks: choose the launches to profile (ncu's filters), and profile each one
 * in a session of its own on its context: Start at the launch's API entry, kernel replay
 * while the driver runs it (CUPTI saves and restores device memory between passes, so an
 * in-place kernel still computes its result), Stop, decode and write its counters at the API
 * exit. One lock is held from every launch's entry to its exit, so no other thread's kernel
 * falls into a profiled launch's session, and a launch being captured into a CUDA graph is
 * left alone (it runs later, as a graph node). */
#include "gpuprof/collector.h"
#include "gpuprof/demangle.h"
#include "gpuprof/status.h"
#include "inject.h"
#include "record.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CONTEXTS 64
/* What the entry callback tells the exit callback of the same launch (its correlationData). */
#define ORDINARY 0u
#define STARTED 1u   /* its session was started */

typedef struct {
    CUcontext ctx;
    uint32_t uid, device;
    gp_collector *collector;   /* opened at the first launch to profile */
    bool tried;                /* opening was tried (and failed when collector is NULL) */
} context_state;

/* A distinct kernel (by mangled name): whether the filter takes it, launches profiled. */
typedef struct {
    char *name;
    bool matches;
    uint64_t profiled;
} kernel_state;

static pthread_mutex_t launch_lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static context_state contexts[MAX_CONTEXTS];
static size_t n_contexts;
static kernel_state *kernels;      /* open addressing, power-of-two size */
static size_t kernel_slots, n_kernels;
static uint64_t matching_launches, profiled_launches;

/* Correlation ids of the profiled launches, read by the activity thread. */
static pthread_mutex_t profiled_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t *profiled_ids;     /* open addressing; 0 is free (ids start at 1) */
static size_t profiled_slots, n_profiled_ids;

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

static void unlock(void)
{
    pthread_mutex_unlock(&launch_lock);
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* ---- the profiled launches' ids ------------------------------------------------------------ */

static bool insert_id(uint32_t *slots, size_t n, uint32_t id)
{
    for (size_t i = id & (n - 1);; i = (i + 1) & (n - 1)) {
        if (slots[i] == id)
            return false;
        if (slots[i] == 0) {
            slots[i] = id;
            return true;
        }
    }
}

static void remember_profiled(uint32_t id)
{
    pthread_mutex_lock(&profiled_lock);
    if (2 * (n_profiled_ids + 1) > profiled_slots) {
        size_t slots = profiled_slots ? 2 * profiled_slots : 1024;
        uint32_t *bigger = calloc(slots, sizeof *bigger);
        for (size_t i = 0; bigger && i < profiled_slots; i++)
            if (profiled_ids[i])
                insert_id(bigger, slots, profiled_ids[i]);
        if (bigger) {
            free(profiled_ids);
            profiled_ids = bigger;
            profiled_slots = slots;
        }
    }
    if (profiled_ids && 2 * (n_profiled_ids + 1) <= profiled_slots)
        n_profiled_ids += insert_id(profiled_ids, profiled_slots, id);
    pthread_mutex_unlock(&profiled_lock);
}

bool gp_launches_was_profiled(uint32_t id)
{
    bool found = false;
    pthread_mutex_lock(&profiled_lock);
    for (size_t i = id & (profiled_slots - 1); profiled_slots && profiled_ids[i];
         i = (i + 1) & (profiled_slots - 1))
        if (profiled_ids[i] == id) {
            found = true;
            break;
        }
    pthread_mutex_unlock(&profiled_lock);
    return found;
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

static bool filter_matches(const char *mangled)
{
    if (!gp_inject.has_regex)
        return true;
    if (regexec(&gp_inject.regex, mangled, 0, NULL, 0) == 0)
        return true;
    char *demangled = gp_demangle(mangled);
    bool match = demangled && regexec(&gp_inject.regex, demangled, 0, NULL, 0) == 0;
    free(demangled);
    return match;
}

static kernel_state *slot_of(kernel_state *table, size_t slots, const char *name)
{
    for (size_t i = hash_name(name) & (slots - 1);; i = (i + 1) & (slots - 1))
        if (!table[i].name || strcmp(table[i].name, name) == 0)
            return &table[i];
}

static bool grow_kernels(void)
{
    size_t slots = kernel_slots ? 2 * kernel_slots : 256;
    kernel_state *bigger = calloc(slots, sizeof *bigger);
    if (!bigger)
        return false;
    for (size_t i = 0; i < kernel_slots; i++)
        if (kernels[i].name)
            *slot_of(bigger, slots, kernels[i].name) = kernels[i];
    free(kernels);
    kernels = bigger;
    kernel_slots = slots;
    return true;
}

static kernel_state *kernel_named(const char *name)
{
    if (2 * (n_kernels + 1) > kernel_slots && !grow_kernels())
        return NULL;
    kernel_state *k = slot_of(kernels, kernel_slots, name);
    if (!k->name) {
        k->name = strdup(name);
        if (!k->name)
            return NULL;
        k->matches = filter_matches(name);
        n_kernels++;
    }
    return k;
}

/* ncu's order: the filter by name, then --launch-skip and --launch-count over the launches
 * it takes, then at most --per-kernel of each kernel. A launch being captured into a graph
 * does not run now: it counts for none of them. */
static bool choose(const char *name, const launch_facts *l)
{
    kernel_state *k = kernel_named(name);
    if (!k || !k->matches || being_captured(l))
        return false;
    const uint64_t index = matching_launches++;
    if (index < gp_inject.skip || profiled_launches >= gp_inject.count ||
        k->profiled >= gp_inject.per_kernel)
        return false;
    k->profiled++;
    profiled_launches++;
    return true;
}

/* ---- contexts and their profilers -------------------------------------------------------- */

static context_state *find_context(CUcontext ctx)
{
    for (size_t i = 0; i < n_contexts; i++)
        if (contexts[i].ctx == ctx)
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
    gp_record_begin(&r, "device");
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
        contexts[n_contexts++] = (context_state){.ctx = ctx, .uid = uid, .device = device};
    unlock();
}

static void write_profiler(const context_state *cs)
{
    const gp_collector *c = cs->collector;
    const char *keys[GP_MAX_METRIC_NAMES + 32], *units[GP_MAX_METRIC_NAMES + 32],
        *missing[GP_MAX_METRIC_NAMES + 32];
    for (size_t i = 0; i < c->n_metrics; i++) {
        const gp_selected_metric *s = &c->metrics[i];
        keys[i] = s->def ? s->def->key : s->raw_name;
        units[i] = s->def ? s->def->unit : s->raw_unit;
        missing[i] = s->missing ? s->missing : "";
    }
    gp_record r;
    gp_record_begin(&r, "profiler");
    gp_record_int(&r, "pid", getpid());
    gp_record_uint(&r, "context", cs->uid);
    gp_record_string(&r, "chip", c->chip);
    gp_record_int(&r, "passes", c->passes);
    gp_record_string(&r, "set", gp_metrics_kind_name(c->kind));
    gp_record_strings(&r, "counters", c->counters, c->n_counters);
    gp_record_strings(&r, "metrics", keys, c->n_metrics);
    gp_record_strings(&r, "units", units, c->n_metrics);
    gp_record_strings(&r, "missing", missing, c->n_metrics);
    gp_record_end(&r);
}

/* The context's profiler, opened the first time one of its launches is to be profiled. A
 * failure (no permission, another profiler) is said once; its launches are then only timed. */
static gp_collector *collector_of(context_state *cs)
{
    if (cs->tried)
        return cs->collector;
    cs->tried = true;
    gp_collector *c = NULL;
    int rc = gp_collector_open((int)cs->device, &gp_inject.metrics, &c);
    /* Counters that fit in one pass need no replay: the program's own run of the kernel is
     * the pass, and nothing is saved or restored. */
    if (rc == GP_OK)
        rc = gp_collector_attach(c, cs->ctx, c->passes == 1 ? GP_REPLAY_USER : GP_REPLAY_KERNEL,
                                 1);
    if (rc != GP_OK) {
        char text[GP_MESSAGE_LEN + 64];
        snprintf(text, sizeof text, "metrics unavailable on device %u: %s", cs->device,
                 gp_error());
        gp_inject_warn(text, gp_hint());
        gp_collector_close(c);
        return NULL;
    }
    cs->collector = c;
    write_profiler(cs);
    return c;
}

void gp_launches_on_context_destroyed(CUcontext ctx)
{
    lock();
    context_state *cs = find_context(ctx);
    if (cs) {
        gp_collector_close(cs->collector); /* its range profiler ends with the context */
        *cs = contexts[--n_contexts];
    }
    unlock();
}

/* ---- one launch ---------------------------------------------------------------------------- */

static void write_launch(const CUpti_CallbackData *d, const context_state *cs,
                         const launch_facts *l, const double *values, size_t n_values)
{
    uint32_t stream_id = 0;
    cuptiGetStreamIdEx(d->context, l->stream, l->per_thread_stream, &stream_id);
    gp_record r;
    gp_record_begin(&r, "launch");
    gp_record_int(&r, "pid", getpid());
    gp_record_uint(&r, "id", d->correlationId);
    gp_record_uint(&r, "context", cs ? cs->uid : d->contextUid);
    gp_record_uint(&r, "device", cs ? cs->device : 0);
    gp_record_uint(&r, "stream", stream_id);
    gp_record_string(&r, "kernel", d->symbolName);
    gp_record_dim(&r, "grid", l->grid[0], l->grid[1], l->grid[2]);
    gp_record_dim(&r, "block", l->block[0], l->block[1], l->block[2]);
    gp_record_uint(&r, "smem", l->smem);
    gp_record_int(&r, "profiled", values != NULL);
    if (values)
        gp_record_numbers(&r, "values", values, n_values);
    gp_record_end(&r);
}

/* After the last launch --launch-count allows, no launch needs a callback. */
static void stop_watching_when_done(void)
{
    if (profiled_launches >= gp_inject.count)
        gp_inject_stop_launch_callbacks();
}

/* API entry: start a session when this launch is to be profiled. */
static void on_enter(const CUpti_CallbackData *d, const launch_facts *l)
{
    *d->correlationData = ORDINARY;
    if (!d->symbolName || !choose(d->symbolName, l))
        return;
    context_state *cs = find_context(d->context);
    gp_collector *c = cs ? collector_of(cs) : NULL;
    if (!c)
        return;
    if (gp_profiler_begin(c->profiler, 1) != GP_OK || gp_profiler_start(c->profiler) != GP_OK) {
        gp_inject_warn(gp_error(), gp_hint());
        return;
    }
    *d->correlationData = STARTED;
}

/* The session of a profiled launch: its one range's counters, or NULL when there is none. */
static bool finish_session(gp_collector *c, double *values)
{
    bool last = false;
    size_t ranges = 0;
    if (gp_profiler_stop(c->profiler, &last) != GP_OK ||
        gp_profiler_end(c->profiler, &ranges) != GP_OK) {
        gp_inject_warn(gp_error(), gp_hint());
        return false;
    }
    if (ranges != 1)
        return false;
    if (gp_profiler_read(c->profiler, 0, values) != GP_OK) {
        gp_inject_warn(gp_error(), gp_hint());
        return false;
    }
    return true;
}

/* API exit of a profiled launch: stop its session, write it with its counters. The others
 * need no record here: their activity records say all there is. */
static void on_exit_of(const CUpti_CallbackData *d, const launch_facts *l)
{
    if (*d->correlationData != STARTED)
        return;
    const CUresult *ret = d->functionReturnValue;
    context_state *cs = find_context(d->context);
    double values[GP_MAX_COUNTERS];
    const bool profiled = cs && cs->collector && finish_session(cs->collector, values);
    if (ret && *ret != CUDA_SUCCESS)
        return; /* nothing ran */
    if (profiled)
        remember_profiled(d->correlationId);
    write_launch(d, cs, l, profiled ? values : NULL, profiled ? cs->collector->n_counters : 0);
    stop_watching_when_done();
}

/* Once: CUPTI's kernel replay collects no counters of the SASS instrumentation (sectors,
 * requests, efficiencies) for a graph's kernel nodes, so gpuprof profiles none of them. */
static void say_graphs_are_timed(void)
{
    static bool said;
    if (said)
        return;
    said = true;
    gp_inject_warn("kernels launched from CUDA graphs are timed, not profiled: CUPTI's kernel "
                   "replay gives their nodes no instruction-level counters",
                   "to profile such a kernel, launch it outside a graph");
}

static bool is_graph_launch(CUpti_CallbackId cbid)
{
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

void gp_launches_on_callback(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    launch_facts l;
    if (is_graph_launch(cbid)) {
        /* A graph's kernels are timed, not profiled; launching it under the lock keeps them
         * out of another thread's profiled session. */
        if (d->callbackSite == CUPTI_API_ENTER) {
            lock();
            say_graphs_are_timed();
        } else {
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
