/* The contexts of inject/contexts.h. */
#include "inject/contexts.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/collector.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/profiler.h"
#include "gpuprof/status.h"
#include "inject/filters.h"
#include "inject/locks.h"
#include "inject/record.h"
#include "inject/streams.h"

#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_CONTEXTS 64

typedef struct {
    gp_sessions sessions;      /* its collector opened at the first launch to profile */
    bool tried;                /* opening was tried (and failed when the collector is NULL) */
} context_state;

/* What the contexts' profilers collect. Guard: none, written by gp_contexts_start before any
 * callback. */
static struct {
    gp_metrics_request metrics;
    gp_exec_replay replay;        /* --replay */
    unsigned app_pass;            /* application: the group this run collects */
} wanted;

static context_state contexts[MAX_CONTEXTS]; /* Guard: the launch lock */
static size_t n_contexts;                    /* Guard: the launch lock */

void gp_contexts_start(const gp_exec_options *o)
{
    wanted.metrics = o->metrics;
    wanted.replay = o->request.replay;
    wanted.app_pass = o->app_pass;
}

static context_state *find_context(CUcontext ctx)
{
    for (size_t i = 0; i < n_contexts; i++)
        if (contexts[i].sessions.ctx == ctx)
            return &contexts[i];
    return NULL;
}

/* ---- creation and destruction ------------------------------------------------------------ */

/* A device's attribute; 0 where CUDA does not say. */
static int attribute(CUdevice dev, CUdevice_attribute a)
{
    int value = 0;
    GP_CHECKED(cuDeviceGetAttribute(&value, a, dev),
               "a device attribute was recorded as 0: its peak bandwidth may be unknown");
    return value;
}

static void write_device(uint32_t uid, uint32_t ordinal)
{
    CUdevice dev;
    if (cuDeviceGet(&dev, (int)ordinal) != CUDA_SUCCESS)
        return;
    char name[256] = "";
    size_t memory = 0;
    GP_CHECKED(cuDeviceGetName(name, sizeof name, dev), "a device was recorded without its name");
    GP_CHECKED(cuDeviceTotalMem(&memory, dev), "a device was recorded without its memory");
    gp_record r;
    gp_record_begin(&r, GP_RECORD_DEVICE);
    gp_record_uint(&r, "context", uid);
    gp_record_uint(&r, "device", ordinal);
    gp_record_string(&r, "name", name);
    gp_record_int(&r, "cc_major", attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
    gp_record_int(&r, "cc_minor", attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    gp_record_int(&r, "sms", attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
    gp_record_uint(&r, "memory", memory);
    gp_record_int(&r, "l2", attribute(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
    gp_record_int(&r, "sm_clock_khz", attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
    gp_record_int(&r, "memory_clock_khz", attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE));
    gp_record_int(&r, "bus_bits", attribute(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH));
    gp_record_end(&r);
}

static void warn_table_full(uint32_t uid, uint32_t device)
{
    char text[160];
    snprintf(text, sizeof text, "CUDA context %u on device %u is timed, not profiled: gpuprof's "
             "library keeps %d contexts at most", uid, device, MAX_CONTEXTS);
    gp_record_warning(text, "destroy contexts the program no longer uses, or profile fewer "
                      "at a time (--kernel)");
}

void gp_contexts_on_created(CUcontext ctx)
{
    uint32_t uid = 0, device = 0;
    GP_CHECKED(cuptiGetContextId(ctx, &uid),
               "a context was recorded as context 0: its launches may be mixed with another's");
    GP_CHECKED(cuptiGetDeviceId(ctx, &device),
               "a context was recorded on device 0: its launches may name the wrong GPU");
    write_device(uid, device);
    gp_launch_lock();
    if (n_contexts < MAX_CONTEXTS)
        contexts[n_contexts++] =
            (context_state){.sessions = {.ctx = ctx, .uid = uid, .device = device}};
    else
        warn_table_full(uid, device);
    gp_launch_unlock();
}

static void end_pass_of(context_state *cs)
{
    if (cs && cs->sessions.collector)
        gp_sessions_end_pass(&cs->sessions);
}

void gp_contexts_on_destroyed(CUcontext ctx)
{
    gp_launch_lock();
    context_state *cs = find_context(ctx);
    if (cs) {
        end_pass_of(cs);
        if (cs->sessions.collector)
            gp_sessions_detach(&cs->sessions);
        *cs = contexts[--n_contexts];
    }
    gp_streams_forget(ctx);
    gp_launch_unlock();
}

/* ---- profilers ----------------------------------------------------------------------------- */

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

gp_sessions *gp_contexts_profile(CUcontext ctx, const gp_launch_info *launch, gp_take take)
{
    context_state *cs = find_context(ctx);
    if (cs)
        gp_sessions_saw(&cs->sessions, launch);
    gp_filter_kernel *k = NULL;
    const gp_filter_choice c =
        launch->kernel ? gp_filters_choose(launch->kernel, &k) : GP_FILTER_NOT_CHOSEN;
    if (c == GP_FILTER_NOT_CHOSEN || take == GP_TAKE_NONE)
        return NULL;
    gp_sessions *s = cs ? sessions_of(cs) : NULL;
    const bool only_lacking = c == GP_FILTER_BEYOND_QUOTA || take == GP_TAKE_LACKING;
    if (!s || gp_sessions_refuses(s, launch) || (only_lacking && !gp_sessions_lacks(s, launch)))
        return NULL;
    gp_filters_profiled(k);
    return s;
}

gp_sessions *gp_contexts_sessions(CUcontext ctx)
{
    context_state *cs = find_context(ctx);
    return cs && cs->sessions.collector ? &cs->sessions : NULL;
}

/* ---- passes -------------------------------------------------------------------------------- */

void gp_contexts_end_pass(CUcontext ctx)
{
    end_pass_of(find_context(ctx));
}

void gp_contexts_end_all_passes(void)
{
    for (size_t i = 0; i < n_contexts; i++)
        end_pass_of(&contexts[i]);
}

static void suspend_range_profiler_of(context_state *cs)
{
    if (!cs || !cs->sessions.collector)
        return;
    end_pass_of(cs);
    gp_profiler_suspend(cs->sessions.collector->profiler);
}

void gp_contexts_suspend_range_profiler(CUcontext ctx)
{
    suspend_range_profiler_of(find_context(ctx));
}

void gp_contexts_suspend_range_profilers(uint32_t device)
{
    for (size_t i = 0; i < n_contexts; i++)
        if (contexts[i].sessions.device == device)
            suspend_range_profiler_of(&contexts[i]);
}

void gp_contexts_end_passes(bool may_wait)
{
    if (may_wait)
        gp_launch_lock();
    else if (!gp_launch_trylock()) {
        gp_record_warning("the process crashed while another thread was inside a launch: the "
                          "launches of its open profiling pass are lost", NULL);
        return;
    }
    gp_contexts_end_all_passes();
    gp_launch_unlock();
}
