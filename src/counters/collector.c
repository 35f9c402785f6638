/* The profiler set up for a metric request: choose the metrics the chip provides and the
 * counters they need, and turn counter values into the report's metric sets.
 * Counters layer: never prints, never exits, never links cudart. */
#include "gpuprof/collector.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- which counters ----------------------------------------------------------------------- */

static bool wants(const gp_metrics_request *req, const gp_metric_def *m)
{
    if (req->kind == GP_METRICS_ALL)
        return true;
    const unsigned groups = req->kind == GP_METRICS_DEFAULT ? GP_GROUP_BIT(GP_GROUP_DEFAULT)
                                                              : req->groups;
    if ((groups & GP_GROUP_BIT(m->group)) ||
        (m->where_used && (groups & GP_GROUP_BIT(GP_GROUP_DEFAULT))))
        return true;
    if (req->kind == GP_METRICS_DEFAULT)
        return false;
    for (size_t i = 0; i < req->n_names; i++)
        if (strcmp(req->names[i], m->key) == 0)
            return true;
    return false;
}

static int add_counter(gp_collector *c, const char *name)
{
    for (size_t i = 0; i < c->n_counters; i++)
        if (strcmp(c->counters[i], name) == 0)
            return GP_OK;
    if (c->n_counters >= GP_MAX_COUNTERS)
        return gp_fail(GP_ERR_USAGE, "too many counters requested (at most %d)", GP_MAX_COUNTERS);
    c->counters[c->n_counters++] = name;
    return GP_OK;
}

static gp_selected_metric *add_metric(gp_collector *c)
{
    gp_selected_metric *s = &c->metrics[c->n_metrics++];
    memset(s, 0, sizeof *s);
    return s;
}

/* A catalogue metric: collected when the chip has every input; with the counters of its
 * notes that the chip has. */
static int select_catalogue_metric(gp_collector *c, const gp_metric_def *m)
{
    gp_selected_metric *s = add_metric(c);
    s->def = m;
    for (size_t k = 0; k < m->n_inputs && !s->missing; k++)
        if (!gp_profiler_has_counter(c->profiler, m->inputs[k], NULL))
            s->missing = m->inputs[k];
    if (s->missing)
        return GP_OK;
    for (size_t k = 0; k < m->n_inputs; k++)
        GP_TRY(add_counter(c, m->inputs[k]));
    const char *notes[GP_METRIC_MAX_INPUTS];
    const size_t n = gp_metric_note_counters(m, notes);
    for (size_t k = 0; k < n; k++)
        if (gp_profiler_has_counter(c->profiler, notes[k], NULL))
            GP_TRY(add_counter(c, notes[k]));
    return GP_OK;
}

static int select_raw_metric(gp_collector *c, const char *name)
{
    gp_selected_metric *s = add_metric(c);
    snprintf(s->raw_name, sizeof s->raw_name, "%s", name);
    const char *unit = "";
    if (!gp_profiler_has_counter(c->profiler, s->raw_name, &unit)) {
        s->missing = s->raw_name;
        return GP_OK;
    }
    snprintf(s->raw_unit, sizeof s->raw_unit, "%s", unit);
    return add_counter(c, s->raw_name);
}

/* Metrics in catalogue order, then raw names in command-line order; the inputs this chip
 * has, and the clock counters every result reports. */
static int select_metrics(gp_collector *c, const gp_metrics_request *req)
{
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    for (size_t i = 0; i < n; i++)
        if (wants(req, &cat[i]))
            GP_TRY(select_catalogue_metric(c, &cat[i]));
    for (size_t i = 0; req->kind == GP_METRICS_LIST && i < req->n_names; i++)
        if (!gp_find_metric(req->names[i]))
            GP_TRY(select_raw_metric(c, req->names[i]));
    for (size_t i = 0; i < gp_n_clock_counters; i++)
        if (gp_profiler_has_counter(c->profiler, gp_clock_counters[i], NULL))
            GP_TRY(add_counter(c, gp_clock_counters[i]));
    return GP_OK;
}

/* ---- opening ------------------------------------------------------------------------------ */

/* The metrics the chip provides, their counters, and the configuration of all of them. */
static int choose(gp_collector *c, const gp_metrics_request *req)
{
    snprintf(c->chip, sizeof c->chip, "%s", gp_profiler_chip(c->profiler));
    GP_TRY(select_metrics(c, req));
    if (c->n_counters == 0)
        return gp_fail(GP_ERR_RUNTIME, "none of the requested metrics exists on %s", c->chip);
    return gp_profiler_configure(c->profiler, c->counters, c->n_counters, &c->passes);
}

