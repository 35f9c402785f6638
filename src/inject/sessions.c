/* The sessions of sessions.h: which set each launch collects, a session per launch with
 * kernel replay, one pass around consecutive launches of one set without. */
#include "inject/sessions.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/demangle.h"
#include "gpuprof/status.h"
#include "gpuprof/protocol.h"
#include "inject/launch_ranges.h"
#include "inject/record.h"
#include "inject/sampling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the sets ------------------------------------------------------------------------------ */

/* A set's profiler configuration: the whole set is configuration 0, a group its own. */
static size_t config_of(const gp_sessions *s, int set)
{
    return set >= 0 ? s->collector->groups[set].config : 0;
}

/* A set of several passes needs kernel replay. So does one of SASS counters: CUPTI
 * instruments a kernel's code for them when it replays it, and a kernel that ran in a pass
 * started at its own launch (user replay) counted nothing (H100, CUDA 13.0); with one pass
 * the kernel runs once, and no memory is saved or restored. The others are collected in the
 * program's own runs, a pass around consecutive launches. */
static gp_replay replay_of(const gp_collector *c, int set)
{
    const bool sass = set >= 0 ? c->groups[set].sass : gp_collector_has_sass(c);
    const int passes = set >= 0 ? c->groups[set].passes : c->passes;
    return passes > 1 || sass ? GP_REPLAY_KERNEL : GP_REPLAY_USER;
}

/* Whether the mode collects the set in one-pass groups: it takes several passes, and the
 * mode avoids replaying them. */
static bool rotates(const gp_collector *c, gp_exec_replay mode)
{
    return c->passes > 1 && mode != GP_EXEC_REPLAY_KERNEL;
}

/* Whether any set the sessions may begin is collected in passes around several launches:
 * room for GP_PASS_RANGES ranges then, else one (a range profiler's start costs more the
 * more it holds). */
static bool any_windows(const gp_collector *c, bool rotating)
{
    for (size_t g = 0; rotating && g < c->n_groups; g++)
        if (replay_of(c, (int)g) == GP_REPLAY_USER)
            return true;
    return replay_of(c, GP_SET_WHOLE) == GP_REPLAY_USER;
}

int gp_sessions_attach(gp_sessions *s, gp_collector *c, gp_exec_replay mode, unsigned app_pass)
{
    const bool rotating = rotates(c, mode);
    if (rotating)
        GP_TRY(gp_collector_split(c));
    const gp_replay first = rotating ? GP_REPLAY_USER : replay_of(c, GP_SET_WHOLE);
    const int rc = gp_collector_attach(c, s->ctx, first,
                                       any_windows(c, rotating) ? GP_PASS_RANGES : 1);
    if (rc != GP_OK)
        return rc;
    s->collector = c;
    s->rotation = (gp_rotation){.mode = mode, .n_groups = c->n_groups, .app_pass = app_pass,
                                .recollect = mode == GP_EXEC_REPLAY_AUTO ||
                                             mode == GP_EXEC_REPLAY_ROTATE};
    gp_hashmap_init(&s->signatures, sizeof(gp_signature_state));
    s->latest = GP_SET_NONE;
    s->auto_replays = -1;
    return GP_OK;
}

void gp_sessions_detach(gp_sessions *s)
{
    gp_collector_close(s->collector); /* its range profiler ends with the context */
    s->collector = NULL;
    gp_hashmap_free(&s->signatures);
}

/* A shadow launch never takes auto's first kernel replay of the whole set: the graph's
 * memory is saved once for all its nodes (graph_launches.h), and each node collects one
 * group per profiled graph launch, as the rotation's later launches do. Nor does a
 * collective: replayed without its peers it would wait for them forever or exchange stale
 * data, so it collects one group per launch, rotating over its launches. */
static gp_rotation rotation_for(const gp_sessions *s, const gp_launch_info *l)
{
    gp_rotation r = s->rotation;
    if ((l->shadow || l->collective || s->collectives) && r.mode == GP_EXEC_REPLAY_AUTO)
        r.mode = GP_EXEC_REPLAY_ROTATE;
    r.recollect = r.recollect && !l->shadow;
    return r;
}

void gp_sessions_saw(gp_sessions *s, const gp_launch_info *l)
{
    s->collectives = s->collectives || l->collective;
}

/* A kernel as a warning names it: demangled (as ncu prints it), cut to 80 characters. */
static void warning_name(const char *mangled, char *buf, size_t len)
{
    char *demangled = gp_demangle(mangled);
    const char *name = demangled ? demangled : mangled;
    snprintf(buf, len, strlen(name) > 80 ? "%.77s..." : "%s", name);
    free(demangled);
}

