/* Reading a report saved with --json back into the report structs, strictly: every field the
 * schema (schemas/gpuprof-report-v1.schema.json) requires must be there with its type and
 * range, no field it does not know may be, and the first problem is the one reported, as
 * "<file>: <JSON path>: <what is wrong>" (results[0].timing: expected an object). Nothing
 * is ever filled in by default. The text itself must be UTF-8, at most READ_LIMIT bytes and
 * at most MAX_DEPTH levels deep. */
#include "gpuprof/report.h"

#include "gpuprof/status.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READ_LIMIT ((size_t)1 << 30)    /* 1 GiB: an exec report of millions of launches */
#define MAX_DEPTH 32                    /* the schema's deepest value is 6 levels down */
#define INTEGER_LIMIT 9007199254740992.0 /* 2^53: every integer below is exact in a double */

/* ---- where the reader is, and the first problem ------------------------------------------- */

typedef struct {
    const char *file;
    char path[512];   /* "results[0].timing", "" at the top level */
} reader;

static int bad(const reader *rd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int bad(const reader *rd, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (rd->path[0])
        return gp_fail(GP_ERR_RUNTIME, "%s: %s: %s", rd->file, rd->path, what);
    return gp_fail(GP_ERR_RUNTIME, "%s: %s", rd->file, what);
}

/* Step into a key or an element; leave() steps back out. */
static size_t enter_key(reader *rd, const char *key)
{
    const size_t at = strlen(rd->path);
    snprintf(rd->path + at, sizeof rd->path - at, "%s%s", at ? "." : "", key);
    return at;
}

static size_t enter_index(reader *rd, size_t i)
{
    const size_t at = strlen(rd->path);
    snprintf(rd->path + at, sizeof rd->path - at, "[%zu]", i);
    return at;
}

static void leave(reader *rd, size_t at)
{
    rd->path[at] = '\0';
}

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* ---- values -------------------------------------------------------------------------------- */

/* The object's keys are among `known` (the schema allows no others). */
static int only_keys(reader *rd, const cJSON *o, const char *const *known, size_t n)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, o)
    {
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = strcmp(item->string, known[i]) == 0;
        if (!found)
            return bad(rd, "unknown key '%.64s'", item->string);
    }
    return GP_OK;
}
#define ONLY_KEYS(rd, o, ...)                                                                  \
    only_keys(rd, o, (const char *const[]){__VA_ARGS__},                                       \
              sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

/* The value of a required key. */
static int need(reader *rd, const cJSON *o, const char *key, const cJSON **out)
{
    *out = field(o, key);
    if (*out)
        return GP_OK;
    const size_t at = enter_key(rd, key);
    int rc = bad(rd, "missing");
    leave(rd, at);
    return rc;
}

static int expect(reader *rd, const char *key, bool ok, const char *what)
{
    if (ok)
        return GP_OK;
    const size_t at = enter_key(rd, key);
    int rc = bad(rd, "expected %s", what);
    leave(rd, at);
    return rc;
}

static int get_object(reader *rd, const cJSON *o, const char *key, const cJSON **out,
                      bool nullable)
{
    GP_TRY(need(rd, o, key, out));
    if (nullable && cJSON_IsNull(*out)) {
        *out = NULL;
        return GP_OK;
    }
    return expect(rd, key, cJSON_IsObject(*out), nullable ? "an object or null" : "an object");
}

static int get_array(reader *rd, const cJSON *o, const char *key, const cJSON **out)
{
    GP_TRY(need(rd, o, key, out));
    return expect(rd, key, cJSON_IsArray(*out), "an array");
}

/* A string that fits in len bytes (len 0: any length, *copy gets a heap copy). */
static int get_string(reader *rd, const cJSON *o, const char *key, char *dst, size_t len)
{
    const cJSON *v;
    GP_TRY(need(rd, o, key, &v));
    GP_TRY(expect(rd, key, cJSON_IsString(v), "a string"));
    if (strlen(v->valuestring) >= len) {
        const size_t at = enter_key(rd, key);
        int rc = bad(rd, "longer than %zu characters", len - 1);
        leave(rd, at);
        return rc;
    }
    memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
    return GP_OK;
}

static int get_string_copy(reader *rd, const cJSON *o, const char *key, char **out,
                           bool nullable)
{
    const cJSON *v;
    *out = NULL;
    GP_TRY(need(rd, o, key, &v));
    if (nullable && cJSON_IsNull(v))
        return GP_OK;
    GP_TRY(expect(rd, key, cJSON_IsString(v), nullable ? "a string or null" : "a string"));
    *out = strdup(v->valuestring);
    return *out ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

/* A finite number of at least `min` (NAN for null when nullable). */
static int get_number(reader *rd, const cJSON *o, const char *key, double min, bool nullable,
                      double *out)
{
    const cJSON *v;
    GP_TRY(need(rd, o, key, &v));
    if (nullable && cJSON_IsNull(v)) {
        *out = NAN;
        return GP_OK;
    }
    GP_TRY(expect(rd, key, cJSON_IsNumber(v) && isfinite(v->valuedouble),
                  nullable ? "a number or null" : "a number"));
    if (v->valuedouble < min) {
        const size_t at = enter_key(rd, key);
        int rc = bad(rd, "must be at least %g", min);
        leave(rd, at);
        return rc;
    }
    *out = v->valuedouble;
    return GP_OK;
}

/* A number that may be left out: NAN then. */
static int get_optional_number(reader *rd, const cJSON *o, const char *key, double min,
                               double *out)
{
    *out = NAN;
    return field(o, key) ? get_number(rd, o, key, min, false, out) : GP_OK;
}

/* A whole number from min to max (no cast of an out-of-range double, ever). */
static int integer_value(reader *rd, const cJSON *v, uint64_t min, uint64_t max, uint64_t *out)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble != floor(v->valuedouble))
        return bad(rd, "expected a whole number");
    const double d = v->valuedouble;
    if (d < (double)min || d > (double)max || d >= INTEGER_LIMIT)
        return bad(rd, "must be from %llu to %llu", (unsigned long long)min,
                   (unsigned long long)(max < INTEGER_LIMIT ? max : (uint64_t)INTEGER_LIMIT));
    *out = (uint64_t)d;
    return GP_OK;
}

