/* The per-kernel summary of an exec report. */
#include "gpuprof/exec_summary.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t gp_exec_profiled(const gp_exec_info *e)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n_launches; i++)
        n += e->launches[i].profiled;
    return n;
}

const char *gp_exec_replay(int passes)
{
    return passes == 1 ? "one pass, no replay" : "kernel replay";
}

static gp_exec_kernel *entry_for(gp_exec_kernel *k, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(k[i].kernel, name) == 0)
            return &k[i];
    gp_exec_kernel *e = &k[(*n)++];
    memset(e, 0, sizeof *e);
    e->kernel = name;
    e->min_ms = INFINITY;
    return e;
}

static gp_metric_stats *stats_for(gp_exec_kernel *k, const gp_metric_value *m)
{
    for (size_t i = 0; i < k->n_metrics; i++)
        if (strcmp(k->metrics[i].average.key, m->key) == 0)
            return &k->metrics[i];
    gp_metric_stats *grown = realloc(k->metrics, (k->n_metrics + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    k->metrics = grown;
    gp_metric_stats *s = &k->metrics[k->n_metrics++];
    memset(s, 0, sizeof *s);
    for (gp_metric_value *v = &s->min; v <= &s->max; v++) {
        snprintf(v->key, sizeof v->key, "%s", m->key);
        snprintf(v->unit, sizeof v->unit, "%s", m->unit);
        snprintf(v->why, sizeof v->why, "%s", m->why);
    }
    return s;
}

static int add_metrics(gp_exec_kernel *k, const gp_metric_set *set)
{
    for (size_t i = 0; i < set->n_metrics; i++) {
        const gp_metric_value *m = &set->metrics[i];
        gp_metric_stats *s = stats_for(k, m);
        if (!s)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        if (!m->valid)
            continue;
        s->min.value = s->launches ? fmin(s->min.value, m->value) : m->value;
        s->max.value = s->launches ? fmax(s->max.value, m->value) : m->value;
        s->average.value += m->value; /* the sum until finish() */
        s->launches++;
        s->min.valid = s->average.valid = s->max.valid = true;
    }
    return GP_OK;
}

static int add_launch(gp_exec_kernel *k, const gp_exec_launch *l)
{
    k->calls++;
    if (l->duration_ms >= 0) {
        k->timed++;
        k->total_ms += l->duration_ms;
        k->min_ms = fmin(k->min_ms, l->duration_ms);
        k->max_ms = fmax(k->max_ms, l->duration_ms);
    }
    if (!l->profiled)
        return GP_OK;
    k->profiled++;
    return add_metrics(k, &l->metrics);
}

static int most_time_first(const void *a, const void *b)
{
    const gp_exec_kernel *x = a, *y = b;
    return (x->total_ms < y->total_ms) - (x->total_ms > y->total_ms);
}

static void finish(gp_exec_kernel *k, size_t n)
{
    double all = 0.0;
    for (size_t i = 0; i < n; i++)
        all += k[i].total_ms;
    for (size_t i = 0; i < n; i++) {
        k[i].time_percent = all > 0 ? 100.0 * k[i].total_ms / all : NAN;
        if (!k[i].timed)
            k[i].min_ms = k[i].max_ms = NAN;
        for (size_t m = 0; m < k[i].n_metrics; m++)
            if (k[i].metrics[m].launches)
                k[i].metrics[m].average.value /= (double)k[i].metrics[m].launches;
    }
    qsort(k, n, sizeof *k, most_time_first);
}

int gp_exec_summarize(const gp_exec_info *e, gp_exec_kernel **out, size_t *n)
{
    *n = 0;
    *out = calloc(e->n_launches ? e->n_launches : 1, sizeof **out);
    if (!*out)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < e->n_launches; i++) {
        int rc = add_launch(entry_for(*out, n, e->launches[i].kernel), &e->launches[i]);
        if (rc != GP_OK) {
            gp_exec_summary_free(*out, *n);
            return rc;
        }
    }
    finish(*out, *n);
    return GP_OK;
}

void gp_exec_summary_free(gp_exec_kernel *k, size_t n)
{
    for (size_t i = 0; k && i < n; i++)
        free(k[i].metrics);
    free(k);
}
