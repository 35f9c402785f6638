/* gpuprof exec: the records the injected library wrote (exec/protocol.h) read back into the
 * report: devices, each launch with its counters turned into metrics the same way as the
 * kernel commands', kernel times from the activity records, warnings. */
#include "exec/read.h"

#include "exec/protocol.h"
#include "gpuprof/collector.h"
#include "gpuprof/demangle.h"
#include "gpuprof/status.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DURATION_COUNTER "gpu__time_duration.sum"

/* A context's counters as its profiler record gave them: what its launches' values mean. */
typedef struct {
    int pid;
    unsigned context;
    gp_collector collector;      /* no profiler: names, metrics and chip only */
    char *names[GP_MAX_COUNTERS];
} context_counters;

/* Demangled names by mangled name: a program launches few kernels, many times. */
typedef struct {
    char *mangled, *demangled;   /* demangled NULL: not a C++ name */
} name_entry;

/* A process's kernel names by the numbers its `name` records gave them. */
typedef struct {
    int pid;
    uint64_t number;
    char *name;
} numbered_name;

typedef struct {
    gp_report *report;
    name_entry *names;           /* open addressing, power-of-two size */
    size_t name_slots, n_names;
    numbered_name *numbered;     /* open addressing by (pid, number) */
    size_t numbered_slots, n_numbered;
    size_t n_recorded;           /* launches from launch records: sorted by (pid, id) */
    context_counters *contexts;
    size_t n_contexts;
    bool *ended;                 /* per process index: wrote its end record */
    int *pids;
    size_t n_pids;
} reader;

/* ---- small accessors -------------------------------------------------------------------- */

static double number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *text(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static gp_dim3 dim(const cJSON *o, const char *key)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    gp_dim3 d = {0, 0, 0};
    if (cJSON_GetArraySize(a) == 3) {
        d.x = (unsigned)cJSON_GetArrayItem(a, 0)->valuedouble;
        d.y = (unsigned)cJSON_GetArrayItem(a, 1)->valuedouble;
        d.z = (unsigned)cJSON_GetArrayItem(a, 2)->valuedouble;
    }
    return d;
}

/* ---- processes and devices -------------------------------------------------------------- */

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

static void note_end(reader *rd, int pid)
{
    for (size_t i = 0; i < rd->n_pids; i++)
        if (rd->pids[i] == pid)
            rd->ended[i] = true;
}

static int read_device(reader *rd, const cJSON *o)
{
    gp_exec_info *e = &rd->report->exec;
    const int ordinal = (int)number(o, "device");
    for (size_t i = 0; i < e->n_devices; i++)
        if (e->devices[i].index == ordinal)
            return GP_OK; /* one description per device, whatever its contexts */
    gp_device_info d;
    memset(&d, 0, sizeof d);
    d.index = ordinal;
    snprintf(d.name, sizeof d.name, "%s", text(o, "name") ? text(o, "name") : "");
    d.cc_major = (int)number(o, "cc_major");
    d.cc_minor = (int)number(o, "cc_minor");
    d.multiprocessors = (int)number(o, "sms");
    d.memory_bytes = (uint64_t)number(o, "memory");
    d.l2_bytes = (uint64_t)number(o, "l2");
    d.sm_clock_mhz = number(o, "sm_clock_khz") / 1000.0;
    d.memory_clock_mhz = number(o, "memory_clock_khz") / 1000.0;
    d.memory_bus_bits = (int)number(o, "bus_bits");
    d.peak_gbps = 2.0 * number(o, "memory_clock_khz") * 1e3 * (d.memory_bus_bits / 8.0) / 1e9;
    d.copy_gbps = -1.0;
    return gp_exec_add_device(e, &d);
}

/* ---- counters and metrics ------------------------------------------------------------------ */