/* The first launch auto would have replayed but for the collectives says so, once. */
static void say_no_replay_for_collectives(gp_sessions *s, const gp_launch_info *l,
                                          const gp_signature_state *state)
{
    if (s->said_collectives || !s->collectives || l->collective || l->shadow || !state ||
        s->rotation.mode != GP_EXEC_REPLAY_AUTO ||
        gp_rotation_choose(&s->rotation, state, s->latest) != GP_SET_WHOLE)
        return;
    s->said_collectives = true;
    char name[96], text[256];
    warning_name(l->kernel, name, sizeof name);
    snprintf(text, sizeof text, "--replay=auto replays no launch once a collective kernel "
             "ran: from %s on, first launches collect one group each", name);
    gp_record_warning(text, "a replay restores device memory that a collective's peers "
                      "write while it runs");
}


/* --replay=kernel replays every profiled launch whose set takes several passes. A collective
 * is left to run once, timed only (its groups were never split: a set of one pass runs the
 * kernel once and is collected), and so is every launch after one: the peers of a
 * collective write into this device's memory whenever they run (NCCL's buffers and flags),
 * and a replay's restore would undo what they wrote; the DDP loop hung so, even with the
 * context synchronised before each replay (H100, NCCL of PyTorch 2.11). */
bool gp_sessions_refuses(gp_sessions *s, const gp_launch_info *l)
{
    if (!(l->collective || s->collectives) || s->rotation.mode != GP_EXEC_REPLAY_KERNEL ||
        s->collector->passes <= 1)
        return false;
    if (!s->refused_collective) {
        s->refused_collective = true;
        char name[96], text[256];
        warning_name(l->kernel, name, sizeof name);
        snprintf(text, sizeof text, "--replay=kernel does not replay collective kernels, nor "
                 "any launch once one ran (from %s on): they are timed, without counters",
                 name);
        gp_record_warning(text, "a replay restores device memory that a collective's peers "
                          "write; --replay=auto or rotate collect counters one group per "
                          "launch");
    }
    return true;
}

void gp_sessions_synchronise(CUcontext ctx)
{
    CUcontext was = NULL;
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    GP_CHECKED(cuThreadExchangeStreamCaptureMode(&mode),
               "a capture on this thread may have been spoiled by the synchronisation");
    if (cuCtxPushCurrent(ctx) == CUDA_SUCCESS) {
        GP_CHECKED(cuCtxSynchronize(),
                   "a context did not synchronise: its open pass may lack launches");
        GP_CHECKED(cuCtxPopCurrent(&was),
                   "the program's current context may have been left changed");
    }
    GP_CHECKED(cuThreadExchangeStreamCaptureMode(&mode),
               "the thread's stream capture mode may have been left changed");
}

/* ---- auto's footprint ---------------------------------------------------------------------- */

static void write_footprint(const gp_sessions *s, bool replay, size_t held, size_t free_bytes,
                            size_t total)
{
    gp_record r;
    gp_record_begin(&r, GP_RECORD_FOOTPRINT);
    gp_record_uint(&r, "context", s->uid);
    gp_record_int(&r, "replay", replay);
    gp_record_uint(&r, "held", held);
    gp_record_uint(&r, "free", free_bytes);
    gp_record_uint(&r, "total", total);
    gp_record_uint(&r, "budget", GP_AUTO_REPLAY_BUDGET);
    gp_record_end(&r);
}

/* Whether auto may replay a first launch now: the device memory in use (all of which kernel
 * replay saves) fits in free device memory and in GP_AUTO_REPLAY_BUDGET. The context is the
 * launch's, current. A change of decision is written as a `footprint` record. */
static bool auto_may_replay(gp_sessions *s)
{
    size_t free_bytes = 0, total = 0;
    if (cuMemGetInfo(&free_bytes, &total) != CUDA_SUCCESS)
        return s->auto_replays != 0; /* unknown now: the latest decision holds */
    const size_t held = total > free_bytes ? total - free_bytes : 0;
    const bool replay = held <= free_bytes && held <= GP_AUTO_REPLAY_BUDGET;
    if (s->auto_replays != (int)replay)
        write_footprint(s, replay, held, free_bytes, total);
    s->auto_replays = replay;
    return replay;
}

/* ---- signatures ---------------------------------------------------------------------------- */

/* What tells launches of one kernel apart on a context: its code and shape, then its name
 * (one name and shape may run several codes: inject/codes.h). */
typedef struct {
    uint64_t code;
    unsigned grid[3], block[3], smem;
} signature_shape;