static int get_integer(reader *rd, const cJSON *o, const char *key, uint64_t min, uint64_t max,
                       uint64_t *out)
{
    const cJSON *v;
    GP_TRY(need(rd, o, key, &v));
    const size_t at = enter_key(rd, key);
    int rc = integer_value(rd, v, min, max, out);
    leave(rd, at);
    return rc;
}

static int get_uint(reader *rd, const cJSON *o, const char *key, unsigned min, unsigned *out)
{
    uint64_t v;
    GP_TRY(get_integer(rd, o, key, min, UINT_MAX, &v));
    *out = (unsigned)v;
    return GP_OK;
}

static int get_int(reader *rd, const cJSON *o, const char *key, int min, int *out)
{
    uint64_t v;
    GP_TRY(get_integer(rd, o, key, (uint64_t)min, INT_MAX, &v));
    *out = (int)v;
    return GP_OK;
}

static int get_bool(reader *rd, const cJSON *o, const char *key, bool *out)
{
    const cJSON *v;
    GP_TRY(need(rd, o, key, &v));
    GP_TRY(expect(rd, key, cJSON_IsBool(v), "true or false"));
    *out = cJSON_IsTrue(v);
    return GP_OK;
}

/* One of `names` (its index in *out); null gives -1 when nullable. */
static int get_enum(reader *rd, const cJSON *o, const char *key, const char *const *names,
                    size_t n, bool nullable, int *out)
{
    const cJSON *v;
    GP_TRY(need(rd, o, key, &v));
    if (nullable && cJSON_IsNull(v)) {
        *out = -1;
        return GP_OK;
    }
    for (size_t i = 0; cJSON_IsString(v) && i < n; i++)
        if (strcmp(v->valuestring, names[i]) == 0) {
            *out = (int)i;
            return GP_OK;
        }
    char valid[128] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s'%s'",
                 i ? ", " : "one of ", names[i]);
    return expect(rd, key, false, valid);
}

/* An array of exactly n whole numbers in [min, UINT_MAX], stored through out[]. */
static int get_uints(reader *rd, const cJSON *a, const char *key, unsigned *const out[],
                     int n, uint64_t min, const char *what)
{
    GP_TRY(expect(rd, key, cJSON_IsArray(a) && cJSON_GetArraySize(a) == n, what));
    const size_t at = enter_key(rd, key);
    int rc = GP_OK;
    for (int i = 0; i < n && rc == GP_OK; i++) {
        uint64_t v = 0;
        const size_t at_i = enter_index(rd, (size_t)i);
        rc = integer_value(rd, cJSON_GetArrayItem(a, i), min, UINT_MAX, &v);
        leave(rd, at_i);
        *out[i] = (unsigned)v;
    }
    leave(rd, at);
    return rc;
}

/* [x, y, z] of whole numbers. */
static int get_dim(reader *rd, const cJSON *o, const char *key, gp_dim3 *d)
{
    const cJSON *a;
    GP_TRY(need(rd, o, key, &a));
    unsigned *const xyz[3] = {&d->x, &d->y, &d->z};
    return get_uints(rd, a, key, xyz, 3, 0, "three whole numbers");
}

/* [x, y] of whole numbers of at least 1, when the key is there. */
static int get_shape(reader *rd, const cJSON *o, const char *key, unsigned *x, unsigned *y)
{
    const cJSON *a = field(o, key);
    if (!a)
        return GP_OK;
    unsigned *const xy[2] = {x, y};
    return get_uints(rd, a, key, xy, 2, 1, "two whole numbers");
}

/* Each item of the array o[key], read by read(rd, item, ctx) with its index on the path. */
typedef int (*item_reader)(reader *rd, const cJSON *item, void *ctx);

static int read_each(reader *rd, const cJSON *o, const char *key, item_reader read, void *ctx)
{
    const cJSON *a, *item;
    GP_TRY(get_array(rd, o, key, &a));
    const size_t at = enter_key(rd, key);
    size_t i = 0;
    int rc = GP_OK;
    cJSON_ArrayForEach(item, a)
    {
        const size_t at_i = enter_index(rd, i++);
        rc = read(rd, item, ctx);
        leave(rd, at_i);
        if (rc != GP_OK)
            break;
    }
    leave(rd, at);
    return rc;
}

/* ---- metrics -------------------------------------------------------------------------------- */

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

static int read_inputs(reader *rd, const cJSON *o, gp_metric_set *s, gp_metric_value *m)
{
    const cJSON *inputs, *in;
    GP_TRY(get_object(rd, o, "inputs", &inputs, false));
    const size_t at = enter_key(rd, "inputs");
    int rc = cJSON_GetArraySize(inputs) > 4 ? bad(rd, "more than 4 counters") : GP_OK;
    cJSON_ArrayForEach(in, inputs)
    {
        if (rc != GP_OK)
            break;
        double v = NAN;
        if (strlen(in->string) >= GP_NAME_LEN)
            rc = bad(rd, "a counter name longer than %d characters", GP_NAME_LEN - 1);
        else if (!cJSON_IsNull(in))
            rc = get_number(rd, inputs, in->string, -INFINITY, true, &v);
        if (rc != GP_OK)
            break;
        snprintf(m->inputs[m->n_inputs++], GP_NAME_LEN, "%s", in->string);
        rc = add_counter(s, in->string, v);
    }
    leave(rd, at);
    return rc;
}

