/* gpuprof exec: the records the injected library wrote (gpuprof/protocol.h) read back into the
 * report: devices, each launch with its counters turned into metrics the same way as the
 * kernel commands', kernel times from the activity records, warnings. CUDA graphs' records
 * (shadow launches aside) are read_graph.c's.
 *
 * Each record is read through the JSON-input layer (report/json_in.h). One that is not what
 * the library writes (a field missing, of another type or out of its range) is ignored and
 * said in a warning that names its file, line and field; so is a line of numbers (a kernel,
 * copy, memset, unified-memory counter or DRAM sample) with a number out of its range. A line
 * that is not whole (the program died while writing it) is skipped:
 * the process then lacks its end record, and that is said. A record of an unknown type (a
 * newer library's) is passed over. */
#include "exec/read.h"

#include "gpuprof/protocol.h"
#include "exec/read_state.h"
#include "gpuprof/collector.h"
#include "gpuprof/demangle.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"
#include "report/json_in.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SELECTED (sizeof((gp_collector *)0)->metrics / sizeof((gp_collector *)0)->metrics[0])
#define MAX_SAID 8                    /* records ignored with a warning of their own */

/* ---- what is not as the library writes it ------------------------------------------------ */

/* The line being read, as messages name it. */
static void locate(reader *rd, const char *file, size_t line)
{
    snprintf(rd->where, sizeof rd->where, "%s line %zu", file, line);
    rd->json.file = rd->where;
    rd->json.path[0] = '\0';
}

/* The problem the layer just recorded, said as a warning with its consequence (the first
 * MAX_SAID of them; the others are counted). */
int gp_records_ignore(reader *rd, const char *consequence)
{
    char warning[GP_MESSAGE_LEN + 96];
    snprintf(warning, sizeof warning, "%s: %s", gp_error(), consequence);
    gp_clear_error();
    return rd->n_ignored++ < MAX_SAID ? gp_report_add_warning(rd->report, warning) : GP_OK;
}

static int note_more_ignored(const reader *rd)
{
    if (rd->n_ignored <= MAX_SAID)
        return GP_OK;
    char warning[160];
    snprintf(warning, sizeof warning, "%zu more records were not as gpuprof's library writes "
             "them (the first %d are said above)", rd->n_ignored - MAX_SAID, MAX_SAID);
    return gp_report_add_warning(rd->report, warning);
}

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

/* ---- profiler set-ups -------------------------------------------------------------------- */

/* A profiler record, its strings as the document holds them. */
typedef struct {
    int pid;
    unsigned context;
    int passes;
    int set;                     /* its index in metric_sets */
    const char *chip;
    const char *counters[GP_MAX_COUNTERS];
    const char *keys[MAX_SELECTED], *units[MAX_SELECTED], *missing[MAX_SELECTED];
    size_t n_counters, n_keys, n_units, n_missing;
    int replay;                  /* gp_exec_replay; -1: the record has none */
    gp_counter_group groups[GP_MAX_GROUPS];   /* the one-pass groups, by counter index */
    size_t n_groups;
} profiler_record;

typedef struct {
    const char **items;
    size_t *n;
} string_list;

static int keep_string(void *list, const char *string)
{
    string_list *l = list;
    l->items[(*l->n)++] = string;
    return GP_OK;
}

/* o[key]: an array of at most max strings. */
static int get_strings(gp_json_reader *j, const cJSON *o, const char *key, const char **items,
                       size_t max, size_t *n)
{
    const cJSON *a;
    char at_most[48];
    snprintf(at_most, sizeof at_most, "at most %zu strings", max);
    GP_TRY(gp_json_get_array(j, o, key, &a));
    GP_TRY(gp_json_expect(j, key, (size_t)cJSON_GetArraySize(a) <= max, at_most));
    string_list l = {items, n};
    *n = 0;
    return gp_json_read_strings(j, o, key, keep_string, &l);
}