static const context_counters *counters_of(const reader *rd, int pid, unsigned context)
{
    for (size_t i = 0; i < rd->n_contexts; i++)
        if (rd->contexts[i].pid == pid && rd->contexts[i].context == context)
            return &rd->contexts[i];
    return NULL;
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
        snprintf(s->raw_unit, sizeof s->raw_unit, "%s", unit ? unit : "");
    }
    if (missing && missing[0])
        s->missing = s->def ? catalogue_input(s->def, missing) : s->raw_name;
}

static int read_profiler(reader *rd, const cJSON *o)
{
    context_counters *grown = realloc(rd->contexts, (rd->n_contexts + 1) * sizeof *grown);
    if (!grown)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    rd->contexts = grown;
    context_counters *cc = &rd->contexts[rd->n_contexts++];
    memset(cc, 0, sizeof *cc);
    cc->pid = (int)number(o, "pid");
    cc->context = (unsigned)number(o, "context");
    gp_collector *c = &cc->collector;
    snprintf(c->chip, sizeof c->chip, "%s", text(o, "chip") ? text(o, "chip") : "");
    c->passes = (int)number(o, "passes");
    const char *set = text(o, "set");
    c->kind = set && strcmp(set, "all") == 0    ? GP_METRICS_ALL
              : set && strcmp(set, "list") == 0 ? GP_METRICS_LIST
                                                : GP_METRICS_DEFAULT;
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o, "counters"))
    {
        if (!cJSON_IsString(item) || c->n_counters >= GP_MAX_COUNTERS)
            continue;
        cc->names[c->n_counters] = strdup(item->valuestring);
        if (!cc->names[c->n_counters])
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        c->counters[c->n_counters] = cc->names[c->n_counters];
        c->n_counters++;
    }
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(o, "metrics");
    const cJSON *units = cJSON_GetObjectItemCaseSensitive(o, "units");
    const cJSON *missing = cJSON_GetObjectItemCaseSensitive(o, "missing");
    for (int i = 0; i < cJSON_GetArraySize(keys) && c->n_metrics < GP_MAX_METRIC_NAMES + 32; i++) {
        const cJSON *k = cJSON_GetArrayItem(keys, i), *u = cJSON_GetArrayItem(units, i);
        const cJSON *m = cJSON_GetArrayItem(missing, i);
        if (cJSON_IsString(k))
            select_metric(c, k->valuestring, cJSON_IsString(u) ? u->valuestring : "",
                          cJSON_IsString(m) ? m->valuestring : "");
    }
    gp_profiler_info *info = &rd->report->profiler;
    if (info->state != GP_PROF_OK)
        gp_collector_describe(c, info);
    return GP_OK;
}

/* A profiled launch's values: its metrics, and its duration from the duration counter. */
static int launch_metrics(const context_counters *cc, const cJSON *values, gp_exec_launch *l)
{
    double v[GP_MAX_COUNTERS];
    const gp_collector *c = &cc->collector;
    if (cJSON_GetArraySize(values) != (int)c->n_counters)
        return GP_OK; /* not the record it should be: leave it unprofiled */
    for (size_t i = 0; i < c->n_counters; i++) {
        const cJSON *x = cJSON_GetArrayItem(values, (int)i);
        v[i] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
        if (strcmp(c->counters[i], DURATION_COUNTER) == 0 && isfinite(v[i]))
            l->duration_ms = v[i] * 1e-6;
    }
    l->profiled = true;
    return gp_collector_metric_set(c, v, 1, &l->metrics);
}

/* ---- launches and kernels ------------------------------------------------------------------- */

static int compare_launches(const void *a, const void *b)
{
    const gp_exec_launch *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->graph_node > y->graph_node) - (x->graph_node < y->graph_node);
}

/* The recorded launch (pid, id), by bisection over the sorted launch records. */
static gp_exec_launch *find_launch(reader *rd, int pid, uint64_t id)
{
    const gp_exec_launch key = {.pid = pid, .id = id};
    return bsearch(&key, rd->report->exec.launches, rd->n_recorded,
                   sizeof key, compare_launches);
}