/* The signature's state (added when new); NULL when memory ran out. */
static gp_signature_state *signature_of(gp_sessions *s, const gp_launch_info *l)
{
    signature_shape shape;
    memset(&shape, 0, sizeof shape); /* its tail padding is part of the key: zero */
    shape.code = l->code;
    memcpy(shape.grid, l->grid, sizeof shape.grid);
    memcpy(shape.block, l->block, sizeof shape.block);
    shape.smem = l->smem;
    return gp_hashmap_add_named(&s->signatures, &shape, sizeof shape, l->kernel, NULL);
}

bool gp_sessions_lacks(gp_sessions *s, const gp_launch_info *l)
{
    const gp_signature_state *state = signature_of(s, l);
    const gp_rotation rotation = rotation_for(s, l);
    return state && gp_rotation_lacks(&rotation, state);
}

/* ---- records ------------------------------------------------------------------------------- */

/* The counters of the set's configuration (values, in its order) at their places in the
 * whole set's order; NaN where the set has none. */
static void whole_values(const gp_sessions *s, int set, const double *values, double *out)
{
    const gp_collector *c = s->collector;
    if (set < 0) {
        memcpy(out, values, c->n_counters * sizeof *out);
        return;
    }
    for (size_t i = 0; i < c->n_counters; i++)
        out[i] = NAN;
    for (size_t k = 0; k < c->groups[set].n_counters; k++)
        out[c->groups[set].counters[k]] = values[k];
}

static void write_passes(gp_record *r, const gp_sessions *s, int set)
{
    if (s->rotation.n_groups == 0)
        return; /* no groups: the values are the whole set's */
    const gp_group_mask mask = gp_rotation_groups(&s->rotation, set);
    double groups[GP_MAX_GROUPS];
    size_t n = 0;
    for (size_t g = 0; g < s->rotation.n_groups; g++)
        if (mask & ((gp_group_mask)1 << g))
            groups[n++] = (double)g;
    gp_record_numbers(r, "passes", groups, n);
}

static void write_launch(const gp_sessions *s, const gp_launch_info *l, int set,
                         const double *values)
{
    gp_record r;
    gp_record_begin(&r, GP_RECORD_LAUNCH);
    gp_record_uint(&r, "id", l->id);
    gp_record_uint(&r, "context", s->uid);
    gp_record_uint(&r, "device", s->device);
    gp_record_uint(&r, "stream", l->stream);
    gp_record_string(&r, "kernel", l->kernel);
    gp_record_code(&r, "code", l->code);
    gp_record_dim(&r, "grid", l->grid[0], l->grid[1], l->grid[2]);
    gp_record_dim(&r, "block", l->block[0], l->block[1], l->block[2]);
    gp_record_uint(&r, "smem", l->smem);
    if (l->shadow || l->whole_graph) {
        gp_record_uint(&r, "graph", l->graph);
        gp_record_uint(&r, "node", l->node);
        gp_record_string(&r, "how", l->shadow ? "shadow" : "graph");
    }
    gp_record_int(&r, "profiled", values != NULL);
    if (gp_launch_ranges_on()) {
        gp_record_uint(&r, "range", gp_launch_ranges_of((uint32_t)l->id));
        const uint32_t capture = gp_launch_ranges_of_node(l->node); /* 0 for node 0 */
        if (capture)
            gp_record_uint(&r, "capture", capture);
    }
    if (values) {
        double all[GP_MAX_COUNTERS];
        whole_values(s, set, values, all);
        gp_record_numbers(&r, "values", all, s->collector->n_counters);
        write_passes(&r, s, set);
    }
    gp_record_end(&r);
}

void gp_sessions_write_unprofiled(const gp_sessions *s, const gp_launch_info *l)
{
    write_launch(s, l, 0, NULL);
}

static void warn_error(void)
{
    gp_record_warning(gp_error(), gp_hint());
}

/* ---- sessions and passes ------------------------------------------------------------------- */