static int read_metric(reader *rd, const cJSON *e, gp_metric_set *s, gp_metric_value *m)
{
    if (!cJSON_IsObject(e))
        return bad(rd, "expected an object");
    GP_TRY(ONLY_KEYS(rd, e, "value", "unit", "inputs", "reason"));
    if (strlen(e->string) >= sizeof m->key)
        return bad(rd, "a metric key longer than %zu characters", sizeof m->key - 1);
    snprintf(m->key, sizeof m->key, "%s", e->string);
    GP_TRY(get_number(rd, e, "value", -INFINITY, true, &m->value));
    m->valid = !isnan(m->value);
    GP_TRY(get_string(rd, e, "unit", m->unit, sizeof m->unit));
    if (field(e, "reason"))
        GP_TRY(get_string(rd, e, "reason", m->why, sizeof m->why));
    return read_inputs(rd, e, s, m);
}

/* null or { key: metric }. */
static int read_metrics(reader *rd, const cJSON *o, const char *key, gp_metric_set *s)
{
    const cJSON *metrics, *e;
    memset(s, 0, sizeof *s);
    GP_TRY(get_object(rd, o, key, &metrics, true));
    if (!metrics)
        return GP_OK;
    s->metrics = calloc((size_t)cJSON_GetArraySize(metrics) + 1, sizeof *s->metrics);
    if (!s->metrics)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    const size_t at = enter_key(rd, key);
    int rc = GP_OK;
    cJSON_ArrayForEach(e, metrics)
    {
        const size_t at_e = enter_key(rd, e->string);
        rc = read_metric(rd, e, s, &s->metrics[s->n_metrics++]);
        leave(rd, at_e);
        if (rc != GP_OK)
            break;
    }
    leave(rd, at);
    return rc;
}

/* ---- the device, the run, the profiler -------------------------------------------------------- */

/* "13.0" → 13000, as the driver numbers its versions. */
static int get_version(reader *rd, const cJSON *o, const char *key, int *out)
{
    char text[16];
    unsigned major, minor;
    char extra;
    GP_TRY(get_string(rd, o, key, text, sizeof text));
    GP_TRY(expect(rd, key,
                  sscanf(text, "%u.%u%c", &major, &minor, &extra) == 2 && major < 1000 &&
                      minor < 100,
                  "a version such as \"13.0\""));
    *out = (int)(major * 1000 + minor * 10);
    return GP_OK;
}

static int read_device(reader *rd, const cJSON *o, gp_device_info *d)
{
    memset(d, 0, sizeof *d);
    GP_TRY(ONLY_KEYS(rd, o, "index", "name", "compute_capability", "multiprocessors",
                     "memory_bytes", "l2_bytes", "sm_clock_mhz", "memory_clock_mhz",
                     "memory_bus_bits", "peak_bandwidth_gbps", "copy_bandwidth_gbps",
                     "driver_version", "runtime_version"));
    char cc[16];
    unsigned major, minor;
    char extra;
    uint64_t memory, l2;
    GP_TRY(get_int(rd, o, "index", 0, &d->index));
    GP_TRY(get_string(rd, o, "name", d->name, sizeof d->name));
    GP_TRY(get_string(rd, o, "compute_capability", cc, sizeof cc));
    GP_TRY(expect(rd, "compute_capability",
                  sscanf(cc, "%u.%u%c", &major, &minor, &extra) == 2 && major < 100 &&
                      minor < 100,
                  "a compute capability such as \"9.0\""));
    d->cc_major = (int)major;
    d->cc_minor = (int)minor;
    GP_TRY(get_int(rd, o, "multiprocessors", 1, &d->multiprocessors));
    GP_TRY(get_integer(rd, o, "memory_bytes", 0, UINT64_MAX, &memory));
    GP_TRY(get_integer(rd, o, "l2_bytes", 0, UINT64_MAX, &l2));
    d->memory_bytes = memory;
    d->l2_bytes = l2;
    GP_TRY(get_number(rd, o, "sm_clock_mhz", 0, false, &d->sm_clock_mhz));
    GP_TRY(get_number(rd, o, "memory_clock_mhz", 0, false, &d->memory_clock_mhz));
    GP_TRY(get_int(rd, o, "memory_bus_bits", 0, &d->memory_bus_bits));
    GP_TRY(get_number(rd, o, "peak_bandwidth_gbps", 0, false, &d->peak_gbps));
    GP_TRY(get_number(rd, o, "copy_bandwidth_gbps", 0, true, &d->copy_gbps));
    if (isnan(d->copy_gbps))
        d->copy_gbps = -1.0;
    GP_TRY(get_version(rd, o, "driver_version", &d->driver_version));
    return get_version(rd, o, "runtime_version", &d->runtime_version);
}

static int read_run(reader *rd, const cJSON *run, gp_report *r)
{
    GP_TRY(ONLY_KEYS(rd, run, "repeat", "warmup", "seed", "time_unit", "bandwidth_unit",
                     "max_noise_pct"));
    GP_TRY(get_optional_number(rd, run, "max_noise_pct", 0, &r->max_noise_pct));
    uint64_t seed;
    char unit[64];
    GP_TRY(get_uint(rd, run, "repeat", 1, &r->repeat));
    GP_TRY(get_uint(rd, run, "warmup", 0, &r->warmup));
    GP_TRY(get_integer(rd, run, "seed", 0, UINT64_MAX, &seed));
    r->seed = seed;
    GP_TRY(get_string(rd, run, "time_unit", unit, sizeof unit));
    GP_TRY(expect(rd, "time_unit", strcmp(unit, "ms") == 0, "\"ms\""));
    return get_string(rd, run, "bandwidth_unit", unit, sizeof unit);
}

