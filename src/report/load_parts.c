/* Reading back a device, a metric set and an exec source index (report/load_parts.h), as
 * strictly as the rest of the report: every key the schema requires, with its type and range
 * (keys it does not know are a newer gpuprof's, passed over). */
#include "report/load_parts.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int read_inputs(gp_json_reader *rd, const cJSON *o, gp_metric_set *s, gp_metric_value *m)
{
    const cJSON *inputs, *in;
    GP_TRY(gp_json_get_object(rd, o, "inputs", &inputs, false));
    const size_t at = gp_json_enter_key(rd, "inputs");
    int rc = cJSON_GetArraySize(inputs) > 4 ? gp_json_fail(rd, "more than 4 counters") : GP_OK;
    cJSON_ArrayForEach(in, inputs)
    {
        if (rc != GP_OK)
            break;
        double v = NAN;
        if (strlen(in->string) >= GP_NAME_LEN)
            rc = gp_json_fail(rd, "a counter name longer than %d characters", GP_NAME_LEN - 1);
        else if (!cJSON_IsNull(in))
            rc = gp_json_get_number(rd, inputs, in->string, -INFINITY, true, &v);
        if (rc != GP_OK)
            break;
        snprintf(m->inputs[m->n_inputs++], GP_NAME_LEN, "%s", in->string);
        rc = add_counter(s, in->string, v);
    }
    gp_json_leave(rd, at);
    return rc;
}

static int read_metric(gp_json_reader *rd, const cJSON *e, gp_metric_set *s, gp_metric_value *m)
{
    if (!cJSON_IsObject(e))
        return gp_json_fail(rd, "expected an object");
    if (strlen(e->string) >= sizeof m->key)
        return gp_json_fail(rd, "a metric key longer than %zu characters", sizeof m->key - 1);
    snprintf(m->key, sizeof m->key, "%s", e->string);
    GP_TRY(gp_json_get_number(rd, e, "value", -INFINITY, true, &m->value));
    m->valid = !isnan(m->value);
    GP_TRY(gp_json_get_string(rd, e, "unit", m->unit, sizeof m->unit));
    if (gp_json_field(e, "reason"))
        GP_TRY(gp_json_get_string(rd, e, "reason", m->why, sizeof m->why));
    if (gp_json_field(e, "note"))
        GP_TRY(gp_json_get_string(rd, e, "note", m->note, sizeof m->note));
    return read_inputs(rd, e, s, m);
}

/* null or { key: metric }. */
int gp_report_read_metrics(gp_json_reader *rd, const cJSON *o, const char *key,
                           gp_metric_set *s)
{
    const cJSON *metrics, *e;
    memset(s, 0, sizeof *s);
    GP_TRY(gp_json_get_object(rd, o, key, &metrics, true));
    if (!metrics)
        return GP_OK;
    s->metrics = calloc((size_t)cJSON_GetArraySize(metrics) + 1, sizeof *s->metrics);
    if (!s->metrics)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    const size_t at = gp_json_enter_key(rd, key);
    int rc = GP_OK;
    cJSON_ArrayForEach(e, metrics)
    {
        const size_t at_e = gp_json_enter_key(rd, e->string);
        rc = read_metric(rd, e, s, &s->metrics[s->n_metrics++]);
        gp_json_leave(rd, at_e);
        if (rc != GP_OK)
            break;
    }
    gp_json_leave(rd, at);
    return rc;
}

/* ---- the device ------------------------------------------------------------------------------ */

/* "13.0" → 13000, as the driver numbers its versions. */
static int get_version(gp_json_reader *rd, const cJSON *o, const char *key, int *out)
{
    char text[16];
    unsigned major, minor;
    char extra;
    GP_TRY(gp_json_get_string(rd, o, key, text, sizeof text));
    GP_TRY(gp_json_expect(rd, key,
                          sscanf(text, "%u.%u%c", &major, &minor, &extra) == 2 && major < 1000 &&
                              minor < 100,
                          "a version such as \"13.0\""));
    *out = (int)(major * 1000 + minor * 10);
    return GP_OK;
}

int gp_report_read_device(gp_json_reader *rd, const cJSON *o, void *device)
{
    gp_device_info *d = device;
    memset(d, 0, sizeof *d);
    char cc[16];
    unsigned major, minor;
    char extra;
    uint64_t memory, l2;
    GP_TRY(gp_json_get_int(rd, o, "index", 0, &d->index));
    GP_TRY(gp_json_get_string(rd, o, "name", d->name, sizeof d->name));
    GP_TRY(gp_json_get_string(rd, o, "compute_capability", cc, sizeof cc));
    GP_TRY(gp_json_expect(rd, "compute_capability",
                          sscanf(cc, "%u.%u%c", &major, &minor, &extra) == 2 && major < 100 &&
                              minor < 100,
                          "a compute capability such as \"9.0\""));
    d->cc_major = (int)major;
    d->cc_minor = (int)minor;
    GP_TRY(gp_json_get_int(rd, o, "multiprocessors", 1, &d->multiprocessors));
    GP_TRY(gp_json_get_integer(rd, o, "memory_bytes", 0, UINT64_MAX, &memory));
    GP_TRY(gp_json_get_integer(rd, o, "l2_bytes", 0, UINT64_MAX, &l2));
    d->memory_bytes = memory;
    d->l2_bytes = l2;
    GP_TRY(gp_json_get_number(rd, o, "sm_clock_mhz", 0, false, &d->sm_clock_mhz));
    GP_TRY(gp_json_get_number(rd, o, "memory_clock_mhz", 0, false, &d->memory_clock_mhz));
    GP_TRY(gp_json_get_int(rd, o, "memory_bus_bits", 0, &d->memory_bus_bits));
    GP_TRY(gp_json_get_number(rd, o, "peak_bandwidth_gbps", 0, false, &d->peak_gbps));
    GP_TRY(gp_json_get_number(rd, o, "copy_bandwidth_gbps", 0, true, &d->copy_gbps));
    if (isnan(d->copy_gbps))
        d->copy_gbps = -1.0;
    GP_TRY(get_version(rd, o, "driver_version", &d->driver_version));
    return get_version(rd, o, "runtime_version", &d->runtime_version);
}

int gp_report_read_input(gp_json_reader *rd, const cJSON *o, const gp_report *r,
                         size_t *input)
{
    uint64_t index = 0;
    *input = r->n_sources ? GP_INPUT_UNKNOWN : 0;
    if (!gp_json_field(o, "source"))
        return GP_OK;
    GP_TRY(gp_json_expect(rd, "source", r->n_sources > 0, "no source (there are no sources)"));
    GP_TRY(gp_json_get_integer(rd, o, "source", 0, r->n_sources - 1, &index));
    *input = (size_t)index;
    return GP_OK;
}