static size_t hash_name(const char *s)
{
    size_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static name_entry *name_slot(name_entry *table, size_t slots, const char *mangled)
{
    for (size_t i = hash_name(mangled) & (slots - 1);; i = (i + 1) & (slots - 1))
        if (!table[i].mangled || strcmp(table[i].mangled, mangled) == 0)
            return &table[i];
}

static int grow_names(reader *rd)
{
    const size_t slots = rd->name_slots ? 2 * rd->name_slots : 64;
    name_entry *bigger = calloc(slots, sizeof *bigger);
    if (!bigger)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < rd->name_slots; i++)
        if (rd->names[i].mangled)
            *name_slot(bigger, slots, rd->names[i].mangled) = rd->names[i];
    free(rd->names);
    rd->names = bigger;
    rd->name_slots = slots;
    return GP_OK;
}

/* The name as ncu prints it, and the mangled one when it was mangled. */
static int set_names(reader *rd, gp_exec_launch *l, const char *name)
{
    if (!name)
        name = "?";
    if (2 * (rd->n_names + 1) > rd->name_slots)
        GP_TRY(grow_names(rd));
    name_entry *e = name_slot(rd->names, rd->name_slots, name);
    if (!e->mangled) {
        e->mangled = strdup(name);
        e->demangled = gp_demangle(name);
        rd->n_names++;
        if (!e->mangled)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    l->kernel = strdup(e->demangled ? e->demangled : name);
    l->mangled = e->demangled ? strdup(name) : NULL;
    return l->kernel && (!e->demangled || l->mangled)
               ? GP_OK
               : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

static void launch_shape(gp_exec_launch *l, const cJSON *o)
{
    l->pid = (int)number(o, "pid");
    l->id = (uint64_t)number(o, "id");
    l->context = (unsigned)number(o, "context");
    l->device = (int)number(o, "device");
    l->stream = (unsigned)number(o, "stream");
    l->grid = dim(o, "grid");
    l->block = dim(o, "block");
    l->shared_bytes = (size_t)number(o, "smem");
}

static int read_launch(reader *rd, const cJSON *o)
{
    gp_exec_launch *l;
    GP_TRY(gp_exec_add_launch(&rd->report->exec, &l));
    launch_shape(l, o);
    GP_TRY(set_names(rd, l, text(o, "kernel")));
    if (number(o, "profiled") != 1)
        return GP_OK;
    const context_counters *cc = counters_of(rd, l->pid, l->context);
    return cc ? launch_metrics(cc, cJSON_GetObjectItemCaseSensitive(o, "values"), l) : GP_OK;
}

/* ---- kernels: the `name` records and the `K` lines ------------------------------------ */

static size_t numbered_hash(int pid, uint64_t number)
{
    return (size_t)(number * 1099511628211ull) ^ (size_t)pid;
}

static numbered_name *numbered_slot(numbered_name *t, size_t slots, int pid, uint64_t n)
{
    for (size_t i = numbered_hash(pid, n) & (slots - 1);; i = (i + 1) & (slots - 1))
        if (!t[i].name || (t[i].pid == pid && t[i].number == n))
            return &t[i];
}

static int read_name(reader *rd, const cJSON *o)
{
    if (2 * (rd->n_numbered + 1) > rd->numbered_slots) {
        const size_t slots = rd->numbered_slots ? 2 * rd->numbered_slots : 64;
        numbered_name *bigger = calloc(slots, sizeof *bigger);
        if (!bigger)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        for (size_t i = 0; i < rd->numbered_slots; i++)
            if (rd->numbered[i].name)
                *numbered_slot(bigger, slots, rd->numbered[i].pid, rd->numbered[i].number) =
                    rd->numbered[i];
        free(rd->numbered);
        rd->numbered = bigger;
        rd->numbered_slots = slots;
    }
    const int pid = (int)number(o, "pid");
    const uint64_t n = (uint64_t)number(o, "n");
    numbered_name *e = numbered_slot(rd->numbered, rd->numbered_slots, pid, n);
    if (e->name)
        return GP_OK;
    e->name = strdup(text(o, "name") ? text(o, "name") : "?");
    if (!e->name)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    e->pid = pid;
    e->number = n;
    rd->n_numbered++;
    return GP_OK;
}

enum { K_PID, K_ID, K_CONTEXT, K_DEVICE, K_STREAM, K_NAME, K_GX, K_GY, K_GZ, K_BX, K_BY, K_BZ,
       K_SMEM, K_START, K_END, K_GRAPH, K_NODE, K_FIELDS };

/* A kernel that ran: the time of the launch it belongs to, or a launch of its own (a graph
 * node, or any kernel when nothing was profiled and no launch was recorded). */
static int read_kernel(reader *rd, const uint64_t *k)
{
    const double ms = (double)(k[K_END] - k[K_START]) * 1e-6;
    gp_exec_launch *l = k[K_NODE] ? NULL : find_launch(rd, (int)k[K_PID], k[K_ID]);
    if (l) {
        if (!l->profiled)
            l->duration_ms = ms;
        return GP_OK;
    }
    const numbered_name *name =
        rd->numbered_slots ? numbered_slot(rd->numbered, rd->numbered_slots, (int)k[K_PID],
                                           k[K_NAME])
                           : NULL;
    GP_TRY(gp_exec_add_launch(&rd->report->exec, &l));
    *l = (gp_exec_launch){.pid = (int)k[K_PID], .id = k[K_ID],
                          .context = (unsigned)k[K_CONTEXT], .device = (int)k[K_DEVICE],
                          .stream = (unsigned)k[K_STREAM],
                          .grid = {(unsigned)k[K_GX], (unsigned)k[K_GY], (unsigned)k[K_GZ]},
                          .block = {(unsigned)k[K_BX], (unsigned)k[K_BY], (unsigned)k[K_BZ]},
                          .shared_bytes = (size_t)k[K_SMEM], .duration_ms = ms,
                          .graph = k[K_GRAPH], .graph_node = k[K_NODE]};
    return set_names(rd, l, name && name->name ? name->name : NULL);
}

/* "K n n n ...": false for a line that is not whole (a crash cut it). */
static bool parse_numbers(const char *line, uint64_t *k)
{
    const char *p = line + 1;
    for (int i = 0; i < K_FIELDS; i++) {
        char *end;
        if (*p != ' ')
            return false;
        k[i] = strtoull(p + 1, &end, 10);
        if (end == p + 1)
            return false;
        p = end;
    }
    return *p == '\n';
}

static int read_warning(reader *rd, const cJSON *o)
{
    const char *what = text(o, "text"), *hint = text(o, "hint");
    gp_report *r = rd->report;
    if (what && strncmp(what, "metrics unavailable", 19) == 0 && r->profiler.state != GP_PROF_OK) {
        r->profiler.state = GP_PROF_UNAVAILABLE;
        snprintf(r->profiler.reason, sizeof r->profiler.reason, "%s", what);
    }
    for (size_t i = 0; i < r->n_warnings; i++)
        if (what && strcmp(r->warnings[i], what) == 0)
            return GP_OK; /* once, whatever the number of contexts or processes */
    GP_TRY(gp_report_add_warning(r, what ? what : "unnamed warning"));
    return hint ? gp_report_add_warning(r, hint) : GP_OK;
}

static int read_record(reader *rd, const cJSON *o)
{
    const char *t = text(o, "t");
    if (!t)
        return GP_OK;
    if (strcmp(t, "process") == 0)
        return note_process(rd, (int)number(o, "pid"));
    if (strcmp(t, "end") == 0) {
        note_end(rd, (int)number(o, "pid"));
        return GP_OK;
    }
    if (strcmp(t, "device") == 0)
        return read_device(rd, o);
    if (strcmp(t, "profiler") == 0)
        return read_profiler(rd, o);
    if (strcmp(t, "launch") == 0)
        return read_launch(rd, o);
    if (strcmp(t, "name") == 0)
        return read_name(rd, o);
    if (strcmp(t, "warning") == 0)
        return read_warning(rd, o);
    return GP_OK; /* a newer library's record: nothing to do with it here */
}

/* ---- files ----------------------------------------------------------------------------------- */

/* Every record (pass 0), or the kernels' lines (pass 1): a kernel's time may be written
 * before its launch record, and is joined to it after all launches are read. A torn last
 * line (a crash) is skipped. */
static int read_lines(reader *rd, FILE *f, int pass)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = GP_OK;
    while (rc == GP_OK && (n = getline(&line, &cap, f)) > 0) {
        if (line[0] == 'K') {
            uint64_t k[K_FIELDS];
            if (pass == 1 && parse_numbers(line, k))
                rc = read_kernel(rd, k);
            continue;
        }
        if (pass == 1)
            continue;
        cJSON *o = cJSON_ParseWithLength(line, (size_t)n);
        if (o)
            rc = read_record(rd, o);
        cJSON_Delete(o);
    }
    free(line);
    return rc;
}

static int read_file_at(reader *rd, const char *dir, const char *name, int pass)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return gp_fail(GP_ERR_RUNTIME, "cannot open %s: %s", path, strerror(errno));
    int rc = read_lines(rd, f, pass);
    fclose(f);
    return rc;
}