static const char *const profiler_states[] = {"disabled", "ok", "unavailable"};
static const char *const metric_sets[] = {"default", "all", "list"};

static int read_profiler(reader *rd, const cJSON *o, gp_profiler_info *p)
{
    GP_TRY(ONLY_KEYS(rd, o, "state", "reason", "chip", "passes", "metric_set", "api",
                     "cache_control", "clock_control"));
    int state, set;
    GP_TRY(get_enum(rd, o, "state", profiler_states, 3, false, &state));
    p->state = (gp_profiler_state)state; /* the enum's order */
    const cJSON *reason;
    GP_TRY(need(rd, o, "reason", &reason));
    if (!cJSON_IsNull(reason))
        GP_TRY(get_string(rd, o, "reason", p->reason, sizeof p->reason));
    if (field(o, "chip"))
        GP_TRY(get_string(rd, o, "chip", p->chip, sizeof p->chip));
    if (field(o, "passes"))
        GP_TRY(get_int(rd, o, "passes", 1, &p->passes));
    if (field(o, "metric_set")) {
        GP_TRY(get_enum(rd, o, "metric_set", metric_sets, 3, false, &set));
        snprintf(p->metric_set, sizeof p->metric_set, "%s", metric_sets[set]);
    }
    char text[GP_TEXT_LEN];
    for (const char *const *k = (const char *const[]){"api", "cache_control", "clock_control",
                                                      NULL};
         *k; k++)
        if (field(o, *k))
            GP_TRY(get_string(rd, o, *k, text, sizeof text));
    return GP_OK;
}

/* ---- results ----------------------------------------------------------------------------------- */

static const char *const check_names[] = {"passed", "FAILED", "skipped"};

static int read_check(reader *rd, const cJSON *o, gp_check *c)
{
    GP_TRY(ONLY_KEYS(rd, o, "status", "exact", "expected", "got", "tolerance", "mismatches",
                     "detail", "after_profile"));
    int status, after;
    uint64_t mismatches;
    GP_TRY(get_enum(rd, o, "status", check_names, 3, false, &status));
    c->status = (gp_check_status)status; /* the enum's order */
    GP_TRY(get_bool(rd, o, "exact", &c->exact));
    GP_TRY(get_number(rd, o, "expected", -INFINITY, true, &c->expected));
    GP_TRY(get_number(rd, o, "got", -INFINITY, true, &c->got));
    GP_TRY(get_number(rd, o, "tolerance", 0, false, &c->tolerance));
    GP_TRY(get_integer(rd, o, "mismatches", 0, UINT64_MAX, &mismatches));
    c->mismatches = mismatches;
    GP_TRY(get_string(rd, o, "detail", c->detail, sizeof c->detail));
    GP_TRY(get_enum(rd, o, "after_profile", check_names, 3, true, &after));
    c->rechecked = after >= 0;
    c->after_profile = after >= 0 ? (gp_check_status)after : GP_CHECK_PASSED;
    return GP_OK;
}

static int read_launch_record(reader *rd, const cJSON *o, void *result)
{
    gp_result *res = result;
    if (!cJSON_IsObject(o))
        return bad(rd, "expected an object");
    GP_TRY(ONLY_KEYS(rd, o, "kernel", "grid", "block", "shared_bytes", "library_call",
                     "input_shape", "output_shape", "median_ms", "metrics"));
    gp_launch_record *l;
    uint64_t shared;
    bool library;
    GP_TRY(gp_result_add_launch(res, &l));
    GP_TRY(get_string(rd, o, "kernel", l->kernel, sizeof l->kernel));
    GP_TRY(get_dim(rd, o, "grid", &l->grid));
    GP_TRY(get_dim(rd, o, "block", &l->block));
    GP_TRY(get_integer(rd, o, "shared_bytes", 0, SIZE_MAX, &shared));
    l->shared_bytes = (size_t)shared;
    GP_TRY(get_bool(rd, o, "library_call", &library));
    l->opaque = library;
    GP_TRY(get_shape(rd, o, "input_shape", &l->in_nx, &l->in_ny));
    GP_TRY(get_shape(rd, o, "output_shape", &l->out_nx, &l->out_ny));
    GP_TRY(get_number(rd, o, "median_ms", 0, true, &l->median_ms));
    if (isnan(l->median_ms))
        l->median_ms = -1.0;
    return read_metrics(rd, o, "metrics", &l->metrics);
}

static int read_launches(reader *rd, const cJSON *o, gp_result *res)
{
    const cJSON *launches;
    GP_TRY(get_array(rd, o, "launches", &launches));
    GP_TRY(expect(rd, "launches", cJSON_GetArraySize(launches) >= 1, "at least one launch"));
    return read_each(rd, o, "launches", read_launch_record, res);
}

/* The passes of a multi-pass workload repeat its launches' shapes and times: checked, not
 * kept (the writer derives them from the launches). */
static int check_passes(reader *rd, const cJSON *o)
{
    const cJSON *passes = field(o, "passes"), *p;
    if (!passes)
        return GP_OK;
    GP_TRY(expect(rd, "passes", cJSON_IsArray(passes), "an array"));
    const size_t at = enter_key(rd, "passes");
    size_t i = 0;
    int rc = GP_OK;
    cJSON_ArrayForEach(p, passes)
    {
        const size_t at_i = enter_index(rd, i++);
        unsigned n, x, y;
        double ms;
        rc = cJSON_IsObject(p) ? ONLY_KEYS(rd, p, "pass", "input_shape", "output_shape",
                                           "median_ms")
                               : bad(rd, "expected an object");
        if (rc == GP_OK)
            rc = get_uint(rd, p, "pass", 1, &n);
        for (const char *const *k = (const char *const[]){"input_shape", "output_shape", NULL};
             rc == GP_OK && *k; k++) {
            const cJSON *shape;
            rc = need(rd, p, *k, &shape);
            if (rc == GP_OK)
                rc = get_shape(rd, p, *k, &x, &y);
        }
        if (rc == GP_OK)
            rc = get_number(rd, p, "median_ms", 0, true, &ms);
        leave(rd, at_i);
        if (rc != GP_OK)
            break;
    }
    leave(rd, at);
    return rc;
}