static const char *const metric_sets[] = {"default", "all", "list"};
static const gp_metrics_kind metric_kinds[] = {GP_METRICS_DEFAULT, GP_METRICS_ALL,
                                               GP_METRICS_LIST};

static bool is_counter(const profiler_record *p, const char *name)
{
    for (size_t i = 0; i < p->n_counters; i++)
        if (strcmp(p->counters[i], name) == 0)
            return true;
    return false;
}

/* A raw metric (a name outside the catalogue) the chip has is one of the counters: its value
 * is that counter's, found by its name. */
static int check_raw_metrics(gp_json_reader *j, const profiler_record *p)
{
    for (size_t i = 0; i < p->n_keys; i++) {
        const char *key = p->keys[i];
        if (p->missing[i][0] || gp_find_metric(key) ||
            (strlen(key) < GP_METRIC_NAME_LEN && is_counter(p, key)))
            continue;
        const size_t at = gp_json_enter_key(j, "metrics");
        gp_json_enter_index(j, i);
        const int rc = gp_json_fail(j, "a raw metric that is not among the counters");
        gp_json_leave(j, at);
        return rc;
    }
    return GP_OK;
}

/* One group: an array of counter indices of the record. */
typedef struct {
    profiler_record *p;
    gp_counter_group *g;
} group_reading;

static int group_counter(gp_json_reader *j, const cJSON *item, void *ctx)
{
    group_reading *r = ctx;
    uint64_t i;
    GP_TRY(gp_json_whole_number(j, item, 0, r->p->n_counters ? r->p->n_counters - 1 : 0, &i));
    if (r->g->n_counters == GP_MAX_COUNTERS || r->p->n_counters == 0)
        return gp_json_fail(j, "more counters than the record has");
    r->g->counters[r->g->n_counters++] = (size_t)i;
    return GP_OK;
}

static int group_of(gp_json_reader *j, const cJSON *item, void *ctx)
{
    profiler_record *p = ctx;
    if (!cJSON_IsArray(item))
        return gp_json_fail(j, "expected an array of counter indices");
    if (p->n_groups == GP_MAX_GROUPS)
        return gp_json_fail(j, "more than %d groups", GP_MAX_GROUPS);
    gp_counter_group *g = &p->groups[p->n_groups++];
    memset(g, 0, sizeof *g);
    g->passes = 1;
    group_reading r = {p, g};
    const cJSON *el;
    size_t k = 0;
    cJSON_ArrayForEach(el, item)
    {
        const size_t at = gp_json_enter_index(j, k++);
        const int rc = group_counter(j, el, &r);
        gp_json_leave(j, at);
        GP_TRY(rc);
    }
    return GP_OK;
}

/* The replay and the one-pass groups, which a library without rotation did not write. */
static int rotation_of(gp_json_reader *j, const cJSON *o, profiler_record *p)
{
    p->replay = -1;
    p->n_groups = 0;
    if (gp_json_field(o, "replay"))
        GP_TRY(gp_json_get_enum(j, o, "replay", gp_exec_replay_names, GP_EXEC_REPLAY_MODES,
                                false, &p->replay));
    return gp_json_field(o, "groups") ? gp_json_read_each(j, o, "groups", group_of, p) : GP_OK;
}

static int profiler_of(gp_json_reader *j, const cJSON *o, profiler_record *p)
{
    GP_TRY(gp_json_get_int(j, o, "pid", 0, &p->pid));
    GP_TRY(gp_json_get_uint(j, o, "context", 0, &p->context));
    GP_TRY(gp_json_get_text(j, o, "chip", &p->chip));
    GP_TRY(gp_json_get_int(j, o, "passes", 0, &p->passes));
    GP_TRY(gp_json_get_enum(j, o, "set", metric_sets, 3, false, &p->set));
    GP_TRY(get_strings(j, o, "counters", p->counters, GP_MAX_COUNTERS, &p->n_counters));
    GP_TRY(get_strings(j, o, "metrics", p->keys, MAX_SELECTED, &p->n_keys));
    GP_TRY(get_strings(j, o, "units", p->units, MAX_SELECTED, &p->n_units));
    GP_TRY(gp_json_expect(j, "units", p->n_units == p->n_keys, "a unit per metric"));
    GP_TRY(get_strings(j, o, "missing", p->missing, MAX_SELECTED, &p->n_missing));
    GP_TRY(gp_json_expect(j, "missing", p->n_missing == p->n_keys, "an entry per metric"));
    GP_TRY(rotation_of(j, o, p));
    return check_raw_metrics(j, p);
}