bool gp_sessions_start(gp_sessions *s, const gp_launch_info *l)
{
    const gp_signature_state *state = signature_of(s, l);
    gp_rotation rotation = rotation_for(s, l);
    say_no_replay_for_collectives(s, l, state);
    int set = state ? gp_rotation_choose(&rotation, state, s->latest) : GP_SET_NONE;
    if (set == GP_SET_WHOLE && rotation.mode == GP_EXEC_REPLAY_AUTO && rotation.n_groups &&
        !auto_may_replay(s)) {
        rotation.mode = GP_EXEC_REPLAY_ROTATE; /* its first launch collects one group */
        set = gp_rotation_choose(&rotation, state, s->latest);
    }
    if (set == GP_SET_NONE)
        return false;
    if (s->pass_open && set == s->latest)
        return true;
    gp_sessions_end_pass(s);
    gp_sampling_release(s->device); /* the range profiler and PM sampling take turns */
    gp_profiler *p = s->collector->profiler;
    const gp_replay replay = replay_of(s->collector, set);
    const size_t ranges = replay == GP_REPLAY_USER ? GP_PASS_RANGES : 1;
    if (gp_profiler_begin_with(p, config_of(s, set), replay, ranges) != GP_OK ||
        gp_profiler_start(p) != GP_OK) {
        warn_error();
        s->latest = GP_SET_NONE; /* whatever the profiler holds now, begin afresh */
        return false;
    }
    s->latest = set;
    s->pass_open = replay == GP_REPLAY_USER;
    return true;
}

/* Stop and decode: the ranges recorded, or 0 after a failure (said as a warning). A pass's
 * kernels are waited for first, since decoding needs them complete. */
static size_t stop_and_decode(gp_sessions *s, bool pass)
{
    bool last = false;
    size_t ranges = 0;
    gp_profiler *p = s->collector->profiler;
    int rc = gp_profiler_stop(p, &last);
    if (rc == GP_OK && pass)
        gp_sessions_synchronise(s->ctx);
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
        write_launch(s, &launches[i], s->latest, read ? values : NULL);
        with_counters += read;
    }
    return with_counters;
}

void gp_sessions_end_pass(gp_sessions *s)
{
    if (!s->pass_open)
        return;
    s->pass_open = false;
    write_ranges(s, s->pending, s->n_pending, stop_and_decode(s, true));
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

static void count_launch(gp_sessions *s, const gp_launch_info *l)
{
    gp_signature_state *state = signature_of(s, l);
    const gp_rotation rotation = rotation_for(s, l);
    if (state)
        gp_rotation_count(&rotation, state, s->latest);
}

bool gp_sessions_launched(gp_sessions *s, const gp_launch_info *l, bool ran)
{
    if (!s->pass_open) {
        const size_t ranges = stop_and_decode(s, false);
        const bool written = ran && write_ranges(s, l, 1, ranges) == 1;
        if (written)
            count_launch(s, l);
        return written;
    }
    if (!ran) {
        gp_sessions_end_pass(s); /* whatever CUPTI made of a launch that failed stays apart */
        return false;
    }
    add_pending(s, l);
    count_launch(s, l);
    if (s->n_pending == GP_PASS_RANGES)
        gp_sessions_end_pass(s);
    return true;
}

/* ---- whole graph launches ------------------------------------------------------------------ */

/* The hardware group the next whole-graph range collects; GP_SET_NONE when there is none. */
static int graph_set(const gp_sessions *s)
{
    const gp_collector *c = s->collector;
    if (c->n_groups == 0)
        return gp_collector_has_sass(c) ? GP_SET_NONE : GP_SET_WHOLE;
    int hardware[GP_MAX_GROUPS];
    size_t n = 0;
    for (size_t g = 0; g < c->n_groups; g++)
        if (!c->groups[g].sass)
            hardware[n++] = (int)g;
    return n ? hardware[s->graph_ranges % n] : GP_SET_NONE;
}

int gp_sessions_graph_begin(gp_sessions *s)
{
    const int set = graph_set(s);
    if (set == GP_SET_NONE)
        return GP_SET_NONE;
    gp_sessions_end_pass(s);
    gp_sampling_release(s->device);
    gp_profiler *p = s->collector->profiler;
    s->latest = GP_SET_NONE; /* the range profiler is configured for this range now */
    if (gp_profiler_begin_with(p, config_of(s, set), GP_REPLAY_USER_RANGE, 1) != GP_OK ||
        gp_profiler_start(p) != GP_OK) {
        warn_error();
        return GP_SET_NONE;
    }
    return set;
}

void gp_sessions_graph_end(gp_sessions *s, const gp_launch_info *l, int set, bool ran)
{
    gp_profiler *p = s->collector->profiler;
    bool last = false;
    size_t ranges = 0;
    double values[GP_MAX_COUNTERS];
    int rc = gp_profiler_stop(p, &last);
    if (rc == GP_OK)
        rc = gp_profiler_end(p, &ranges);
    if (rc == GP_OK && ranges == 1)
        rc = gp_profiler_read(p, 0, values);
    if (rc != GP_OK) {
        warn_error();
        return;
    }
    if (!ran || ranges != 1)
        return;
    write_launch(s, l, set, values);
    s->graph_ranges++;
}