static int read_params(reader *rd, const cJSON *o, gp_result *res)
{
    const cJSON *params, *p;
    GP_TRY(get_object(rd, o, "params", &params, false));
    const size_t at = enter_key(rd, "params");
    int rc = GP_OK;
    cJSON_ArrayForEach(p, params)
    {
        double v;
        if (res->n_params >= GP_RESULT_MAX_PARAMS)
            rc = bad(rd, "more than %d parameters", GP_RESULT_MAX_PARAMS);
        else if (strlen(p->string) >= sizeof res->params[0].name)
            rc = bad(rd, "a parameter name longer than %zu characters",
                     sizeof res->params[0].name - 1);
        else
            rc = get_number(rd, params, p->string, -INFINITY, true, &v);
        if (rc == GP_OK)
            rc = gp_result_add_param(res, p->string, v);
        if (rc != GP_OK)
            break;
    }
    leave(rd, at);
    return rc;
}

static int read_size(reader *rd, const cJSON *o, gp_result *res)
{
    const cJSON *size;
    uint64_t n = 0;
    GP_TRY(get_object(rd, o, "size", &size, false));
    const size_t at = enter_key(rd, "size");
    int rc = ONLY_KEYS(rd, size, "n", "nx", "ny");
    if (rc == GP_OK)
        rc = get_integer(rd, size, "n", 1, UINT64_MAX, &n);
    res->n = n;
    if (rc == GP_OK && (field(size, "nx") || field(size, "ny"))) {
        rc = get_uint(rd, size, "nx", 1, &res->nx);
        if (rc == GP_OK)
            rc = get_uint(rd, size, "ny", 1, &res->ny);
    }
    leave(rd, at);
    return rc;
}

static int read_shape_and_time(reader *rd, const cJSON *o, gp_result *res)
{
    const cJSON *launch, *t;
    uint64_t shared = 0, kernels = 0;
    GP_TRY(get_object(rd, o, "launch", &launch, false));
    size_t at = enter_key(rd, "launch");
    int rc = ONLY_KEYS(rd, launch, "grid", "block", "shared_bytes", "kernels");
    if (rc == GP_OK)
        rc = get_dim(rd, launch, "grid", &res->grid);
    if (rc == GP_OK)
        rc = get_dim(rd, launch, "block", &res->block);
    if (rc == GP_OK)
        rc = get_integer(rd, launch, "shared_bytes", 0, SIZE_MAX, &shared);
    res->shared_bytes = (size_t)shared;
    if (rc == GP_OK)
        rc = get_integer(rd, launch, "kernels", 1, UINT64_MAX, &kernels);
    leave(rd, at);
    GP_TRY(rc);
    GP_TRY(get_object(rd, o, "timing", &t, false));
    at = enter_key(rd, "timing");
    gp_timing *tm = &res->timing;
    rc = ONLY_KEYS(rd, t, "min_ms", "median_ms", "max_ms", "noise_pct", "repeats", "warmup");
    if (rc == GP_OK)
        rc = get_optional_number(rd, t, "noise_pct", 0, &tm->noise_pct);
    if (rc == GP_OK)
        rc = get_number(rd, t, "min_ms", 0, false, &tm->min_ms);
    if (rc == GP_OK)
        rc = get_number(rd, t, "median_ms", 0, false, &tm->median_ms);
    if (rc == GP_OK)
        rc = get_number(rd, t, "max_ms", 0, false, &tm->max_ms);
    if (rc == GP_OK)
        rc = get_uint(rd, t, "repeats", 1, &tm->repeats);
    if (rc == GP_OK)
        rc = get_uint(rd, t, "warmup", 0, &tm->warmup);
    leave(rd, at);
    return rc;
}

static int read_profile(reader *rd, const cJSON *o, gp_result *res)
{
    const cJSON *profile;
    GP_TRY(get_object(rd, o, "profile", &profile, true));
    res->profiled = profile != NULL;
    if (!profile)
        return GP_OK;
    const size_t at = enter_key(rd, "profile");
    int rc = ONLY_KEYS(rd, profile, "passes", "sm_clock_ghz", "dram_clock_ghz");
    if (rc == GP_OK)
        rc = get_int(rd, profile, "passes", 1, &res->passes);
    if (rc == GP_OK)
        rc = get_number(rd, profile, "sm_clock_ghz", 0, true, &res->sm_clock_ghz);
    if (rc == GP_OK)
        rc = get_number(rd, profile, "dram_clock_ghz", 0, true, &res->dram_clock_ghz);
    leave(rd, at);
    if (isnan(res->sm_clock_ghz))
        res->sm_clock_ghz = -1.0;
    if (isnan(res->dram_clock_ghz))
        res->dram_clock_ghz = -1.0;
    return rc;
}

static const char *const type_names[] = {"int32", "float32"};

/* Merged reports: the index of the result's file in `sources`. */
static int read_source_index(reader *rd, const cJSON *o, const gp_report *r, gp_result *res)
{
    uint64_t source = 0;
    if (!field(o, "source"))
        return expect(rd, "source", r->n_sources == 0, "the index of its file in sources");
    GP_TRY(expect(rd, "source", r->n_sources > 0, "no source (there are no sources)"));
    GP_TRY(get_integer(rd, o, "source", 0, r->n_sources - 1, &source));
    res->source = (size_t)source;
    return GP_OK;
}