/* A collector opened by `open` (a device's profiler, or a chip's), or nothing held and the
 * first failure's message kept. */
static int open_collector(int device, const char *chip, const gp_metrics_request *req,
                          gp_collector **out)
{
    *out = NULL;
    gp_collector *c = calloc(1, sizeof *c);
    if (!c)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    c->kind = req->kind;
    int rc = chip ? gp_profiler_open_chip(chip, &c->profiler)
                  : gp_profiler_open(device, &c->profiler);
    if (rc == GP_OK)
        rc = choose(c, req);
    if (rc != GP_OK) {
        char hint[GP_MESSAGE_LEN];
        snprintf(hint, sizeof hint, "%s", gp_hint());
        gp_collector_close(c); /* records nothing: the first failure stays the one shown */
        if (hint[0])
            gp_set_hint("%s", hint);
        return rc;
    }
    *out = c;
    return GP_OK;
}

int gp_collector_open(int device, const gp_metrics_request *req, gp_collector **out)
{
    return open_collector(device, NULL, req, out);
}

int gp_collector_open_chip(const char *chip, const gp_metrics_request *req, gp_collector **out)
{
    return open_collector(-1, chip, req, out);
}

int gp_collector_attach(gp_collector *c, void *context, gp_replay replay, size_t ranges)
{
    return gp_profiler_attach(c->profiler, context, replay, ranges);
}

void gp_collector_close(gp_collector *c)
{
    if (!c)
        return;
    gp_profiler_close(c->profiler);
    free(c);
}

/* ---- counter values to metrics ------------------------------------------------------------- */

