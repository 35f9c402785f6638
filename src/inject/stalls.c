/* The stall samplers of inject/stalls.h. */
#include "inject/stalls.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/pc_sampler.h"
#include "gpuprof/sass_source.h"
#include "gpuprof/status.h"
#include "gpuprof/record_format.h"
#include "inject/record.h"

#include <cupti.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_CONTEXTS 64

typedef struct {
    CUcontext ctx;
    uint32_t uid, device;
    gp_pc_sampler *sampler;
    uint64_t last_drain_ns;
    bool said_drain_failure;
} sampled_context;

static unsigned period;              /* Guard: none, set before any callback; 0: off */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
static sampled_context contexts[MAX_CONTEXTS]; /* Guard: lock */
static size_t n_contexts;                      /* Guard: lock */
static bool said_open_failure;                 /* Guard: lock */

void gp_stalls_start(unsigned period_log2)
{
    period = period_log2;
}

bool gp_stalls_on(void)
{
    return period != 0;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static sampled_context *find_locked(CUcontext ctx)
{
    for (size_t i = 0; i < n_contexts; i++)
        if (contexts[i].ctx == ctx)
            return &contexts[i];
    return NULL;
}

static void warn_open_failure_locked(uint32_t device)
{
    if (said_open_failure)
        return;
    said_open_failure = true;
    char text[GP_MESSAGE_LEN + 96];
    snprintf(text, sizeof text, "--stalls: PC sampling unavailable on device %u: %s", device,
             gp_error());
    gp_record_warning(text, gp_hint());
}

void gp_stalls_on_created(CUcontext ctx)
{
    if (!period)
        return;
    uint32_t uid = 0, device = 0; /* as the records name contexts and devices (contexts.c) */
    GP_CHECKED(cuptiGetContextId(ctx, &uid),
               "a context's warp stalls were recorded as context 0's");
    GP_CHECKED(cuptiGetDeviceId(ctx, &device),
               "a context's warp stalls were recorded on device 0");
    pthread_mutex_lock(&lock);
    gp_pc_sampler *s = NULL;
    if (n_contexts == MAX_CONTEXTS)
        gp_record_warning("--stalls: more contexts than gpuprof's library samples at once: "
                          "a context's kernels have no stall reasons", NULL);
    else if (gp_pc_sampler_open(ctx, period, &s) != GP_OK)
        warn_open_failure_locked(device);
    else
        contexts[n_contexts++] = (sampled_context){ctx, uid, device, s, now_ns(), false};
    gp_clear_error();
    pthread_mutex_unlock(&lock);
}

static void drain_locked(sampled_context *c)
{
    c->last_drain_ns = now_ns();
    if (gp_pc_sampler_drain(c->sampler) == GP_OK || c->said_drain_failure) {
        gp_clear_error();
        return;
    }
    c->said_drain_failure = true;
    char text[GP_MESSAGE_LEN + 96];
    snprintf(text, sizeof text, "--stalls: PC sampling's samples could not be read on device "
             "%u (%s): some are lost", c->device, gp_error());
    gp_record_warning(text, "a longer --stall-period samples less");
    gp_clear_error();
}

void gp_stalls_after_launch(CUcontext ctx)
{
    if (!period)
        return;
    pthread_mutex_lock(&lock);
    sampled_context *c = find_locked(ctx);
    if (c && now_ns() - c->last_drain_ns >= (uint64_t)GP_STALLS_DRAIN_MS * 1000000u)
        drain_locked(c);
    pthread_mutex_unlock(&lock);
}

/* ---- records ------------------------------------------------------------------------------- */

static void write_context(const sampled_context *c)
{
    const char *const *names;
    const size_t n = gp_pc_sampler_reasons(c->sampler, &names);
    const gp_pc_sampler_totals t = gp_pc_sampler_counted(c->sampler);
    gp_record r;
    gp_record_begin(&r, GP_RECORD_STALLS);
    gp_record_uint(&r, "context", c->uid);
    gp_record_uint(&r, "device", c->device);
    gp_record_uint(&r, "period", gp_pc_sampler_period(c->sampler));
    gp_record_strings(&r, "reasons", names, n);
    gp_record_uint(&r, "samples", t.samples);
    gp_record_uint(&r, "dropped", t.dropped);
    gp_record_uint(&r, "non_user", t.non_user);
    gp_record_uint(&r, "buffer_full", t.buffer_full);
    gp_record_uint(&r, "failures", t.failures);
    gp_record_end(&r);
}

/* The reasons with samples, as [[reason, samples], ...] (the context's record's order). */
static void write_samples(gp_record *r, const uint64_t *samples, size_t n)
{
    char json[64 * 48 + 8];
    size_t used = (size_t)snprintf(json, sizeof json, "[");
    for (size_t k = 0; k < n && used < sizeof json - 48; k++)
        if (samples[k])
            used += (size_t)snprintf(json + used, sizeof json - used, "%s[%zu,%llu]",
                                     used > 1 ? "," : "", k, (unsigned long long)samples[k]);
    snprintf(json + used, sizeof json - used, "]");
    gp_record_raw(r, "samples", json);
}

static void write_pc(const sampled_context *c, const gp_pc_sample *p, size_t n_reasons)
{
    char *file = NULL;
    uint32_t line = 0;
    const bool known = gp_cubins_line(p->code, p->function, p->pc, &file, &line);
    gp_record r;
    gp_record_begin(&r, GP_RECORD_STALL);
    gp_record_uint(&r, "context", c->uid);
    gp_record_string(&r, "kernel", p->function);
    gp_record_code(&r, "code", p->code);
    gp_record_uint(&r, "pc", p->pc);
    if (known) {
        gp_record_string(&r, "file", file);
        gp_record_uint(&r, "line", line);
    }
    write_samples(&r, p->samples, n_reasons);
    gp_record_end(&r);
    free(file);
}

/* Closed, written and freed; the table's slot given up. */
static void finish_locked(sampled_context *c)
{
    if (gp_pc_sampler_close(c->sampler) != GP_OK) {
        char text[GP_MESSAGE_LEN + 96];
        snprintf(text, sizeof text, "--stalls: PC sampling did not end cleanly on device %u "
                 "(%s): the last samples may be lost", c->device, gp_error());
        gp_record_warning(text, NULL);
    }
    gp_clear_error();
    write_context(c);
    const char *const *names;
    const size_t n_reasons = gp_pc_sampler_reasons(c->sampler, &names);
    size_t cursor = 0;
    for (gp_pc_sample p; gp_pc_sampler_next(c->sampler, &cursor, &p);)
        write_pc(c, &p, n_reasons);
    gp_pc_sampler_free(c->sampler);
    *c = contexts[--n_contexts];
}

void gp_stalls_on_destroyed(CUcontext ctx)
{
    if (!period)
        return;
    pthread_mutex_lock(&lock);
    sampled_context *c = find_locked(ctx);
    if (c)
        finish_locked(c);
    pthread_mutex_unlock(&lock);
}

void gp_stalls_finish(void)
{
    if (!period)
        return;
    pthread_mutex_lock(&lock);
    while (n_contexts)
        finish_locked(&contexts[n_contexts - 1]);
    pthread_mutex_unlock(&lock);
}
