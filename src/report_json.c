/* JSON output and input (the only file that uses cJSON). The layout is described by
 * schemas/gpuprof-report-v1.schema.json; keys are stable snake_case, and a breaking change
 * bumps schema_version. */
#include "gpuprof/report.h"

#include "gpuprof/status.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ----------------------------------------------------------------------- */

/* NaN and infinities are not JSON numbers: they become null. */
static cJSON *number_or_null(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static void add_number(cJSON *o, const char *key, double v)
{
    cJSON_AddItemToObject(o, key, number_or_null(v));
}

static cJSON *dim_array(gp_dim3 d)
{
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateNumber(d.x));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(d.y));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(d.z));
    return a;
}

static cJSON *pair_array(unsigned a, unsigned b)
{
    cJSON *arr = cJSON_CreateArray();
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(a));
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(b));
    return arr;
}

static cJSON *device_json(const gp_device_info *d)
{
    cJSON *o = cJSON_CreateObject();
    char cc[16], drv[16], rt[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    snprintf(drv, sizeof drv, "%d.%d", d->driver_version / 1000, d->driver_version % 1000 / 10);
    snprintf(rt, sizeof rt, "%d.%d", d->runtime_version / 1000, d->runtime_version % 1000 / 10);
    cJSON_AddNumberToObject(o, "index", d->index);
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "compute_capability", cc);
    cJSON_AddNumberToObject(o, "multiprocessors", d->multiprocessors);
    cJSON_AddNumberToObject(o, "memory_bytes", (double)d->memory_bytes);
    cJSON_AddNumberToObject(o, "l2_bytes", (double)d->l2_bytes);
    cJSON_AddNumberToObject(o, "sm_clock_mhz", d->sm_clock_mhz);
    cJSON_AddNumberToObject(o, "memory_clock_mhz", d->memory_clock_mhz);
    cJSON_AddNumberToObject(o, "memory_bus_bits", d->memory_bus_bits);
    cJSON_AddNumberToObject(o, "peak_bandwidth_gbps", d->peak_gbps);
    add_number(o, "copy_bandwidth_gbps", d->copy_gbps >= 0 ? d->copy_gbps : NAN);
    cJSON_AddStringToObject(o, "driver_version", drv);
    cJSON_AddStringToObject(o, "runtime_version", rt);
    return o;
}

static double counter_in(const gp_metric_set *s, const char *name)
{
    for (size_t i = 0; i < s->n_counters; i++)
        if (strcmp(s->counters[i].name, name) == 0)
            return s->counters[i].value;
    return NAN;
}

static cJSON *metrics_json(const gp_metric_set *s)
{
    if (s->n_metrics == 0)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < s->n_metrics; i++) {
        const gp_metric_value *m = &s->metrics[i];
        cJSON *e = cJSON_CreateObject();
        add_number(e, "value", m->valid ? m->value : NAN);
        cJSON_AddStringToObject(e, "unit", m->unit);
        cJSON *inputs = cJSON_CreateObject();
        for (size_t k = 0; k < m->n_inputs; k++)
            add_number(inputs, m->inputs[k], counter_in(s, m->inputs[k]));
        cJSON_AddItemToObject(e, "inputs", inputs);
        if (!m->valid)
            cJSON_AddStringToObject(e, "reason", m->why);
        cJSON_AddItemToObject(o, m->key, e);
    }
    return o;
}

static cJSON *check_json(const gp_check *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "status", gp_check_status_name(c->status));
    cJSON_AddBoolToObject(o, "exact", c->exact);
    add_number(o, "expected", c->expected);
    add_number(o, "got", c->got);
    cJSON_AddNumberToObject(o, "tolerance", c->tolerance);
    cJSON_AddNumberToObject(o, "mismatches", (double)c->mismatches);
    cJSON_AddStringToObject(o, "detail", c->detail);
    if (c->rechecked)
        cJSON_AddStringToObject(o, "after_profile", gp_check_status_name(c->after_profile));
    else
        cJSON_AddNullToObject(o, "after_profile");
    return o;
}

