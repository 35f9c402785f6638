/* Measured values (gpuprof/metrics.h): a metric set's counters looked up, and the metrics a
 * launch lacked an input of derived again once a later run of the program brings it
 * (exec --replay=application). The catalogue and its derivations are metrics.c's. */
#include "gpuprof/metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most counters one metric set holds (a whole set of --metrics=all is 54 on GH100). */
#define GP_MAX_COUNTERS_IN_SET 128

void gp_metric_set_free(gp_metric_set *s)
{
    free(s->counters);
    free(s->metrics);
    memset(s, 0, sizeof *s);
}

double gp_metric_set_counter(const gp_metric_set *s, const char *name)
{
    for (size_t i = 0; i < s->n_counters; i++)
        if (strcmp(s->counters[i].name, name) == 0)
            return s->counters[i].value;
    return NAN;
}

static gp_counter *counter_named(gp_metric_set *s, const char *name)
{
    for (size_t i = 0; i < s->n_counters; i++)
        if (strcmp(s->counters[i].name, name) == 0)
            return &s->counters[i];
    return NULL;
}

/* A metric that lacked an input, from the set's counters now: a catalogue metric derived,
 * a raw PerfWorks counter read. */
static void derive_again(gp_metric_set *s, gp_metric_value *m)
{
    const gp_metric_def *def = gp_find_metric(m->key);
    const char *names[GP_MAX_COUNTERS_IN_SET];
    double values[GP_MAX_COUNTERS_IN_SET];
    const size_t n = s->n_counters < GP_MAX_COUNTERS_IN_SET ? s->n_counters : 0;
    for (size_t i = 0; i < n; i++) {
        names[i] = s->counters[i].name;
        values[i] = s->counters[i].value;
    }
    const char *why = NULL;
    if (def) {
        m->valid = gp_metric_derive(def, names, values, n, &m->value, &why);
        gp_metric_note(def, names, values, n, m->valid, m->value, m->note, sizeof m->note);
    } else {
        const gp_counter *c = counter_named(s, m->key);
        m->valid = c && !isnan(c->value);
        m->value = m->valid ? c->value : 0.0;
    }
    if (m->valid)
        m->why[0] = '\0';
    else if (def && why && strcmp(why, "counter not collected") != 0)
        snprintf(m->why, sizeof m->why, "%s", why);
}

int gp_metric_set_add_counters(gp_metric_set *s, const gp_counter *counters, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (counter_named(s, counters[i].name))
            continue;
        gp_counter *grown = realloc(s->counters, (s->n_counters + 1) * sizeof *grown);
        if (!grown)
            return -1;
        s->counters = grown;
        s->counters[s->n_counters++] = counters[i];
    }
    for (size_t i = 0; i < s->n_metrics; i++)
        if (!s->metrics[i].valid && strcmp(s->metrics[i].why, GP_NOT_IN_THIS_PASS) == 0)
            derive_again(s, &s->metrics[i]);
    return 0;
}