/* The missing input of a catalogue metric, as the catalogue spells it (its pointer lasts). */
static const char *catalogue_input(const gp_metric_def *m, const char *name)
{
    for (size_t k = 0; k < m->n_inputs; k++)
        if (strcmp(m->inputs[k], name) == 0)
            return m->inputs[k];
    return m->inputs[0];
}

static void select_metric(gp_collector *c, const char *key, const char *unit,
                          const char *missing)
{
    gp_selected_metric *s = &c->metrics[c->n_metrics++];
    memset(s, 0, sizeof *s);
    s->def = gp_find_metric(key);
    if (!s->def) {
        snprintf(s->raw_name, sizeof s->raw_name, "%s", key);
        snprintf(s->raw_unit, sizeof s->raw_unit, "%s", unit);
    }
    if (missing[0])
        s->missing = s->def ? catalogue_input(s->def, missing) : s->raw_name;
}

/* The context's collector as its profiler record describes it, counter names copied. */
static int add_context(reader *rd, const profiler_record *p)
{
    context_counters **grown = realloc(rd->contexts, (rd->n_contexts + 1) * sizeof *grown);
    if (grown)
        rd->contexts = grown;
    context_counters *cc = grown ? calloc(1, sizeof *cc) : NULL;
    if (!cc)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    rd->contexts[rd->n_contexts++] = cc;
    cc->pid = p->pid;
    cc->context = p->context;
    gp_collector *c = &cc->collector;
    snprintf(c->chip, sizeof c->chip, "%s", p->chip);
    c->passes = p->passes;
    c->kind = metric_kinds[p->set];
    for (size_t i = 0; i < p->n_counters; i++) {
        cc->names[i] = strdup(p->counters[i]);
        if (!cc->names[i])
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        c->counters[c->n_counters++] = cc->names[i];
    }
    for (size_t i = 0; i < p->n_keys; i++)
        select_metric(c, p->keys[i], p->units[i], p->missing[i]);
    memcpy(c->groups, p->groups, p->n_groups * sizeof *p->groups);
    c->n_groups = p->n_groups;
    gp_profiler_info *info = &rd->report->profiler;
    if (info->state != GP_PROF_OK) {
        gp_profiler_info_set(info, c->chip, c->passes, c->kind);
        info->has_replay = p->replay >= 0;
        info->replay = info->has_replay ? (gp_exec_replay)p->replay : GP_EXEC_REPLAY_AUTO;
        info->pass_groups = (int)p->n_groups;
    }
    return GP_OK;
}

static int read_profiler(reader *rd, const cJSON *o)
{
    profiler_record p;
    if (profiler_of(&rd->json, o, &p) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    return add_context(rd, &p);
}

const context_counters *gp_records_counters_of(const reader *rd, int pid, unsigned context)
{
    for (size_t i = 0; i < rd->n_contexts; i++)
        if (rd->contexts[i]->pid == pid && rd->contexts[i]->context == context)
            return rd->contexts[i];
    return NULL;
}

/* ---- launches and their names ------------------------------------------------------------ */

int gp_records_compare_launches(const void *a, const void *b)
{
    const gp_exec_launch *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->graph_node > y->graph_node) - (x->graph_node < y->graph_node);
}

