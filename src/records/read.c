/* gpuprof exec: the records the injected library wrote (gpuprof/record_format.h) read back into
 * the report: devices, each launch with its counters turned into metrics the same way as the
 * kernel commands', kernel times from the activity records, warnings. This file reads the
 * JSON records and drives the two passes; the profiler records are read_profilers.c's, the
 * lines of numbers read_lines.c's, CUDA graphs' records (shadow launches aside)
 * read_graphs.c's, --source's patched instructions read_source.c's.
 *
 * Each record is read through the JSON-input layer (report/json_in.h). One that is not what
 * the library writes (a field missing, of another type or out of its range) is ignored and
 * said in a warning that names its file, line and field; so is a line of numbers (a kernel,
 * copy, memset, unified-memory counter or DRAM sample) with a number out of its range. A line
 * that is not whole (the program died while writing it) is skipped:
 * the process then lacks its end record, and that is said. A record of an unknown type (a
 * newer library's) is passed over. */
#include "records/records.h"

#include "gpuprof/collectives.h"
#include "gpuprof/order.h"
#include "gpuprof/record_format.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/status.h"
#include "records/launch_table.h"
#include "records/read_graphs.h"
#include "records/read_ranges.h"
#include "records/read_stalls.h"
#include "records/read_lines.h"
#include "records/read_profilers.h"
#include "records/read_source.h"
#include "records/reader.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- processes and devices --------------------------------------------------------------- */

static int note_process(reader *rd, int pid)
{
    for (size_t i = 0; i < rd->n_pids; i++)
        if (rd->pids[i] == pid)
            return GP_OK;
    int *pids = realloc(rd->pids, (rd->n_pids + 1) * sizeof *pids);
    bool *ended = realloc(rd->ended, (rd->n_pids + 1) * sizeof *ended);
    if (pids)
        rd->pids = pids;
    if (ended)
        rd->ended = ended;
    if (!pids || !ended)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    rd->pids[rd->n_pids] = pid;
    rd->ended[rd->n_pids++] = false;
    return GP_OK;
}