static cJSON *launch_json(const gp_launch_record *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", l->kernel);
    cJSON_AddItemToObject(o, "grid", dim_array(l->grid));
    cJSON_AddItemToObject(o, "block", dim_array(l->block));
    cJSON_AddNumberToObject(o, "shared_bytes", (double)l->shared_bytes);
    cJSON_AddBoolToObject(o, "library_call", l->opaque != 0);
    if (l->in_nx) {
        cJSON_AddItemToObject(o, "input_shape", pair_array(l->in_nx, l->in_ny));
        cJSON_AddItemToObject(o, "output_shape", pair_array(l->out_nx, l->out_ny));
    }
    add_number(o, "median_ms", l->median_ms >= 0 ? l->median_ms : NAN);
    cJSON_AddItemToObject(o, "metrics", metrics_json(&l->metrics));
    return o;
}

/* reduce2d: the passes of the multi-pass reduction, as the seed's host loop prints them. */
static cJSON *passes_json(const gp_result *r)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < r->n_launches; i++) {
        const gp_launch_record *l = &r->launches[i];
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "pass", (double)(i + 1));
        cJSON_AddItemToObject(p, "input_shape", pair_array(l->in_nx, l->in_ny));
        cJSON_AddItemToObject(p, "output_shape", pair_array(l->out_nx, l->out_ny));
        add_number(p, "median_ms", l->median_ms >= 0 ? l->median_ms : NAN);
        cJSON_AddItemToArray(a, p);
    }
    return a;
}

static cJSON *result_json(const gp_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "family", r->family);
    cJSON_AddStringToObject(o, "variant", r->variant);
    cJSON_AddStringToObject(o, "type", r->type);
    cJSON *size = cJSON_AddObjectToObject(o, "size");
    cJSON_AddNumberToObject(size, "n", (double)r->n);
    if (r->nx) {
        cJSON_AddNumberToObject(size, "nx", r->nx);
        cJSON_AddNumberToObject(size, "ny", r->ny);
    }
    cJSON *params = cJSON_AddObjectToObject(o, "params");
    if (r->pad >= 0)
        cJSON_AddNumberToObject(params, "pad", r->pad);
    if (r->group)
        cJSON_AddNumberToObject(params, "group", r->group);
    if (r->grid_param)
        cJSON_AddNumberToObject(params, "grid", r->grid_param);
    if (r->alpha != 0.0)
        cJSON_AddNumberToObject(params, "alpha", r->alpha);
    cJSON *launch = cJSON_AddObjectToObject(o, "launch");
    cJSON_AddItemToObject(launch, "grid", dim_array(r->grid));
    cJSON_AddItemToObject(launch, "block", dim_array(r->block));
    cJSON_AddNumberToObject(launch, "shared_bytes", (double)r->shared_bytes);
    cJSON_AddNumberToObject(launch, "kernels", (double)r->n_launches);
    cJSON *t = cJSON_AddObjectToObject(o, "timing");
    cJSON_AddNumberToObject(t, "min_ms", r->timing.min_ms);
    cJSON_AddNumberToObject(t, "median_ms", r->timing.median_ms);
    cJSON_AddNumberToObject(t, "max_ms", r->timing.max_ms);
    cJSON_AddNumberToObject(t, "repeats", r->timing.repeats);
    cJSON_AddNumberToObject(t, "warmup", r->timing.warmup);
    cJSON_AddNumberToObject(o, "bytes_moved", (double)r->bytes_moved);
    add_number(o, "bandwidth_gbps", r->gbps);
    add_number(o, "percent_of_peak", r->percent_of_peak);
    cJSON_AddItemToObject(o, "check", check_json(&r->check));
    if (r->profiled) {
        cJSON *p = cJSON_AddObjectToObject(o, "profile");
        cJSON_AddNumberToObject(p, "passes", r->passes);
        add_number(p, "sm_clock_ghz", r->sm_clock_ghz >= 0 ? r->sm_clock_ghz : NAN);
        add_number(p, "dram_clock_ghz", r->dram_clock_ghz >= 0 ? r->dram_clock_ghz : NAN);
    } else {
        cJSON_AddNullToObject(o, "profile");
    }
    cJSON_AddItemToObject(o, "metrics", metrics_json(&r->metrics));
    cJSON *launches = cJSON_AddArrayToObject(o, "launches");
    for (size_t i = 0; i < r->n_launches; i++)
        cJSON_AddItemToArray(launches, launch_json(&r->launches[i]));
    if (strcmp(r->family, "reduce2d") == 0)
        cJSON_AddItemToObject(o, "passes", passes_json(r));
    return o;
}

