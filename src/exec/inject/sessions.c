/* The sessions of include file sessions.h: per launch with kernel replay, one pass around
 * consecutive launches without. */
#include "exec/inject/sessions.h"

#include "gpuprof/status.h"
#include "exec/protocol.h"
#include "exec/inject/record.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Counters of one pass need no replay: the program's own run of each kernel is the pass. */
static bool one_pass(const gp_collector *c)
{
    return c->passes == 1;
}

static size_t capacity(const gp_collector *c)
{
    return one_pass(c) ? GP_PASS_RANGES : 1;
}

int gp_sessions_attach(gp_sessions *s, gp_collector *c)
{
    const gp_replay replay = one_pass(c) ? GP_REPLAY_USER : GP_REPLAY_KERNEL;
    const int rc = gp_collector_attach(c, s->ctx, replay, capacity(c));
    if (rc == GP_OK)
        s->collector = c;
    return rc;
}

static void write_launch(const gp_sessions *s, const gp_launch_info *l, const double *values)
{
    gp_record r;
    gp_record_begin(&r, GP_RECORD_LAUNCH);
    gp_record_int(&r, "pid", getpid());
    gp_record_uint(&r, "id", l->id);
    gp_record_uint(&r, "context", s->uid);
    gp_record_uint(&r, "device", s->device);
    gp_record_uint(&r, "stream", l->stream);
    gp_record_string(&r, "kernel", l->kernel);
    gp_record_dim(&r, "grid", l->grid[0], l->grid[1], l->grid[2]);
    gp_record_dim(&r, "block", l->block[0], l->block[1], l->block[2]);
    gp_record_uint(&r, "smem", l->smem);
    gp_record_int(&r, "profiled", values != NULL);
    if (values)
        gp_record_numbers(&r, "values", values, s->collector->n_counters);
    gp_record_end(&r);
}

static void warn_error(void)
{
    gp_record_warning(gp_error(), gp_hint());
}

bool gp_sessions_start(gp_sessions *s)
{
    if (s->pass_open)
        return true;
    gp_profiler *p = s->collector->profiler;
    if (gp_profiler_begin(p, capacity(s->collector)) != GP_OK ||
        gp_profiler_start(p) != GP_OK) {
        warn_error();
        return false;
    }
    s->pass_open = one_pass(s->collector);
    return true;
}

/* Stop and decode: the ranges recorded, or 0 after a failure (said as a warning). The
 * context's work is waited for first, since decoding needs the pass's kernels complete. */
static size_t stop_and_decode(gp_sessions *s)
{
    bool last = false;
    size_t ranges = 0;
    gp_profiler *p = s->collector->profiler;
    int rc = gp_profiler_stop(p, &last);
    if (rc == GP_OK && one_pass(s->collector)) {
        /* Relaxed: another thread's graph capture is not broken by this synchronisation. */
        CUcontext was = NULL;
        CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
        cuThreadExchangeStreamCaptureMode(&mode);
        if (cuCtxPushCurrent(s->ctx) == CUDA_SUCCESS) {
            cuCtxSynchronize();
            cuCtxPopCurrent(&was);
        }
        cuThreadExchangeStreamCaptureMode(&mode);
    }
    if (rc == GP_OK)
        rc = gp_profiler_end(p, &ranges);
    if (rc != GP_OK) {
        warn_error();
        return 0;
    }
    return ranges;
}

/* Each launch with its range's counters, in launch order; without counters when CUPTI
 * recorded another number of ranges than launches (nothing then says which is which).
 * The number written with counters. */
static size_t write_ranges(gp_sessions *s, const gp_launch_info *launches, size_t n,
                           size_t ranges)
{
    if (ranges != n && n > 0)
        gp_record_warning("CUPTI recorded a different number of ranges than profiled "
                          "launches: their counters are not reported", NULL);
    size_t with_counters = 0;
    for (size_t i = 0; i < n; i++) {
        double values[GP_MAX_COUNTERS];
        bool read = ranges == n && gp_profiler_read(s->collector->profiler, i, values) == GP_OK;
        if (ranges == n && !read)
            warn_error();
        write_launch(s, &launches[i], read ? values : NULL);
        with_counters += read;
    }
    return with_counters;
}

void gp_sessions_end_pass(gp_sessions *s)
{
    if (!s->pass_open)
        return;
    s->pass_open = false;
    write_ranges(s, s->pending, s->n_pending, stop_and_decode(s));
    for (size_t i = 0; i < s->n_pending; i++)
        free(s->pending[i].kernel);
    s->n_pending = 0;
}

static void add_pending(gp_sessions *s, const gp_launch_info *l)
{
    /* Its range is in the pass already: a launch that cannot be kept leaves the pass more
     * ranges than launches, all then reported without counters. */
    gp_launch_info *p = &s->pending[s->n_pending];
    *p = *l;
    p->kernel = strdup(l->kernel);
    if (!p->kernel) {
        gp_record_warning("out of host memory: a profiled launch is not reported", NULL);
        return;
    }
    s->n_pending++;
}

bool gp_sessions_launched(gp_sessions *s, const gp_launch_info *l, bool ran)
{
    if (!one_pass(s->collector)) {
        const size_t ranges = stop_and_decode(s);
        return ran && write_ranges(s, l, 1, ranges) == 1;
    }
    if (!ran) {
        gp_sessions_end_pass(s); /* whatever CUPTI made of a launch that failed stays apart */
        return false;
    }
    add_pending(s, l);
    if (s->n_pending == GP_PASS_RANGES)
        gp_sessions_end_pass(s);
    return true;
}
