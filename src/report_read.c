/* Reading a report saved with --json back into the report structs (the layout of
 * schemas/gpuprof-report-v1.schema.json). */
#include "gpuprof/report.h"

#include "gpuprof/status.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading ------------------------------------------------------------------------ */

typedef struct {
    const char *path;
} reader;

static int missing(const reader *rd, const char *what)
{
    return gp_fail(GP_ERR_RUNTIME, "%s: not a gpuprof report (missing or wrong %s)", rd->path,
                   what);
}

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double num(const cJSON *o, const char *key, double fallback)
{
    const cJSON *v = field(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

static void str(const cJSON *o, const char *key, char *dst, size_t len)
{
    const cJSON *v = field(o, key);
    snprintf(dst, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

static gp_dim3 read_dim(const cJSON *a)
{
    gp_dim3 d = {0, 0, 0};
    if (cJSON_GetArraySize(a) == 3) {
        d.x = (unsigned)cJSON_GetArrayItem(a, 0)->valuedouble;
        d.y = (unsigned)cJSON_GetArrayItem(a, 1)->valuedouble;
        d.z = (unsigned)cJSON_GetArrayItem(a, 2)->valuedouble;
    }
    return d;
}

static void read_pair(const cJSON *a, unsigned *x, unsigned *y)
{
    if (cJSON_GetArraySize(a) == 2) {
        *x = (unsigned)cJSON_GetArrayItem(a, 0)->valuedouble;
        *y = (unsigned)cJSON_GetArrayItem(a, 1)->valuedouble;
    }
}

static int add_counter(gp_metric_set *s, const char *name, double value)
{
    for (size_t i = 0; i < s->n_counters; i++)
        if (strcmp(s->counters[i].name, name) == 0)
            return GP_OK;
    gp_counter *c = realloc(s->counters, (s->n_counters + 1) * sizeof *c);
    if (!c)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    s->counters = c;
    snprintf(c[s->n_counters].name, GP_NAME_LEN, "%s", name);
    c[s->n_counters++].value = value;
    return GP_OK;
}

static int read_metrics(const cJSON *o, gp_metric_set *s)
{
    memset(s, 0, sizeof *s);
    if (!cJSON_IsObject(o))
        return GP_OK;
    int n = cJSON_GetArraySize(o);
    s->metrics = calloc((size_t)n + 1, sizeof *s->metrics);
    if (!s->metrics)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    const cJSON *e;
    cJSON_ArrayForEach(e, o)
    {
        gp_metric_value *m = &s->metrics[s->n_metrics++];
        snprintf(m->key, sizeof m->key, "%s", e->string);
        str(e, "unit", m->unit, sizeof m->unit);
        str(e, "reason", m->why, sizeof m->why);
        const cJSON *v = field(e, "value");
        m->valid = cJSON_IsNumber(v);
        m->value = m->valid ? v->valuedouble : NAN;
        const cJSON *in;
        cJSON_ArrayForEach(in, field(e, "inputs"))
        {
            if (m->n_inputs < 4)
                snprintf(m->inputs[m->n_inputs++], GP_NAME_LEN, "%s", in->string);
            GP_TRY(add_counter(s, in->string, cJSON_IsNumber(in) ? in->valuedouble : NAN));
        }
    }
    return GP_OK;
}

static void read_check(const cJSON *o, gp_check *c)
{
    char status[16];
    str(o, "status", status, sizeof status);
    gp_check_status_from_name(status, &c->status);
    c->exact = cJSON_IsTrue(field(o, "exact"));
    c->expected = num(o, "expected", NAN);
    c->got = num(o, "got", NAN);
    c->tolerance = num(o, "tolerance", 0);
    c->mismatches = (uint64_t)num(o, "mismatches", 0);
    str(o, "detail", c->detail, sizeof c->detail);
    const cJSON *after = field(o, "after_profile");
    c->rechecked = cJSON_IsString(after);
    if (c->rechecked)
        gp_check_status_from_name(after->valuestring, &c->after_profile);
}

static int read_launch(const cJSON *o, gp_result *res)
{
    gp_launch_record *l;
    GP_TRY(gp_result_add_launch(res, &l));
    str(o, "kernel", l->kernel, sizeof l->kernel);
    l->grid = read_dim(field(o, "grid"));
    l->block = read_dim(field(o, "block"));
    l->shared_bytes = (size_t)num(o, "shared_bytes", 0);
    l->opaque = cJSON_IsTrue(field(o, "library_call"));
    read_pair(field(o, "input_shape"), &l->in_nx, &l->in_ny);
    read_pair(field(o, "output_shape"), &l->out_nx, &l->out_ny);
    l->median_ms = num(o, "median_ms", -1.0);
    return read_metrics(field(o, "metrics"), &l->metrics);
}

static int read_result(const reader *rd, const cJSON *o, gp_report *r)
{
    if (!cJSON_IsObject(o) || !cJSON_IsString(field(o, "variant")))
        return missing(rd, "results[].variant");
    gp_result *res;
    GP_TRY(gp_report_add_result(r, &res));
    str(o, "family", res->family, sizeof res->family);
    str(o, "variant", res->variant, sizeof res->variant);
    str(o, "type", res->type, sizeof res->type);
    const cJSON *size = field(o, "size"), *param;
    res->n = (uint64_t)num(size, "n", 0);
    res->nx = (unsigned)num(size, "nx", 0);
    res->ny = (unsigned)num(size, "ny", 0);
    cJSON_ArrayForEach(param, field(o, "params"))
        GP_TRY(gp_result_add_param(res, param->string,
                                   cJSON_IsNumber(param) ? param->valuedouble : NAN));
    const cJSON *launch = field(o, "launch"), *t = field(o, "timing");
    res->grid = read_dim(field(launch, "grid"));
    res->block = read_dim(field(launch, "block"));
    res->shared_bytes = (size_t)num(launch, "shared_bytes", 0);
    res->timing.min_ms = num(t, "min_ms", NAN);
    res->timing.median_ms = num(t, "median_ms", NAN);
    res->timing.max_ms = num(t, "max_ms", NAN);
    res->timing.repeats = (unsigned)num(t, "repeats", 0);
    res->timing.warmup = (unsigned)num(t, "warmup", 0);
    res->bytes_moved = (uint64_t)num(o, "bytes_moved", 0);
    res->gbps = num(o, "bandwidth_gbps", NAN);
    res->percent_of_peak = num(o, "percent_of_peak", NAN);
    read_check(field(o, "check"), &res->check);
    const cJSON *profile = field(o, "profile");
    res->profiled = cJSON_IsObject(profile);
    res->passes = (int)num(profile, "passes", 0);
    res->sm_clock_ghz = num(profile, "sm_clock_ghz", -1.0);
    res->dram_clock_ghz = num(profile, "dram_clock_ghz", -1.0);
    GP_TRY(read_metrics(field(o, "metrics"), &res->metrics));
    const cJSON *l;
    cJSON_ArrayForEach(l, field(o, "launches")) GP_TRY(read_launch(l, res));
    return GP_OK;
}

static void read_device(const cJSON *o, gp_device_info *d)
{
    char cc[16] = "", drv[16] = "", rt[16] = "";
    d->index = (int)num(o, "index", 0);
    str(o, "name", d->name, sizeof d->name);
    str(o, "compute_capability", cc, sizeof cc);
    sscanf(cc, "%d.%d", &d->cc_major, &d->cc_minor);
    d->multiprocessors = (int)num(o, "multiprocessors", 0);
    d->memory_bytes = (uint64_t)num(o, "memory_bytes", 0);
    d->l2_bytes = (uint64_t)num(o, "l2_bytes", 0);
    d->sm_clock_mhz = num(o, "sm_clock_mhz", 0);
    d->memory_clock_mhz = num(o, "memory_clock_mhz", 0);
    d->memory_bus_bits = (int)num(o, "memory_bus_bits", 0);
    d->peak_gbps = num(o, "peak_bandwidth_gbps", 0);
    d->copy_gbps = num(o, "copy_bandwidth_gbps", -1.0);
    str(o, "driver_version", drv, sizeof drv);
    str(o, "runtime_version", rt, sizeof rt);
    int major = 0, minor = 0;
    if (sscanf(drv, "%d.%d", &major, &minor) == 2)
        d->driver_version = major * 1000 + minor * 10;
    if (sscanf(rt, "%d.%d", &major, &minor) == 2)
        d->runtime_version = major * 1000 + minor * 10;
}

static void read_profiler(const cJSON *o, gp_profiler_info *p)
{
    char state[16];
    str(o, "state", state, sizeof state);
    p->state = strcmp(state, "ok") == 0            ? GP_PROF_OK
               : strcmp(state, "unavailable") == 0 ? GP_PROF_UNAVAILABLE
                                                   : GP_PROF_DISABLED;
    str(o, "reason", p->reason, sizeof p->reason);
    str(o, "chip", p->chip, sizeof p->chip);
    str(o, "metric_set", p->metric_set, sizeof p->metric_set);
    p->passes = (int)num(o, "passes", 0);
}

/* ---- gpuprof exec --------------------------------------------------------------------- */

static char *dup_string(const cJSON *o, const char *key)
{
    const cJSON *v = field(o, key);
    return cJSON_IsString(v) ? strdup(v->valuestring) : NULL;
}

static int read_exec_launch(const cJSON *o, gp_exec_info *e)
{
    gp_exec_launch *l;
    GP_TRY(gp_exec_add_launch(e, &l));
    l->pid = (int)num(o, "pid", 0);
    l->id = (uint64_t)num(o, "id", 0);
    l->kernel = dup_string(o, "kernel");
    l->mangled = dup_string(o, "mangled");
    if (!l->kernel)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    l->device = (int)num(o, "device", 0);
    l->context = (unsigned)num(o, "context", 0);
    l->stream = (unsigned)num(o, "stream", 0);
    l->grid = read_dim(field(o, "grid"));
    l->block = read_dim(field(o, "block"));
    l->shared_bytes = (size_t)num(o, "shared_bytes", 0);
    l->duration_ms = num(o, "duration_ms", -1.0);
    l->profiled = cJSON_IsTrue(field(o, "profiled"));
    l->graph = (uint64_t)num(o, "graph", 0);
    l->graph_node = (uint64_t)num(o, "graph_node", 0);
    return read_metrics(field(o, "metrics"), &l->metrics);
}

static uint64_t count_or_none(const cJSON *o, const char *key)
{
    const cJSON *v = field(o, key);
    return cJSON_IsNumber(v) ? (uint64_t)v->valuedouble : UINT64_MAX;
}

static int read_exec(const cJSON *o, gp_report *r)
{
    gp_exec_info *e = &r->exec;
    r->is_exec = true;
    const cJSON *item;
    cJSON_ArrayForEach(item, field(o, "program"))
    {
        if (cJSON_IsString(item)) {
            char *argv[1] = {item->valuestring};
            GP_TRY(gp_exec_set_program(e, 1, argv));
        }
    }
    e->pid = (int)num(o, "pid", 0);
    e->exit_status = (int)num(o, "exit_status", 0);
    e->signal = (int)num(o, "signal", 0);
    e->processes = (size_t)num(o, "processes", 0);
    const cJSON *filters = field(o, "filters");
    str(filters, "kernel", e->kernel_filter, sizeof e->kernel_filter);
    e->launch_skip = (uint64_t)num(filters, "launch_skip", 0);
    e->launch_count = count_or_none(filters, "launch_count");
    e->per_kernel = count_or_none(filters, "per_kernel");
    cJSON_ArrayForEach(item, field(o, "devices"))
    {
        gp_device_info d;
        memset(&d, 0, sizeof d);
        read_device(item, &d);
        GP_TRY(gp_exec_add_device(e, &d));
    }
    cJSON_ArrayForEach(item, field(o, "launches")) GP_TRY(read_exec_launch(item, e));
    return GP_OK;
}

static int read_report(const reader *rd, const cJSON *root, gp_report *r)
{
    if (!cJSON_IsObject(root))
        return missing(rd, "top-level object");
    const cJSON *version = field(root, "schema_version");
    if (!cJSON_IsNumber(version))
        return missing(rd, "schema_version");
    if (version->valueint != GP_SCHEMA_VERSION)
        return gp_fail(GP_ERR_RUNTIME, "%s: schema_version %d is not supported (this gpuprof "
                                       "reads %d)", rd->path, version->valueint,
                       GP_SCHEMA_VERSION);
    str(field(root, "tool"), "version", r->tool_version, sizeof r->tool_version);
    str(root, "command", r->command, sizeof r->command);
    const cJSON *item;
    cJSON_ArrayForEach(item, field(root, "command_line"))
    {
        if (cJSON_IsString(item)) {
            char *argv[1] = {item->valuestring};
            GP_TRY(gp_report_set_command_line(r, 1, argv));
        }
    }
    const cJSON *device = field(root, "device");
    r->has_device = cJSON_IsObject(device);
    if (r->has_device)
        read_device(device, &r->device);
    const cJSON *run = field(root, "run");
    r->repeat = (unsigned)num(run, "repeat", 0);
    r->warmup = (unsigned)num(run, "warmup", 0);
    r->seed = (uint64_t)num(run, "seed", 0);
    read_profiler(field(root, "profiler"), &r->profiler);
    const cJSON *results = field(root, "results");
    if (!cJSON_IsArray(results))
        return missing(rd, "results");
    cJSON_ArrayForEach(item, results) GP_TRY(read_result(rd, item, r));
    cJSON_ArrayForEach(item, field(root, "warnings"))
    {
        if (cJSON_IsString(item))
            GP_TRY(gp_report_add_warning(r, item->valuestring));
    }
    const cJSON *exec = field(root, "exec");
    return cJSON_IsObject(exec) ? read_exec(exec, r) : GP_OK;
}

static int read_file(const char *path, char **text)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return gp_fail(GP_ERR_RUNTIME, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len + 1 < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    bool failed = ferror(f) != 0;
    if (f != stdin)
        fclose(f);
    if (!buf)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory reading %s", path);
    if (failed) {
        free(buf);
        return gp_fail(GP_ERR_RUNTIME, "cannot read %s", path);
    }
    buf[len] = '\0';
    *text = buf;
    return GP_OK;
}

int gp_report_parse_json(const char *text, size_t len, const char *name, gp_report *r)
{
    gp_report_init(r);
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!root)
        return gp_fail(GP_ERR_RUNTIME, "%s: not valid JSON", name);
    reader rd = {name};
    int rc = read_report(&rd, root, r);
    cJSON_Delete(root);
    return rc;
}

int gp_report_read_json(const char *path, gp_report *r)
{
    char *text = NULL;
    gp_report_init(r);
    GP_TRY(read_file(path, &text));
    int rc = gp_report_parse_json(text, strlen(text), path, r);
    free(text);
    return rc;
}