static int read_source(reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    if (!cJSON_IsObject(o))
        return bad(rd, "expected an object");
    GP_TRY(ONLY_KEYS(rd, o, "file", "tool_version", "command", "device"));
    gp_report_source s = {0};
    char file[GP_TEXT_LEN];
    const cJSON *device;
    GP_TRY(get_string(rd, o, "file", file, sizeof file));
    GP_TRY(get_string(rd, o, "tool_version", s.tool_version, sizeof s.tool_version));
    GP_TRY(get_string(rd, o, "command", s.command, sizeof s.command));
    GP_TRY(get_object(rd, o, "device", &device, true));
    const size_t at = enter_key(rd, "device");
    int rc = device ? read_device(rd, device, &s.device) : GP_OK;
    leave(rd, at);
    GP_TRY(rc);
    s.has_device = device != NULL;
    s.file = strdup(file);
    gp_report_source *bigger = s.file ? realloc(r->sources, (r->n_sources + 1) * sizeof s) : NULL;
    if (!bigger) {
        free(s.file);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    r->sources = bigger;
    r->sources[r->n_sources++] = s;
    return GP_OK;
}

static int read_result(reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    if (!cJSON_IsObject(o))
        return bad(rd, "expected an object");
    GP_TRY(ONLY_KEYS(rd, o, "family", "variant", "type", "size", "params", "launch", "timing",
                     "bytes_moved", "bandwidth_gbps", "percent_of_peak", "check", "profile",
                     "metrics", "launches", "passes", "source"));
    gp_result *res;
    const cJSON *check;
    int type;
    uint64_t bytes;
    GP_TRY(gp_report_add_result(r, &res));
    GP_TRY(read_source_index(rd, o, r, res));
    GP_TRY(get_string(rd, o, "family", res->family, sizeof res->family));
    GP_TRY(get_string(rd, o, "variant", res->variant, sizeof res->variant));
    GP_TRY(get_enum(rd, o, "type", type_names, 2, false, &type));
    snprintf(res->type, sizeof res->type, "%s", type_names[type]);
    GP_TRY(read_size(rd, o, res));
    GP_TRY(read_params(rd, o, res));
    GP_TRY(read_shape_and_time(rd, o, res));
    GP_TRY(get_integer(rd, o, "bytes_moved", 0, UINT64_MAX, &bytes));
    res->bytes_moved = bytes;
    GP_TRY(get_number(rd, o, "bandwidth_gbps", 0, true, &res->gbps));
    GP_TRY(get_number(rd, o, "percent_of_peak", 0, true, &res->percent_of_peak));
    GP_TRY(get_object(rd, o, "check", &check, false));
    const size_t at = enter_key(rd, "check");
    int rc = read_check(rd, check, &res->check);
    leave(rd, at);
    GP_TRY(rc);
    GP_TRY(read_profile(rd, o, res));
    GP_TRY(read_metrics(rd, o, "metrics", &res->metrics));
    GP_TRY(read_launches(rd, o, res));
    return check_passes(rd, o);
}

/* ---- gpuprof exec ---------------------------------------------------------------------------- */

static int read_exec_launch(reader *rd, const cJSON *o, void *exec)
{
    gp_exec_info *e = exec;
    if (!cJSON_IsObject(o))
        return bad(rd, "expected an object");
    GP_TRY(ONLY_KEYS(rd, o, "pid", "id", "kernel", "mangled", "device", "context", "stream",
                     "grid", "block", "shared_bytes", "duration_ms", "profiled", "graph",
                     "graph_node", "metrics"));
    gp_exec_launch *l;
    uint64_t id, shared, graph, node;
    GP_TRY(gp_exec_add_launch(e, &l));
    GP_TRY(get_int(rd, o, "pid", 0, &l->pid));
    GP_TRY(get_integer(rd, o, "id", 0, UINT64_MAX, &id));
    l->id = id;
    GP_TRY(get_string_copy(rd, o, "kernel", &l->kernel, false));
    GP_TRY(get_string_copy(rd, o, "mangled", &l->mangled, true));
    GP_TRY(get_int(rd, o, "device", 0, &l->device));
    GP_TRY(get_uint(rd, o, "context", 0, &l->context));
    GP_TRY(get_uint(rd, o, "stream", 0, &l->stream));
    GP_TRY(get_dim(rd, o, "grid", &l->grid));
    GP_TRY(get_dim(rd, o, "block", &l->block));
    GP_TRY(get_integer(rd, o, "shared_bytes", 0, SIZE_MAX, &shared));
    l->shared_bytes = (size_t)shared;
    GP_TRY(get_number(rd, o, "duration_ms", 0, true, &l->duration_ms));
    if (isnan(l->duration_ms))
        l->duration_ms = -1.0;
    GP_TRY(get_bool(rd, o, "profiled", &l->profiled));
    GP_TRY(get_integer(rd, o, "graph", 0, UINT64_MAX, &graph));
    GP_TRY(get_integer(rd, o, "graph_node", 0, UINT64_MAX, &node));
    l->graph = graph;
    l->graph_node = node;
    return read_metrics(rd, o, "metrics", &l->metrics);
}

/* null or a whole number of at least 1: UINT64_MAX for no limit. */
static int get_limit(reader *rd, const cJSON *o, const char *key, uint64_t *out)
{
    const cJSON *v;
    GP_TRY(need(rd, o, key, &v));
    if (cJSON_IsNull(v)) {
        *out = UINT64_MAX;
        return GP_OK;
    }
    return get_integer(rd, o, key, 1, UINT64_MAX - 1, out);
}

static int read_filters(reader *rd, const cJSON *o, gp_exec_info *e)
{
    const cJSON *f, *kernel;
    GP_TRY(get_object(rd, o, "filters", &f, false));
    const size_t at = enter_key(rd, "filters");
    int rc = ONLY_KEYS(rd, f, "kernel", "launch_skip", "launch_count", "per_kernel");
    if (rc == GP_OK)
        rc = need(rd, f, "kernel", &kernel);
    if (rc == GP_OK && !cJSON_IsNull(kernel))
        rc = get_string(rd, f, "kernel", e->kernel_filter, sizeof e->kernel_filter);
    if (rc == GP_OK)
        rc = get_integer(rd, f, "launch_skip", 0, UINT64_MAX - 1, &e->launch_skip);
    if (rc == GP_OK)
        rc = get_limit(rd, f, "launch_count", &e->launch_count);
    if (rc == GP_OK)
        rc = get_limit(rd, f, "per_kernel", &e->per_kernel);
    leave(rd, at);
    return rc;
}

static int read_program(reader *rd, const cJSON *o, gp_exec_info *e)
{
    const cJSON *program, *item;
    GP_TRY(get_array(rd, o, "program", &program));
    GP_TRY(expect(rd, "program", cJSON_GetArraySize(program) >= 1, "a command line"));
    size_t i = 0;
    cJSON_ArrayForEach(item, program)
    {
        const size_t at = enter_key(rd, "program");
        enter_index(rd, i++);
        int rc = cJSON_IsString(item) ? GP_OK : bad(rd, "expected a string");
        leave(rd, at);
        GP_TRY(rc);
        char *argv[1] = {item->valuestring};
        GP_TRY(gp_exec_set_program(e, 1, argv));
    }
    return GP_OK;
}

/* An array whose every element read() reads, its index on the path. */
static int read_exec_device(reader *rd, const cJSON *o, void *exec)
{
    gp_exec_info *e = exec;
    gp_device_info d;
    if (!cJSON_IsObject(o))
        return bad(rd, "expected an object");
    GP_TRY(read_device(rd, o, &d));
    return gp_exec_add_device(e, &d);
}

/* The summary is derived from the launches: checked to be an array, not kept. */
static int skip_kernel(reader *rd, const cJSON *o, void *exec)
{
    (void)exec;
    return cJSON_IsObject(o) ? GP_OK : bad(rd, "expected an object");
}

static int read_exec(reader *rd, const cJSON *o, gp_report *r)
{
    gp_exec_info *e = &r->exec;
    uint64_t processes;
    const cJSON *signal;
    GP_TRY(ONLY_KEYS(rd, o, "program", "pid", "exit_status", "signal", "processes", "filters",
                     "devices", "launches", "kernels"));
    r->is_exec = true;
    GP_TRY(read_program(rd, o, e));
    GP_TRY(get_int(rd, o, "pid", 0, &e->pid));
    GP_TRY(get_integer(rd, o, "exit_status", 0, 255, &processes));
    e->exit_status = (int)processes;
    GP_TRY(need(rd, o, "signal", &signal));
    if (!cJSON_IsNull(signal))
        GP_TRY(get_int(rd, o, "signal", 1, &e->signal));
    GP_TRY(get_integer(rd, o, "processes", 0, UINT64_MAX, &processes));
    e->processes = (size_t)processes;
    GP_TRY(read_filters(rd, o, e));
    GP_TRY(read_each(rd, o, "devices", read_exec_device, e));
    GP_TRY(read_each(rd, o, "launches", read_exec_launch, e));
    return read_each(rd, o, "kernels", skip_kernel, e);
}

/* ---- the document -------------------------------------------------------------------------- */

static int read_warning(reader *rd, const cJSON *o, void *report)
{
    return cJSON_IsString(o) ? gp_report_add_warning(report, o->valuestring)
                             : bad(rd, "expected a string");
}

static int read_version(reader *rd, const cJSON *root)
{
    const cJSON *version = field(root, "schema_version");
    if (!cJSON_IsNumber(version))
        return expect(rd, "schema_version", false, "a number");
    if (version->valuedouble != GP_SCHEMA_VERSION)
        return gp_fail(GP_ERR_RUNTIME, "%s: schema_version %g is not supported (this gpuprof "
                                       "reads %d)", rd->file, version->valuedouble,
                       GP_SCHEMA_VERSION);
    return GP_OK;
}

static int read_header(reader *rd, const cJSON *root, gp_report *r)
{
    const cJSON *tool, *argv, *item;
    GP_TRY(get_object(rd, root, "tool", &tool, false));
    size_t at = enter_key(rd, "tool");
    char name[32];
    int rc = ONLY_KEYS(rd, tool, "name", "version");
    if (rc == GP_OK)
        rc = get_string(rd, tool, "name", name, sizeof name);
    if (rc == GP_OK)
        rc = expect(rd, "name", strcmp(name, "gpuprof") == 0, "\"gpuprof\"");
    if (rc == GP_OK)
        rc = get_string(rd, tool, "version", r->tool_version, sizeof r->tool_version);
    leave(rd, at);
    GP_TRY(rc);
    GP_TRY(get_string(rd, root, "command", r->command, sizeof r->command));
    GP_TRY(get_array(rd, root, "command_line", &argv));
    size_t i = 0;
    cJSON_ArrayForEach(item, argv)
    {
        at = enter_key(rd, "command_line");
        enter_index(rd, i++);
        rc = cJSON_IsString(item) ? GP_OK : bad(rd, "expected a string");
        leave(rd, at);
        GP_TRY(rc);
        char *one[1] = {item->valuestring};
        GP_TRY(gp_report_set_command_line(r, 1, one));
    }
    return expect(rd, "command_line", i >= 1, "a command line");
}

static int read_body(reader *rd, const cJSON *root, gp_report *r)
{
    const cJSON *device, *run, *profiler;
    const bool exec = strcmp(r->command, "exec") == 0;
    GP_TRY(get_object(rd, root, "device", &device, true));
    size_t at = enter_key(rd, "device");
    int rc = device ? read_device(rd, device, &r->device) : GP_OK;
    leave(rd, at);
    GP_TRY(rc);
    r->has_device = device != NULL;
    if (!exec) {
        GP_TRY(get_object(rd, root, "run", &run, false));
        at = enter_key(rd, "run");
        rc = read_run(rd, run, r);
        leave(rd, at);
        GP_TRY(rc);
    }
    GP_TRY(get_object(rd, root, "profiler", &profiler, false));
    at = enter_key(rd, "profiler");
    rc = read_profiler(rd, profiler, &r->profiler);
    leave(rd, at);
    GP_TRY(rc);
    if (field(root, "sources")) {
        GP_TRY(read_each(rd, root, "sources", read_source, r));
        GP_TRY(expect(rd, "sources", r->n_sources >= 1, "at least one source"));
    }
    GP_TRY(read_each(rd, root, "results", read_result, r));
    GP_TRY(read_each(rd, root, "warnings", read_warning, r));
    if (!exec)
        return expect(rd, "exec", !field(root, "exec"), "no exec section (command is "
                                                              "not exec)");
    const cJSON *e;
    GP_TRY(get_object(rd, root, "exec", &e, false));
    at = enter_key(rd, "exec");
    rc = read_exec(rd, e, r);
    leave(rd, at);
    return rc;
}

static int read_report(reader *rd, const cJSON *root, gp_report *r)
{
    /* The version is checked before the keys, so that a newer report says so rather than
     * naming the first key this gpuprof does not know. */
    if (!cJSON_IsObject(root) || !field(root, "schema_version"))
        return gp_fail(GP_ERR_RUNTIME, "%s: not a gpuprof report (no schema_version at the top "
                                       "level)", rd->file);
    GP_TRY(read_version(rd, root));
    GP_TRY(ONLY_KEYS(rd, root, "schema_version", "tool", "command", "command_line", "device",
                     "run", "profiler", "sources", "results", "warnings", "exec"));
    GP_TRY(read_header(rd, root, r));
    return read_body(rd, root, r);
}

/* ---- the text ---------------------------------------------------------------------------- */

/* Well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF); else the
 * offset of the first bad byte. */
static bool valid_utf8(const unsigned char *s, size_t n, size_t *bad_at)
{
    for (size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                                 : (c & 0xf8) == 0xf0 ? 4 : 0;
        uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
        bool ok = len > 0 && i + len <= n;
        for (size_t k = 1; ok && k < len; k++) {
            ok = (s[i + k] & 0xc0) == 0x80;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        ok = ok && !(len == 2 && cp < 0x80) && !(len == 3 && cp < 0x800) &&
             !(len == 4 && (cp < 0x10000 || cp > 0x10ffff)) && !(cp >= 0xd800 && cp <= 0xdfff);
        if (!ok) {
            *bad_at = i;
            return false;
        }
        i += len;
    }
    return true;
}

/* Deeper than MAX_DEPTH nested arrays or objects (outside strings)? */
static bool too_deep(const char *s, size_t n)
{
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        const char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > MAX_DEPTH)
                return true;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return false;
}

/* Line and column of a byte offset, for a parse error. */
static void position(const char *text, size_t offset, size_t *line, size_t *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *column = 1;
        } else {
            (*column)++;
        }
    }
}