/* By bisection over the sorted launches (none: no array to search, which bsearch may not
 * be given). */
gp_exec_launch *gp_records_find_launch(reader *rd, int pid, uint64_t id, uint64_t node)
{
    const gp_exec_launch key = {.pid = pid, .id = id, .graph_node = node};
    if (rd->n_recorded == 0)
        return NULL;
    return bsearch(&key, rd->report->exec.launches, rd->n_recorded, sizeof key,
                   gp_records_compare_launches);
}

/* The name as ncu prints it, and the mangled one when it was mangled. */
static int set_names(reader *rd, gp_exec_launch *l, const char *name)
{
    bool added;
    char **demangled = gp_hashmap_add_str(&rd->demangled, name, &added);
    if (!demangled)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (added)
        *demangled = gp_demangle(name);
    l->kernel = strdup(*demangled ? *demangled : name);
    l->mangled = *demangled ? strdup(name) : NULL;
    return l->kernel && (!*demangled || l->mangled)
               ? GP_OK
               : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

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

/* A profiled launch's values: its metrics (of the counters its passes collected, when it
 * carries some of the groups, and of those that have a value all the same: a graph node's
 * sampled DRAM bytes), and its duration from the duration counter: a launch of the SASS pass
 * has none, its run was instrumented. */
int gp_records_launch_metrics(const gp_collector *c, const double *v, uint32_t passes,
                              gp_exec_launch *l)
{
    bool collected[GP_MAX_COUNTERS];
    if (passes)
        gp_collector_collected(c, passes, collected);
    for (size_t i = 0; passes && i < c->n_counters; i++)
        collected[i] |= !isnan(v[i]);
    for (size_t i = 0; i < c->n_counters; i++)
        if (strcmp(c->counters[i], GP_DURATION_COUNTER) == 0 && isfinite(v[i]) &&
            (!passes || collected[i]))
            l->duration_ms = v[i] * 1e-6;
    l->profiled = true;
    l->passes = passes;
    return passes ? gp_collector_partial_metric_set(c, v, collected, &l->metrics)
                  : gp_collector_metric_set(c, v, 1, &l->metrics);
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
    GP_TRY(r.how == GP_HOW_GRAPH ? gp_records_name_graph(l) : set_names(rd, l, r.kernel));
    if (!cc)
        return GP_OK;
    l->origins = launch_origins[r.how];
    return gp_records_launch_metrics(&cc->collector, v, passes, l);
}

/* ---- kernels: the `name` records and the `K` lines --------------------------------------- */

static int read_name(reader *rd, const cJSON *o)
{
    int pid;
    uint64_t number;
    const char *name;
    gp_json_reader *j = &rd->json;
    if (gp_json_get_int(j, o, "pid", 0, &pid) != GP_OK ||
        gp_json_get_integer(j, o, "n", 0, UINT64_MAX, &number) != GP_OK ||
        gp_json_get_text(j, o, "name", &name) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    const uint64_t key[2] = {(uint64_t)pid, number};
    bool added;
    char **kept = gp_hashmap_add(&rd->numbered, key, sizeof key, &added);
    if (kept && added)
        *kept = strdup(name); /* the first record of a number holds */
    return kept && *kept ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}


/* The name of the first field of a kernel line that its launch's type cannot hold, or NULL. */
static const char *out_of_range(const uint64_t *k)
{
    static const int dims[] = {GP_K_GX, GP_K_GY, GP_K_GZ, GP_K_BX, GP_K_BY, GP_K_BZ};
    if (k[GP_K_PID] > INT_MAX)
        return "pid";
    if (k[GP_K_DEVICE] > INT_MAX)
        return "device";
    if (k[GP_K_CONTEXT] > UINT_MAX || k[GP_K_STREAM] > UINT_MAX)
        return "context or stream";
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        if (k[dims[i]] > UINT_MAX)
            return "grid or block";
    return NULL;
}

/* A kernel that ran: the time of the launch it belongs to (a graph node's: of its shadow
 * launch, which keeps the time and stream of this, the program's own run), or a launch of its
 * own (a graph node not shadow-launched, or any kernel when nothing was profiled and no
 * launch was recorded). A kernel said to end before it starts has no known time. */
static int read_kernel(reader *rd, const uint64_t *k)
{
    const double ms = k[GP_K_END] >= k[GP_K_START] ? (double)(k[GP_K_END] - k[GP_K_START]) * 1e-6 : -1.0;
    GP_TRY(gp_records_kernel_time(rd, k));
    const uint64_t key[2] = {k[GP_K_PID], k[GP_K_NAME]};
    char **name = gp_hashmap_find(&rd->numbered, key, sizeof key);
    gp_exec_launch *l =
        gp_records_find_launch(rd, (int)k[GP_K_PID], k[GP_K_ID], k[GP_K_NODE]);
    if (!l && k[GP_K_NODE])
        l = gp_records_adopt_shadow(rd, k, name ? *name : NULL);
    if (l && l->graph_node) {
        l->duration_ms = ms;
        l->stream = (unsigned)k[GP_K_STREAM];
        return GP_OK;
    }
    if (l) {
        if (!l->profiled)
            l->duration_ms = ms;
        return GP_OK;
    }
    GP_TRY(gp_exec_add_launch(&rd->report->exec, &l));
    *l = (gp_exec_launch){.pid = (int)k[GP_K_PID], .id = k[GP_K_ID],
                          .context = (unsigned)k[GP_K_CONTEXT], .device = (int)k[GP_K_DEVICE],
                          .stream = (unsigned)k[GP_K_STREAM],
                          .grid = {(unsigned)k[GP_K_GX], (unsigned)k[GP_K_GY], (unsigned)k[GP_K_GZ]},
                          .block = {(unsigned)k[GP_K_BX], (unsigned)k[GP_K_BY], (unsigned)k[GP_K_BZ]},
                          .shared_bytes = (size_t)k[GP_K_SMEM], .duration_ms = ms,
                          .graph = k[GP_K_GRAPH], .graph_node = k[GP_K_NODE]};
    return set_names(rd, l, name && *name ? *name : "?");
}

/* ---- copies, memsets, unified memory: the `M`, `S` and `U` lines ---------------------------- */

/* The name of the first field of a copy line that the report cannot hold, or NULL. */
static const char *copy_out_of_range(const uint64_t *m)
{
    if (m[GP_M_PID] > INT_MAX || m[GP_M_DEVICE] > INT_MAX)
        return "pid or device";
    if (m[GP_M_CONTEXT] > UINT_MAX || m[GP_M_STREAM] > UINT_MAX)
        return "context or stream";
    if (m[GP_M_KIND] >= GP_ACTIVITY_MEMSET)
        return "copy kind";
    if (m[GP_M_SRC] >= GP_MEMORY_KINDS || m[GP_M_DST] >= GP_MEMORY_KINDS)
        return "memory kind";
    return NULL;
}

static const char *memset_out_of_range(const uint64_t *s)
{
    if (s[GP_S_PID] > INT_MAX || s[GP_S_DEVICE] > INT_MAX)
        return "pid or device";
    if (s[GP_S_CONTEXT] > UINT_MAX || s[GP_S_STREAM] > UINT_MAX)
        return "context or stream";
    return s[GP_S_MEMORY] >= GP_MEMORY_KINDS ? "memory kind" : NULL;
}

static const char *unified_out_of_range(const uint64_t *u)
{
    if (u[GP_U_PID] > INT_MAX)
        return "pid";
    return u[GP_U_COUNTER] == GP_UM_UNKNOWN || u[GP_U_COUNTER] >= GP_UM_COUNTERS ? "counter"
                                                                                  : NULL;
}

static int read_copy(reader *rd, const uint64_t *m)
{
    gp_exec_activity *a;
    GP_TRY(gp_exec_add_activity(&rd->report->exec, &a));
    *a = (gp_exec_activity){.pid = (int)m[GP_M_PID], .id = m[GP_M_ID],
                            .device = (int)m[GP_M_DEVICE],
                            .context = (unsigned)m[GP_M_CONTEXT],
                            .stream = (unsigned)m[GP_M_STREAM],
                            .kind = (gp_activity_kind)m[GP_M_KIND],
                            .src = (gp_memory_kind)m[GP_M_SRC],
                            .dst = (gp_memory_kind)m[GP_M_DST], .bytes = m[GP_M_BYTES],
                            .start_ns = m[GP_M_START], .end_ns = m[GP_M_END]};
    return GP_OK;
}

static int read_memset(reader *rd, const uint64_t *s)
{
    gp_exec_activity *a;
    GP_TRY(gp_exec_add_activity(&rd->report->exec, &a));
    *a = (gp_exec_activity){.pid = (int)s[GP_S_PID], .id = s[GP_S_ID],
                            .device = (int)s[GP_S_DEVICE],
                            .context = (unsigned)s[GP_S_CONTEXT],
                            .stream = (unsigned)s[GP_S_STREAM], .kind = GP_ACTIVITY_MEMSET,
                            .src = GP_MEMORY_UNKNOWN, .dst = (gp_memory_kind)s[GP_S_MEMORY],
                            .bytes = s[GP_S_BYTES], .start_ns = s[GP_S_START],
                            .end_ns = s[GP_S_END]};
    return GP_OK;
}

/* The counters whose records have a duration (the others' end is to be ignored). */
static bool has_duration(uint64_t counter)
{
    return counter == GP_UM_BYTES_HTOD || counter == GP_UM_BYTES_DTOH ||
           counter == GP_UM_BYTES_DTOD || counter == GP_UM_GPU_PAGE_FAULTS ||
           counter == GP_UM_THROTTLING;
}

static int read_unified(reader *rd, const uint64_t *u)
{
    const uint64_t ns = has_duration(u[GP_U_COUNTER]) && u[GP_U_END] >= u[GP_U_START]
                            ? u[GP_U_END] - u[GP_U_START]
                            : 0;
    gp_exec_count_unified(&rd->report->exec.unified[u[GP_U_COUNTER]], u[GP_U_VALUE], ns);
    return GP_OK;
}

/* ---- the lines of numbers ------------------------------------------------------------------ */

/* Each kind of line: its tag, its number of fields, the field out of range, its reader. */
static const struct {
    char tag;
    size_t fields;
    const char *(*out_of_range)(const uint64_t *numbers);
    int (*read)(reader *rd, const uint64_t *numbers);
    const char *what;
} number_lines[] = {
    {GP_KERNEL_TAG, GP_K_FIELDS, out_of_range, read_kernel, "kernel"},
    {GP_COPY_TAG, GP_M_FIELDS, copy_out_of_range, read_copy, "copy"},
    {GP_MEMSET_TAG, GP_S_FIELDS, memset_out_of_range, read_memset, "memset"},
    {GP_UNIFIED_TAG, GP_U_FIELDS, unified_out_of_range, read_unified, "unified memory"},
    {GP_SAMPLE_TAG, GP_P_FIELDS, gp_records_sample_out_of_range, gp_records_read_sample,
     "DRAM sample"},
};
#define N_NUMBER_LINES (sizeof number_lines / sizeof number_lines[0])
#define MOST_FIELDS GP_K_FIELDS

/* The kind of a line of numbers by its first character; N_NUMBER_LINES: a JSON record. */
static size_t number_line_kind(char tag)
{
    size_t i = 0;
    while (i < N_NUMBER_LINES && number_lines[i].tag != tag)
        i++;
    return i;
}

/* "T n n n ...\n", n decimal (one past UINT64_MAX stays there), `fields` of them: false for
 * a line that is not whole (a crash cut it) or not one the library writes. */
static bool parse_numbers(const char *line, size_t len, size_t fields, uint64_t *k)
{
    size_t i = 1;
    for (size_t f = 0; f < fields; f++) {
        if (i >= len || line[i] != ' ')
            return false;
        const size_t first = ++i;
        uint64_t v = 0;
        for (; i < len && line[i] >= '0' && line[i] <= '9'; i++) {
            const unsigned digit = (unsigned)(line[i] - '0');
            v = v > (UINT64_MAX - digit) / 10 ? UINT64_MAX : v * 10 + digit;
        }
        if (i == first)
            return false;
        k[f] = v;
    }
    return i + 1 == len && line[i] == '\n';
}

static int read_number_line(reader *rd, size_t kind, const char *line, size_t len,
                            const char *file, size_t number)
{
    uint64_t k[MOST_FIELDS];
    if (!parse_numbers(line, len, number_lines[kind].fields, k))
        return GP_OK;
    const char *field = number_lines[kind].out_of_range(k);
    if (!field)
        return number_lines[kind].read(rd, k);
    locate(rd, file, number);
    gp_json_fail(&rd->json, "a %s line's %s is out of its range", number_lines[kind].what,
                 field);
    return gp_records_ignore(rd, "the line is ignored");
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
    {"profiler", read_profiler}, {"launch", read_launch}, {"name", read_name},
    {"warning", read_warning}, {GP_RECORD_GRAPH, gp_records_read_graph},
    {GP_RECORD_SAMPLED, gp_records_read_sampled},
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
static int read_text(reader *rd, const gp_exec_records_text *t, enum pass pass)
{
    size_t number = 0;
    int rc = GP_OK;
    for (size_t at = 0; rc == GP_OK && at < t->len;) {
        const char *line = t->text + at;
        const char *newline = memchr(line, '\n', t->len - at);
        const size_t len = newline ? (size_t)(newline - line) + 1 : t->len - at;
        at += len;
        number++;
        const size_t kind = number_line_kind(line[0]);
        if (kind < N_NUMBER_LINES) {
            if (pass == KERNEL_LINES)
                rc = read_number_line(rd, kind, line, len, t->name, number);
            continue;
        }
        if (pass == KERNEL_LINES)
            continue;
        cJSON *o = cJSON_ParseWithLength(line, len);
        locate(rd, t->name, number);
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

/* Each entry's value, a string (or NULL), freed; then the map. */
static void free_strings(gp_hashmap *m)
{
    size_t cursor = 0;
    for (char **s; (s = gp_hashmap_next(m, &cursor, NULL, NULL)) != NULL;)
        free(*s);
    gp_hashmap_free(m);
}

static void free_reader(reader *rd)
{
    free_strings(&rd->numbered);
    free_strings(&rd->demangled);
    for (size_t i = 0; i < rd->n_contexts; i++) {
        for (size_t k = 0; k < rd->contexts[i]->collector.n_counters; k++)
            free(rd->contexts[i]->names[k]);
        free(rd->contexts[i]);
    }
    free(rd->contexts);
    free(rd->pids);
    free(rd->ended);
    gp_records_free_graphs(rd);
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
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

int gp_exec_read_texts(const gp_exec_records_text *files, size_t n, gp_report *report)
{
    reader rd = {.report = report};
    gp_hashmap_init(&rd.demangled, sizeof(char *));
    gp_hashmap_init(&rd.numbered, sizeof(char *));
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
    if (rc == GP_OK && e->n_activities > 1)
        qsort(e->activities, e->n_activities, sizeof *e->activities, compare_activities);
    rebase_activities(e);
    if (rc == GP_OK)
        rc = note_unfinished(&rd);
    if (rc == GP_OK)
        rc = note_more_ignored(&rd);
    e->processes = rd.n_pids;
    free_reader(&rd);
    return rc;
}