static const char *profiler_state_name(gp_profiler_state s)
{
    return s == GP_PROF_OK ? "ok" : s == GP_PROF_UNAVAILABLE ? "unavailable" : "disabled";
}

static cJSON *profiler_json(const gp_profiler_info *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "state", profiler_state_name(p->state));
    if (p->state == GP_PROF_UNAVAILABLE)
        cJSON_AddStringToObject(o, "reason", p->reason);
    else
        cJSON_AddNullToObject(o, "reason");
    if (p->state == GP_PROF_OK) {
        cJSON_AddStringToObject(o, "chip", p->chip);
        cJSON_AddNumberToObject(o, "passes", p->passes);
        cJSON_AddStringToObject(o, "metric_set", p->metric_set);
        cJSON_AddStringToObject(o, "api", "CUPTI range profiler, auto range, user replay");
        cJSON_AddStringToObject(o, "cache_control", "L2 flushed before every kernel");
        cJSON_AddStringToObject(o, "clock_control", "none (clocks not locked)");
    }
    return o;
}

static cJSON *report_json(const gp_report *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", GP_SCHEMA_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "gpuprof");
    cJSON_AddStringToObject(tool, "version", r->tool_version);
    cJSON_AddStringToObject(root, "command", r->command);
    cJSON *argv = cJSON_AddArrayToObject(root, "command_line");
    for (size_t i = 0; i < r->command_line_len; i++)
        cJSON_AddItemToArray(argv, cJSON_CreateString(r->command_line[i]));
    if (r->has_device)
        cJSON_AddItemToObject(root, "device", device_json(&r->device));
    else
        cJSON_AddNullToObject(root, "device");
    cJSON *run = cJSON_AddObjectToObject(root, "run");
    cJSON_AddNumberToObject(run, "repeat", r->repeat);
    cJSON_AddNumberToObject(run, "warmup", r->warmup);
    cJSON_AddNumberToObject(run, "seed", (double)r->seed);
    cJSON_AddStringToObject(run, "time_unit", "ms");
    cJSON_AddStringToObject(run, "bandwidth_unit", "GB/s, 1 GB = 10^9 bytes");
    cJSON_AddItemToObject(root, "profiler", profiler_json(&r->profiler));
    cJSON *results = cJSON_AddArrayToObject(root, "results");
    for (size_t i = 0; i < r->n_results; i++)
        cJSON_AddItemToArray(results, result_json(&r->results[i]));
    cJSON *warnings = cJSON_AddArrayToObject(root, "warnings");
    for (size_t i = 0; i < r->n_warnings; i++)
        cJSON_AddItemToArray(warnings, cJSON_CreateString(r->warnings[i]));
    return root;
}

int gp_render_json(FILE *out, const gp_report *r)
{
    cJSON *root = report_json(r);
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing JSON");
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return ferror(out) ? gp_fail(GP_ERR_RUNTIME, "writing the report failed") : GP_OK;
}

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
    const cJSON *size = field(o, "size"), *params = field(o, "params");
    res->n = (uint64_t)num(size, "n", 0);
    res->nx = (unsigned)num(size, "nx", 0);
    res->ny = (unsigned)num(size, "ny", 0);
    res->pad = (int)num(params, "pad", -1);
    res->group = (unsigned)num(params, "group", 0);
    res->grid_param = (unsigned)num(params, "grid", 0);
    res->alpha = num(params, "alpha", 0);
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
    return GP_OK;
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

/* ---- documents of the catalogue commands ------------------------------------------- */

#include "gpuprof/commands.h"
#include "gpuprof/metrics.h"
#include "gpuprof/registry.h"

static cJSON *document(void)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", GP_SCHEMA_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "gpuprof");
    cJSON_AddStringToObject(tool, "version", GPUPROF_VERSION);
    return root;
}