int gp_report_parse_json(const char *text, size_t len, const char *name, gp_report *r)
{
    gp_report_init(r);
    size_t at;
    if (len > READ_LIMIT)
        return gp_fail(GP_ERR_RUNTIME, "%s: larger than %zu MiB, the most gpuprof reads", name,
                       READ_LIMIT >> 20);
    if (!valid_utf8((const unsigned char *)text, len, &at))
        return gp_fail(GP_ERR_RUNTIME, "%s: not UTF-8 text (byte %zu)", name, at);
    if (too_deep(text, len))
        return gp_fail(GP_ERR_RUNTIME, "%s: nested deeper than %d levels", name, MAX_DEPTH);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!root) {
        size_t line, column;
        position(text, end && end >= text ? (size_t)(end - text) : 0, &line, &column);
        return gp_fail(GP_ERR_RUNTIME, "%s: not valid JSON (line %zu, column %zu)", name, line,
                       column);
    }
    reader rd = {.file = name};
    int rc = read_report(&rd, root, r);
    cJSON_Delete(root);
    return rc;
}

/* The whole file, at most READ_LIMIT + 1 bytes (one more tells it is too large). */
static int read_file(const char *path, char **text, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return gp_fail(GP_ERR_RUNTIME, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf && n <= READ_LIMIT) {
        const size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            char *bigger = realloc(buf, 2 * cap);
            if (!bigger) {
                free(buf);
                buf = NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    const bool failed = ferror(f) != 0;
    if (f != stdin)
        fclose(f);
    if (!buf)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory reading %s", path);
    if (failed) {
        free(buf);
        return gp_fail(GP_ERR_RUNTIME, "cannot read %s", path);
    }
    *text = buf;
    *len = n;
    return GP_OK;
}

int gp_report_read_json(const char *path, gp_report *r)
{
    char *text = NULL;
    size_t len = 0;
    gp_report_init(r);
    GP_TRY(read_file(path, &text, &len));
    int rc = gp_report_parse_json(text, len, strcmp(path, "-") == 0 ? "standard input" : path,
                                  r);
    free(text);
    return rc;
}