static bool is_record_file(const char *name)
{
    const size_t n = strlen(name), k = strlen(GP_RECORD_SUFFIX);
    return n > k && strcmp(name + n - k, GP_RECORD_SUFFIX) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The record files in pid order of their names' sorting: deterministic for the tests. */
static int list_files(const char *dir, char ***names, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return gp_fail(GP_ERR_RUNTIME, "cannot read %s: %s", dir, strerror(errno));
    *names = NULL;
    *n = 0;
    struct dirent *e;
    int rc = GP_OK;
    while (rc == GP_OK && (e = readdir(d)) != NULL) {
        if (!is_record_file(e->d_name))
            continue;
        char **grown = realloc(*names, (*n + 1) * sizeof *grown);
        char *copy = strdup(e->d_name);
        if (grown)
            *names = grown;
        if (!grown || !copy) {
            free(copy);
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
            break;
        }
        (*names)[(*n)++] = copy;
    }
    closedir(d);
    if (*n > 1)
        qsort(*names, *n, sizeof **names, compare_names);
    return rc;
}

/* ---- the whole -------------------------------------------------------------------------------- */

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

static void free_reader(reader *rd)
{
    for (size_t i = 0; i < rd->numbered_slots; i++)
        free(rd->numbered[i].name);
    free(rd->numbered);
    for (size_t i = 0; i < rd->name_slots; i++) {
        free(rd->names[i].mangled);
        free(rd->names[i].demangled);
    }
    free(rd->names);
    for (size_t i = 0; i < rd->n_contexts; i++)
        for (size_t k = 0; k < rd->contexts[i].collector.n_counters; k++)
            free(rd->contexts[i].names[k]);
    free(rd->contexts);
    free(rd->pids);
    free(rd->ended);
}

static void sort_launches(gp_exec_info *e)
{
    if (e->n_launches > 1)
        qsort(e->launches, e->n_launches, sizeof *e->launches, compare_launches);
}

int gp_exec_read_records(const char *dir, gp_report *report)
{
    reader rd = {.report = report};
    char **names = NULL;
    size_t n = 0;
    gp_exec_info *e = &report->exec;
    int rc = list_files(dir, &names, &n);
    for (size_t i = 0; rc == GP_OK && i < n; i++)
        rc = read_file_at(&rd, dir, names[i], 0);
    sort_launches(e);
    rd.n_recorded = e->n_launches;
    for (size_t i = 0; rc == GP_OK && i < n; i++)
        rc = read_file_at(&rd, dir, names[i], 1);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (rc == GP_OK)
        sort_launches(e);
    if (rc == GP_OK)
        rc = note_unfinished(&rd);
    e->processes = rd.n_pids;
    free_reader(&rd);
    return rc;
}