static int print_document(FILE *out, cJSON *root)
{
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing JSON");
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return GP_OK;
}

static cJSON *mask_array(unsigned mask)
{
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < 31; k++)
        if ((mask >> k) & 1u)
            cJSON_AddItemToArray(a, cJSON_CreateNumber(1u << k));
    return a;
}

int gp_render_list_json(FILE *out)
{
    cJSON *root = document();
    cJSON *families = cJSON_AddArrayToObject(root, "families");
    for (int f = 0; f < GP_FAM_COUNT; f++) {
        const gp_variant *vs[64];
        size_t n = gp_family_variants((gp_family)f, vs, 64);
        if (n == 0)
            continue;
        cJSON *fam = cJSON_CreateObject();
        cJSON_AddStringToObject(fam, "name", gp_family_name((gp_family)f));
        cJSON_AddStringToObject(fam, "summary", gp_family_summary((gp_family)f));
        cJSON *variants = cJSON_AddArrayToObject(fam, "variants");
        for (size_t i = 0; i < n && i < 64; i++) {
            cJSON *v = cJSON_CreateObject();
            cJSON_AddStringToObject(v, "name", vs[i]->name);
            cJSON_AddStringToObject(v, "summary", vs[i]->summary);
            cJSON_AddStringToObject(v, "origin", vs[i]->origin);
            cJSON_AddItemToObject(v, "block_x", mask_array(vs[i]->block_x_mask));
            cJSON_AddItemToObject(v, "block_y", mask_array(vs[i]->block_y_mask));
            cJSON_AddItemToObject(v, "default_block", dim_array(vs[i]->default_block));
            cJSON_AddBoolToObject(v, "in_place", (vs[i]->flags & GP_VF_IN_PLACE) != 0);
            cJSON_AddItemToArray(variants, v);
        }
        cJSON_AddItemToArray(families, fam);
    }
    return print_document(out, root);
}

int gp_render_devices_json(FILE *out, const gp_device_info *devices, size_t n)
{
    cJSON *root = document();
    cJSON *arr = cJSON_AddArrayToObject(root, "devices");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, device_json(&devices[i]));
    return print_document(out, root);
}

int gp_render_metrics_json(FILE *out, const char *chip, const bool *available,
                           const char *const *missing, int passes_default, int passes_all)
{
    cJSON *root = document();
    if (chip) {
        cJSON_AddStringToObject(root, "chip", chip);
        cJSON *passes = cJSON_AddObjectToObject(root, "passes");
        cJSON_AddNumberToObject(passes, "default", passes_default);
        cJSON_AddNumberToObject(passes, "all", passes_all);
    } else {
        cJSON_AddNullToObject(root, "chip");
        cJSON_AddNullToObject(root, "passes");
    }
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    cJSON *arr = cJSON_AddArrayToObject(root, "metrics");
    for (size_t i = 0; i < n; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "key", cat[i].key);
        cJSON_AddStringToObject(m, "unit", cat[i].unit);
        cJSON_AddStringToObject(m, "description", cat[i].description);
        cJSON_AddStringToObject(m, "formula", cat[i].formula);
        cJSON *inputs = cJSON_AddArrayToObject(m, "inputs");
        for (size_t k = 0; k < cat[i].n_inputs; k++)
            cJSON_AddItemToArray(inputs, cJSON_CreateString(cat[i].inputs[k]));
        cJSON_AddStringToObject(m, "set", (cat[i].sets & GP_SET_DEFAULT) ? "default" : "all");
        if (cat[i].ncu_metric)
            cJSON_AddStringToObject(m, "ncu_metric", cat[i].ncu_metric);
        else
            cJSON_AddNullToObject(m, "ncu_metric");
        cJSON_AddNumberToObject(m, "ncu_scale", cat[i].ncu_scale);
        if (chip)
            cJSON_AddBoolToObject(m, "available", available[i]);
        else
            cJSON_AddNullToObject(m, "available");
        if (chip && !available[i])
            cJSON_AddStringToObject(m, "missing", missing[i]);
        cJSON_AddItemToArray(arr, m);
    }
    return print_document(out, root);
}