static int read_process(reader *rd, const cJSON *o)
{
    int pid;
    if (gp_json_get_int(&rd->json, o, "pid", 0, &pid) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    return note_process(rd, pid);
}

static int read_end(reader *rd, const cJSON *o)
{
    int pid;
    if (gp_json_get_int(&rd->json, o, "pid", 0, &pid) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    for (size_t i = 0; i < rd->n_pids; i++)
        if (rd->pids[i] == pid)
            rd->ended[i] = true;
    return GP_OK;
}

static int device_of(gp_json_reader *j, const cJSON *o, gp_device_info *d)
{
    const char *name;
    uint64_t memory, l2;
    double sm_khz, memory_khz;
    memset(d, 0, sizeof *d);
    GP_TRY(gp_json_get_int(j, o, "device", 0, &d->index));
    GP_TRY(gp_json_get_text(j, o, "name", &name));
    GP_TRY(gp_json_get_int(j, o, "cc_major", 0, &d->cc_major));
    GP_TRY(gp_json_get_int(j, o, "cc_minor", 0, &d->cc_minor));
    GP_TRY(gp_json_get_int(j, o, "sms", 0, &d->multiprocessors));
    GP_TRY(gp_json_get_integer(j, o, "memory", 0, UINT64_MAX, &memory));
    GP_TRY(gp_json_get_integer(j, o, "l2", 0, UINT64_MAX, &l2));
    GP_TRY(gp_json_get_number(j, o, "sm_clock_khz", 0, false, &sm_khz));
    GP_TRY(gp_json_get_number(j, o, "memory_clock_khz", 0, false, &memory_khz));
    GP_TRY(gp_json_get_int(j, o, "bus_bits", 0, &d->memory_bus_bits));
    snprintf(d->name, sizeof d->name, "%s", name);
    d->memory_bytes = memory;
    d->l2_bytes = l2;
    d->sm_clock_mhz = sm_khz / 1000.0;
    d->memory_clock_mhz = memory_khz / 1000.0;
    d->peak_gbps = 2.0 * memory_khz * 1e3 * (d->memory_bus_bits / 8.0) / 1e9;
    d->copy_gbps = -1.0;
    return GP_OK;
}

static int read_device(reader *rd, const cJSON *o)
{
    gp_device_info d;
    if (device_of(&rd->json, o, &d) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    gp_exec_info *e = &rd->report->exec;
    for (size_t i = 0; i < e->n_devices; i++)
        if (e->devices[i].index == d.index)
            return GP_OK; /* one description per device, whatever its contexts */
    return gp_exec_add_device(e, &d);
}

/* ---- launches ---------------------------------------------------------------------------- */

/* A launch record: the launch, and its counter values when it was profiled. */
typedef struct {
    gp_exec_launch launch;       /* its shape; no names, no metrics */
    const char *kernel;
    const cJSON *values;         /* NULL: not profiled */
    const cJSON *passes;         /* the groups its values come from; NULL: every counter */
    gp_launch_how how;
} launch_record;

static int launch_of(gp_json_reader *j, const cJSON *o, launch_record *r)
{
    gp_exec_launch *l = &r->launch;
    uint64_t id, smem, profiled;
    memset(r, 0, sizeof *r);
    GP_TRY(gp_json_get_int(j, o, "pid", 0, &l->pid));
    GP_TRY(gp_json_get_integer(j, o, "id", 0, UINT64_MAX, &id));
    GP_TRY(gp_json_get_uint(j, o, "context", 0, &l->context));
    GP_TRY(gp_json_get_int(j, o, "device", 0, &l->device));
    GP_TRY(gp_json_get_uint(j, o, "stream", 0, &l->stream));
    GP_TRY(gp_json_get_text(j, o, "kernel", &r->kernel));
    GP_TRY(gp_json_get_code(j, o, "code", true, &l->code));
    GP_TRY(gp_json_get_dim(j, o, "grid", &l->grid));
    GP_TRY(gp_json_get_dim(j, o, "block", &l->block));
    GP_TRY(gp_json_get_integer(j, o, "smem", 0, SIZE_MAX, &smem));
    GP_TRY(gp_json_get_integer(j, o, "profiled", 0, 1, &profiled));
    GP_TRY(gp_records_how_of(j, o, &r->how, &l->graph, &l->graph_node));
    l->id = id;
    l->shared_bytes = (size_t)smem;
    l->duration_ms = -1.0;
    if (profiled && gp_json_field(o, "passes"))
        GP_TRY(gp_json_get_array(j, o, "passes", &r->passes));
    return profiled ? gp_json_get_array(j, o, "values", &r->values) : GP_OK;
}

static int pass_bit(gp_json_reader *j, const cJSON *item, void *mask)
{
    uint64_t g;
    GP_TRY(gp_json_whole_number(j, item, 0, GP_MAX_GROUPS - 1, &g));
    *(uint32_t *)mask |= (uint32_t)1 << g;
    return GP_OK;
}

/* The groups a launch carries, each one of its context's. */
static int passes_of(gp_json_reader *j, const cJSON *o, const gp_collector *c, uint32_t *mask)
{
    *mask = 0;
    GP_TRY(gp_json_read_each(j, o, "passes", pass_bit, mask));
    return gp_json_expect(j, "passes", c->n_groups && *mask && *mask < ((uint32_t)1 << c->n_groups),
                          "groups of the context's profiler record");
}

typedef struct {
    double *v;
    size_t n;
} counter_values;

static int counter_value(gp_json_reader *j, const cJSON *item, void *values)
{
    counter_values *cv = values;
    if (cJSON_IsNull(item)) {
        cv->v[cv->n++] = NAN; /* the counter had no value */
        return GP_OK;
    }
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
        return gp_json_fail(j, "expected a number or null");
    cv->v[cv->n++] = item->valuedouble;
    return GP_OK;
}

/* The launch's values, one per counter of its context's profiler record, in its order. */
static int values_of(gp_json_reader *j, const cJSON *o, const gp_collector *c, double *v)
{
    const int n = cJSON_GetArraySize(gp_json_field(o, "values"));
    if (n != (int)c->n_counters) {
        const size_t at = gp_json_enter_key(j, "values");
        int rc = gp_json_fail(j, "%d values for the %zu counters of the context's profiler "
                              "record", n, c->n_counters);
        gp_json_leave(j, at);
        return rc;
    }
    counter_values cv = {v, 0};
    return gp_json_read_each(j, o, "values", counter_value, &cv);
}

/* How a profiled launch's metrics were obtained, by how it was launched. */
static const unsigned launch_origins[] = {
    [GP_HOW_DIRECT] = GP_ORIGIN_RANGE, [GP_HOW_SHADOW] = GP_ORIGIN_SHADOW,
    [GP_HOW_GRAPH] = GP_ORIGIN_GRAPH};

static int read_launch(reader *rd, const cJSON *o)
{
    launch_record r;
    if (launch_of(&rd->json, o, &r) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    const context_counters *cc =
        r.values ? gp_records_counters_of(rd, r.launch.pid, r.launch.context) : NULL;
    double v[GP_MAX_COUNTERS];
    uint32_t passes = 0;
    if (cc && (values_of(&rd->json, o, &cc->collector, v) != GP_OK ||
               (r.passes && passes_of(&rd->json, o, &cc->collector, &passes) != GP_OK))) {
        GP_TRY(gp_records_ignore(rd, "the launch is reported without counters"));
        cc = NULL;
    }
    gp_exec_launch *l;
    GP_TRY(gp_exec_add_launch(&rd->report->exec, &l));
    *l = r.launch;
    GP_TRY(r.how == GP_HOW_GRAPH ? gp_records_name_graph(l)
                                 : gp_records_name_launch(rd, l, r.kernel));
    GP_TRY(gp_records_launch_range(rd, o, l));
    if (!cc)
        return GP_OK;
    l->origins = launch_origins[r.how];
    return gp_records_launch_metrics(&cc->collector, v, passes, l);
}

/* ---- kernels' names: the `name` records -------------------------------------------------- */

static int read_name(reader *rd, const cJSON *o)
{
    int pid;
    uint64_t number, code;
    const char *name;
    gp_json_reader *j = &rd->json;
    if (gp_json_get_int(j, o, "pid", 0, &pid) != GP_OK ||
        gp_json_get_integer(j, o, "n", 0, UINT64_MAX, &number) != GP_OK ||
        gp_json_get_text(j, o, "name", &name) != GP_OK ||
        gp_json_get_code(j, o, "code", true, &code) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    const uint64_t key[2] = {(uint64_t)pid, number};
    bool added;
    numbered_name *kept = gp_hashmap_add(&rd->numbered, key, sizeof key, &added);
    if (kept && added) /* the first record of a number holds */
        *kept = (numbered_name){strdup(name), code};
    return kept && kept->name ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

/* ---- the other records ------------------------------------------------------------------- */

static int read_warning(reader *rd, const cJSON *o)
{
    const char *what, *hint = NULL;
    if (gp_json_get_text(&rd->json, o, "text", &what) != GP_OK ||
        (gp_json_field(o, "hint") && gp_json_get_text(&rd->json, o, "hint", &hint) != GP_OK))
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    gp_report *r = rd->report;
    if (strncmp(what, "metrics unavailable", 19) == 0 && r->profiler.state != GP_PROF_OK) {
        r->profiler.state = GP_PROF_UNAVAILABLE;
        snprintf(r->profiler.reason, sizeof r->profiler.reason, "%s", what);
    }
    for (size_t i = 0; i < r->n_warnings; i++)
        if (strcmp(r->warnings[i], what) == 0)
            return GP_OK; /* once, whatever the number of contexts or processes */
    GP_TRY(gp_report_add_warning(r, what));
    return hint ? gp_report_add_warning(r, hint) : GP_OK;
}

typedef int (*record_reader)(reader *rd, const cJSON *o);

static const struct {
    const char *type;
    record_reader read;
} record_types[] = {
    {"process", read_process}, {"end", read_end},         {"device", read_device},
    {"profiler", gp_records_read_profiler}, {"launch", read_launch}, {"name", read_name},
    {"warning", read_warning}, {GP_RECORD_GRAPH, gp_records_read_graph},
    {GP_RECORD_SAMPLED, gp_records_read_sampled}, {GP_RECORD_FOOTPRINT, gp_records_read_footprint},
    {GP_RECORD_SOURCE, gp_records_read_source}, {GP_RECORD_SOURCE_NOTE, gp_records_read_source_note},
    {GP_RECORD_RANGE, gp_records_read_range},
    {GP_RECORD_STALLS, gp_records_read_stalls}, {GP_RECORD_STALL, gp_records_read_stall},
};

static int read_record(reader *rd, const cJSON *o)
{
    const char *type;
    if (!cJSON_IsObject(o)) {
        gp_json_fail(&rd->json, "expected an object");
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    }
    if (gp_json_get_text(&rd->json, o, "t", &type) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    for (size_t i = 0; i < sizeof record_types / sizeof record_types[0]; i++)
        if (strcmp(type, record_types[i].type) == 0)
            return record_types[i].read(rd, o);
    return GP_OK; /* a newer library's record: nothing to do with it here */
}

/* ---- one file's text --------------------------------------------------------------------- */

enum pass { RECORDS, KERNEL_LINES };

/* Every record (RECORDS), or the lines of numbers (KERNEL_LINES: kernels, copies, memsets,
 * unified memory): a kernel's time may be written before its launch record, and is joined
 * to it after all launches are read. */
static int read_text(reader *rd, const gp_records_text *t, enum pass pass)
{
    size_t number = 0;
    int rc = GP_OK;
    for (size_t at = 0; rc == GP_OK && at < t->len;) {
        const char *line = t->text + at;
        const char *newline = memchr(line, '\n', t->len - at);
        const size_t len = newline ? (size_t)(newline - line) + 1 : t->len - at;
        at += len;
        number++;
        if (gp_records_is_number_line(line[0])) {
            if (pass == KERNEL_LINES)
                rc = gp_records_read_number_line(rd, line, len, t->name, number);
            continue;
        }
        if (pass == KERNEL_LINES)
            continue;
        cJSON *o = cJSON_ParseWithLength(line, len);
        gp_records_locate(rd, t->name, number);
        if (o) /* else not whole: a crash cut it */
            rc = read_record(rd, o);
        cJSON_Delete(o);
    }
    return rc;
}

/* ---- the whole --------------------------------------------------------------------------- */

static int note_unfinished(reader *rd)
{
    for (size_t i = 0; i < rd->n_pids; i++)
        if (!rd->ended[i]) {
            char w[160];
            snprintf(w, sizeof w, "process %d ended without exiting normally: the launch in "
                     "flight and kernel times not yet written are missing", rd->pids[i]);
            GP_TRY(gp_report_add_warning(rd->report, w));
        }
    return GP_OK;
}

/* Every launch of a collective kernel (NCCL's, NVSHMEM's) says what its time and counters
 * are: the library never replays it (gpuprof/collectives.h). */
static int note_collectives(gp_exec_info *e)
{
    for (size_t i = 0; i < e->n_launches; i++) {
        gp_exec_launch *l = &e->launches[i];
        if (gp_kernel_is_collective(l->mangled ? l->mangled : l->kernel))
            GP_TRY(gp_records_add_note(l, gp_collective_note));
    }
    return GP_OK;
}

/* Each entry's value, a string (or NULL), freed; then the map. */
static void free_strings(gp_hashmap *m)
{
    size_t cursor = 0;
    for (char **s; (s = gp_hashmap_next(m, &cursor, NULL, NULL)) != NULL;)
        free(*s);
    gp_hashmap_free(m);
}

static void free_numbered(gp_hashmap *m)
{
    size_t cursor = 0;
    for (numbered_name *n; (n = gp_hashmap_next(m, &cursor, NULL, NULL)) != NULL;)
        free(n->name);
    gp_hashmap_free(m);
}

static void free_reader(reader *rd)
{
    free_numbered(&rd->numbered);
    free_strings(&rd->demangled);
    gp_records_free_contexts(rd);
    free(rd->pids);
    free(rd->ended);
    gp_records_free_graphs(rd);
    gp_records_free_source(rd);
    gp_records_free_ranges(rd);
    gp_records_free_stalls(rd);
}

static void sort_launches(gp_exec_info *e)
{
    if (e->n_launches > 1)
        qsort(e->launches, e->n_launches, sizeof *e->launches, gp_records_compare_launches);
}

/* CUPTI's timestamps are nanoseconds of the machine's clock (about 2^60): counted from the
 * first copy or memset's start instead, they stay exact in a JSON number. A time not known
 * (no start, or an end before it) becomes start 1, end 0. */
static void rebase_activities(gp_exec_info *e)
{
    uint64_t first = UINT64_MAX;
    for (size_t i = 0; i < e->n_activities; i++) {
        gp_exec_activity *a = &e->activities[i];
        if (a->start_ns == 0 || a->end_ns < a->start_ns) {
            a->start_ns = 1;
            a->end_ns = 0;
        } else if (a->start_ns < first) {
            first = a->start_ns;
        }
    }
    for (size_t i = 0; i < e->n_activities; i++)
        if (e->activities[i].end_ns >= e->activities[i].start_ns) {
            e->activities[i].start_ns -= first;
            e->activities[i].end_ns -= first;
        }
}

static int compare_activities(const void *a, const void *b)
{
    const gp_exec_activity *x = a, *y = b;
    const int by_launch = gp_records_launch_order(x->pid, x->id, y->pid, y->id);
    return by_launch ? by_launch : gp_order_u64(x->start_ns, y->start_ns);
}

int gp_records_read_texts(const gp_records_text *files, size_t n, gp_report *report)
{
    reader rd = {.report = report};
    gp_hashmap_init(&rd.demangled, sizeof(char *));
    gp_hashmap_init(&rd.numbered, sizeof(numbered_name));
    gp_hashmap_init(&rd.ranges, sizeof(char *));
    gp_hashmap_init(&rd.stall_contexts, sizeof(void *));
    gp_hashmap_init(&rd.stall_pcs, sizeof(size_t));
    gp_exec_info *e = &report->exec;
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && i < n; i++)
        rc = read_text(&rd, &files[i], RECORDS);
    sort_launches(e);
    rd.n_recorded = e->n_launches;
    for (size_t i = 0; rc == GP_OK && i < n; i++)
        rc = read_text(&rd, &files[i], KERNEL_LINES);
    if (rc == GP_OK)
        sort_launches(e);
    rd.n_recorded = e->n_launches;
    if (rc == GP_OK)
        rc = gp_records_finish_graphs(&rd);
    if (rc == GP_OK)
        rc = gp_records_finish_source(&rd);
    if (rc == GP_OK && e->n_activities > 1)
        qsort(e->activities, e->n_activities, sizeof *e->activities, compare_activities);
    rebase_activities(e);
    if (rc == GP_OK)
        rc = note_collectives(e);
    if (rc == GP_OK)
        rc = gp_exec_number_variants(e);
    if (rc == GP_OK)
        rc = note_unfinished(&rd);
    if (rc == GP_OK)
        rc = gp_records_note_more_ignored(&rd);
    e->processes = rd.n_pids;
    free_reader(&rd);
    return rc;
}
