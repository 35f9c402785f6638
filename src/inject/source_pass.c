/* The per-line pass of source_pass.h. */
#include "inject/source_pass.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/protocol.h"
#include "gpuprof/sass_source.h"
#include "gpuprof/status.h"
#include "inject/activity_records.h"
#include "inject/contexts.h"
#include "inject/record.h"

#include <inttypes.h>
#include <stdio.h>

#define MAX_DEVICES 64

static bool wanted;                           /* Guard: set before any callback */
static gp_hashmap patched;                    /* Guard: the launch lock; (context uid,
                                                 kernel) keys of the kernels patched or
                                                 refused */
static bool patched_ready;                    /* Guard: the launch lock */
static gp_sass_source *devices[MAX_DEVICES];  /* Guard: the launch lock; configured once each
                                                 (reconfiguring breaks the counting) */

/* The launch being patched, from its entry to its exit. */
typedef struct {
    bool on;
    uint32_t context, device;
    gp_sass_source *sass;
    const gp_sessions *sessions;
} patched_launch;
static patched_launch current;                /* Guard: the launch lock */

void gp_source_pass_start(bool want)
{
    wanted = want;
}

bool gp_source_pass_wanted(void)
{
    return wanted;
}

static void write_note(const gp_launch_info *l, const char *note)
{
    gp_record r;
    gp_record_begin(&r, GP_RECORD_SOURCE_NOTE);
    gp_record_string(&r, "kernel", l->kernel);
    gp_record_code(&r, "code", l->code);
    gp_record_string(&r, "note", note);
    gp_record_end(&r);
}

/* Whether the kernel's code still awaits its patched launch on the context (each code of a
 * name is patched: inject/codes.h); `take`: then it no longer does. Keyed by the context's
 * uid, not its handle: a context created after a cudaDeviceReset may come back at the same
 * address. */
static bool awaits_patch(uint32_t context, const gp_launch_info *l, bool take)
{
    if (!patched_ready) {
        gp_hashmap_init(&patched, 1);
        patched_ready = true;
    }
    const struct {
        uint64_t code;
        uint32_t context, zero; /* the tail padding zeroed: it is part of the key */
    } fixed = {l->code, context, 0};
    bool added = false;
    if (take)
        gp_hashmap_add_named(&patched, &fixed, sizeof fixed, l->kernel, &added);
    else
        added = !gp_hashmap_find_named(&patched, &fixed, sizeof fixed, l->kernel);
    return added;
}

/* The device's SASS metrics, configured at its first patched launch; NULL (said in the
 * kernel's note) when CUPTI refuses. */
static gp_sass_source *sass_of(uint32_t device, const gp_launch_info *l)
{
    if (device >= MAX_DEVICES) {
        write_note(l, "--source: a device beyond the 64 gpuprof follows");
        return NULL;
    }
    if (!devices[device] && gp_sass_source_open((int)device, &devices[device]) != GP_OK) {
        char note[GP_MESSAGE_LEN + 32];
        snprintf(note, sizeof note, "not patched: %s", gp_error());
        gp_clear_error();
        write_note(l, note);
    }
    return devices[device];
}

bool gp_source_pass_wants(gp_sessions *s, const gp_launch_info *l)
{
    return wanted && s && l->kernel && !gp_sessions_lacks(s, l) &&
           awaits_patch(s->uid, l, false);
}

bool gp_source_pass_begin(CUcontext ctx, gp_sessions *s, const gp_launch_info *l)
{
    if (!gp_source_pass_wants(s, l) || !awaits_patch(s->uid, l, true))
        return false;
    if (l->collective) {
        write_note(l, "not patched: a collective (its patched launch would be "
                              "waited for, and so would its peers)");
        return false;
    }
    const uint32_t device = s->device;
    gp_sass_source *sass = sass_of(device, l);
    if (!sass)
        return false;
    /* A patched launch counts nothing beside an enabled range profiler (whose next decode
     * then fails) or while CUPTI records kernels (H100, CUDA 13.0): the range profiler is
     * enabled anew at the context's next pass, and the kernels launched before finish first
     * so that none ends unrecorded. */
    gp_contexts_suspend_range_profiler(ctx);
    gp_sessions_synchronise(ctx);
    gp_activity_pause_kernels();
    if (gp_sass_source_start(sass, ctx) != GP_OK) {
        gp_activity_resume_kernels();
        char note[GP_MESSAGE_LEN + 32];
        snprintf(note, sizeof note, "not patched: %s", gp_error());
        gp_clear_error();
        write_note(l, note);
        return false;
    }
    current = (patched_launch){
        .on = true, .context = s->uid, .device = device, .sass = sass, .sessions = s};
    return true;
}

/* The counts as a JSON array of integers. */
static void counts_json(const uint64_t *counts, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "[");
    for (int c = 0; c < GP_SRC_COUNTERS && at < len; c++)
        at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu64, c ? "," : "", counts[c]);
    if (at < len)
        snprintf(buf + at, len - at, "]");
}

static void write_instruction(const gp_launch_info *l, const gp_source_instruction *v)
{
    char counts[GP_SRC_COUNTERS * 21 + 4];
    counts_json(v->counts, counts, sizeof counts);
    gp_record r;
    gp_record_begin(&r, GP_RECORD_SOURCE);
    gp_record_uint(&r, "context", current.context);
    gp_record_uint(&r, "device", current.device);
    gp_record_uint(&r, "launch", l->id);
    gp_record_string(&r, "kernel", v->function);
    gp_record_code(&r, "crc", v->crc);
    gp_record_uint(&r, "pc", v->pc);
    if (v->file) {
        gp_record_string(&r, "file", v->file);
        gp_record_uint(&r, "line", v->line);
    }
    gp_record_raw(&r, "counts", counts);
    gp_record_end(&r);
}

void gp_source_pass_end(CUcontext ctx, const gp_launch_info *l, bool ran)
{
    if (!current.on)
        return;
    current.on = false;
    gp_sessions_synchronise(ctx); /* the patched kernel's counts complete before the flush */
    gp_source_instruction *v = NULL;
    size_t n = 0;
    const int stopped = gp_sass_source_stop(current.sass, ctx, &v, &n);
    gp_activity_resume_kernels();
    if (ran && !l->shadow) /* it has no kernel record: this one puts it among the launches */
        gp_sessions_write_unprofiled(current.sessions, l);
    if (stopped != GP_OK) {
        char note[GP_MESSAGE_LEN + 32];
        snprintf(note, sizeof note, "no lines: %s", gp_error());
        gp_clear_error();
        write_note(l, note);
        return;
    }
    for (size_t i = 0; ran && i < n; i++)
        write_instruction(l, &v[i]);
    if (ran && n > 0 && l->shadow)
        write_note(l, "lines from a shadow launch of its graph node, run alone before "
                              "the graph launch named: the graph's own launches ran unpatched");
    if (!ran || n == 0)
        write_note(l, ran ? "no lines: CUPTI counted no instruction of its patched "
                                    "launch" : "no lines: its patched launch failed");
    gp_source_instructions_free(v, n);
}