void gp_collector_accumulate(const gp_collector *c, double *sums, const double *values,
                             bool first)
{
    for (size_t i = 0; i < c->n_counters; i++)
        sums[i] = first || gp_counter_is_constant(c->counters[i]) ? values[i]
                                                                  : sums[i] + values[i];
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static size_t counter_index(const gp_collector *c, const char *name)
{
    size_t k = 0;
    while (k < c->n_counters && strcmp(c->counters[k], name) != 0)
        k++;
    return k;
}

static void catalogue_value(const gp_collector *c, const gp_selected_metric *s,
                            const double *values, gp_metric_value *m, const char **why)
{
    snprintf(m->key, sizeof m->key, "%s", s->def->key);
    snprintf(m->unit, sizeof m->unit, "%s", s->def->unit);
    m->n_inputs = s->def->n_inputs;
    for (size_t k = 0; k < s->def->n_inputs; k++)
        snprintf(m->inputs[k], GP_NAME_LEN, "%s", s->def->inputs[k]);
    if (s->missing)
        return;
    m->valid = gp_metric_derive(s->def, c->counters, values, c->n_counters, &m->value, why);
    gp_metric_note(s->def, c->counters, values, c->n_counters, m->valid, m->value, m->note,
                   sizeof m->note);
}

/* A raw counter is its own value; summed over launches only when it is a sum. */
static void raw_value(const gp_collector *c, const gp_selected_metric *s, const double *values,
                      size_t n_ranges, gp_metric_value *m, const char **why)
{
    snprintf(m->key, sizeof m->key, "%s", s->raw_name);
    snprintf(m->unit, sizeof m->unit, "%s", s->raw_unit);
    m->n_inputs = 1;
    snprintf(m->inputs[0], GP_NAME_LEN, "%s", s->raw_name);
    if (s->missing)
        return;
    if (n_ranges > 1 && !ends_with(s->raw_name, ".sum")) {
        *why = "not additive over launches: see each launch";
        return;
    }
    m->value = values[counter_index(c, s->raw_name)];
    m->valid = !isnan(m->value);
}

int gp_collector_metric_set(const gp_collector *c, const double *values, size_t n_ranges,
                            gp_metric_set *out)
{
    memset(out, 0, sizeof *out);
    out->counters = calloc(c->n_counters, sizeof *out->counters);
    out->metrics = calloc(c->n_metrics, sizeof *out->metrics);
    if (!out->counters || !out->metrics)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    out->n_counters = c->n_counters;
    out->n_metrics = c->n_metrics;
    for (size_t i = 0; i < c->n_counters; i++) {
        snprintf(out->counters[i].name, GP_NAME_LEN, "%s", c->counters[i]);
        out->counters[i].value = values[i];
    }
    for (size_t i = 0; i < c->n_metrics; i++) {
        const gp_selected_metric *s = &c->metrics[i];
        gp_metric_value *m = &out->metrics[i];
        const char *why = NULL;
        if (s->def)
            catalogue_value(c, s, values, m, &why);
        else
            raw_value(c, s, values, n_ranges, m, &why);
        if (s->missing)
            snprintf(m->why, sizeof m->why, "%s is not available on %s", s->missing, c->chip);
        else if (!m->valid)
            snprintf(m->why, sizeof m->why, "%s", why ? why : "undefined");
    }
    return GP_OK;
}

/* Whether every input of the metric was collected. */
static bool has_inputs(const gp_collector *c, const gp_selected_metric *s, const bool *collected)
{
    if (s->missing)
        return true; /* n/a on this chip whatever was collected: it stays, saying why */
    if (!s->def) {
        const size_t i = counter_index(c, s->raw_name);
        return i < c->n_counters && collected[i];
    }
    for (size_t k = 0; k < s->def->n_inputs; k++) {
        const size_t i = counter_index(c, s->def->inputs[k]);
        if (i == c->n_counters || !collected[i])
            return false;
    }
    return true;
}

int gp_collector_partial_metric_set(const gp_collector *c, const double *values,
                                    const bool *collected, gp_metric_set *out)
{
    GP_TRY(gp_collector_metric_set(c, values, 1, out));
    size_t kept = 0;
    for (size_t i = 0; i < c->n_counters; i++)
        if (collected[i])
            out->counters[kept++] = out->counters[i];
    out->n_counters = kept;
    for (size_t i = 0; i < c->n_metrics; i++)
        if (!has_inputs(c, &c->metrics[i], collected)) {
            gp_metric_value *m = &out->metrics[i];
            m->valid = false;
            m->value = 0.0;
            snprintf(m->why, sizeof m->why, "%s", GP_NOT_IN_THIS_PASS);
        }
    return GP_OK;
}

/* ---- a chip without a GPU ----------------------------------------------------------------- */

/* Passes of a request on the chip: a collector of its own per request, since a host object
 * holds every metric ever added to it. */
static int chip_passes(const char *chip, const gp_metrics_request *req, int *passes)
{
    gp_collector *c = NULL;
    GP_TRY(gp_collector_open_chip(chip, req, &c));
    *passes = c->passes;
    gp_collector_close(c);
    return GP_OK;
}

static void chip_availability(const gp_profiler *p, gp_metric_availability *avail, size_t n)
{
    size_t count;
    const gp_metric_def *cat = gp_metric_catalogue(&count);
    for (size_t i = 0; i < n && i < count; i++) {
        avail[i].available = true;
        avail[i].missing = NULL;
        for (size_t k = 0; k < cat[i].n_inputs && avail[i].available; k++)
            if (!gp_profiler_has_counter(p, cat[i].inputs[k], NULL)) {
                avail[i].available = false;
                avail[i].missing = cat[i].inputs[k];
            }
    }
}

/* A group none of whose metrics the chip has takes no pass (0). */
static int group_passes(const char *chip, gp_metric_group g, const gp_metric_availability *avail,
                        int *passes)
{
    size_t count;
    const gp_metric_def *cat = gp_metric_catalogue(&count);
    bool any = false;
    for (size_t i = 0; i < count; i++)
        any |= cat[i].group == g && avail[i].available;
    *passes = 0;
    const gp_metrics_request req = {.kind = GP_METRICS_LIST, .groups = GP_GROUP_BIT(g)};
    return any ? chip_passes(chip, &req, passes) : GP_OK;
}

int gp_collector_chip_summary(const char *chip, gp_metric_availability *avail, size_t n,
                              int passes[GP_METRIC_GROUPS], int *passes_all)
{
    size_t count;
    gp_metric_catalogue(&count);
    if (n < count)
        return gp_fail(GP_ERR_RUNTIME, "internal error: %zu availabilities for %zu metrics", n,
                       count);
    gp_profiler *p = NULL;
    GP_TRY(gp_profiler_open_chip(chip, &p));
    chip_availability(p, avail, n);
    gp_profiler_close(p);
    for (unsigned g = 0; g < GP_METRIC_GROUPS; g++)
        GP_TRY(group_passes(chip, (gp_metric_group)g, avail, &passes[g]));
    const gp_metrics_request all = {.kind = GP_METRICS_ALL};
    return chip_passes(chip, &all, passes_all);
}
