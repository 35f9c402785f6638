/* The profiler records of records/read_profilers.h. A record that is not as the library
 * writes it is ignored with a warning: its context's launches are then reported without
 * counters. */
#include "records/read_profilers.h"

#include "gpuprof/exec_modes.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SELECTED (sizeof((gp_collector *)0)->metrics / sizeof((gp_collector *)0)->metrics[0])

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
    context_counters *cc;
    GP_TRY(gp_records_add_context(rd, &cc));
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

int gp_records_read_profiler(reader *rd, const cJSON *o)
{
    profiler_record p;
    if (profiler_of(&rd->json, o, &p) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    return add_context(rd, &p);
}

/* A footprint record: auto's decision on a context. The report keeps the first decision not
 * to replay (it explains the kernels that lack a group), else the first. */
int gp_records_read_footprint(reader *rd, const cJSON *o)
{
    gp_json_reader *j = &rd->json;
    uint64_t replay, held, free_bytes, total, budget;
    if (gp_json_get_integer(j, o, "replay", 0, 1, &replay) != GP_OK ||
        gp_json_get_integer(j, o, "held", 0, UINT64_MAX, &held) != GP_OK ||
        gp_json_get_integer(j, o, "free", 0, UINT64_MAX, &free_bytes) != GP_OK ||
        gp_json_get_integer(j, o, "total", 0, UINT64_MAX, &total) != GP_OK ||
        gp_json_get_integer(j, o, "budget", 0, UINT64_MAX, &budget) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    gp_auto_footprint *f = &rd->report->profiler.footprint;
    if (f->known && (!f->replays || replay))
        return GP_OK;
    *f = (gp_auto_footprint){true, replay == 1, held, free_bytes, total, budget};
    return GP_OK;
}
