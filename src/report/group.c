/* Grouping of a report's results into problems and sweeps (gpuprof/group.h). The report
 * layer: plain data in, plain data out; nothing printed, nothing formatted. */
#include "gpuprof/group.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- problems ---------------------------------------------------------------------------- */

static bool same_value(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static double param_value(const gp_result *res, const char *name)
{
    const gp_param *p = gp_result_param(res, name);
    return p ? p->value : NAN;
}

static bool same_problem(const gp_result *a, const gp_result *b)
{
    return strcmp(a->family, b->family) == 0 && a->n == b->n && a->nx == b->nx &&
           a->ny == b->ny && strcmp(a->type, b->type) == 0;
}

gp_problem_span gp_problem_at(const gp_report *r, size_t first)
{
    size_t end = first + 1;
    while (end < r->n_results && same_problem(&r->results[first], &r->results[end]))
        end++;
    return (gp_problem_span){r, first, end};
}

bool gp_problem_param_varies(const gp_problem_span *p, const char *name)
{
    const gp_result *results = p->report->results;
    const double first = param_value(&results[p->first], name);
    for (size_t i = p->first + 1; i < p->end; i++)
        if (!same_value(param_value(&results[i], name), first))
            return true;
    return false;
}

bool gp_problem_block_varies(const gp_problem_span *p)
{
    const gp_dim3 *b0 = NULL;
    for (size_t i = p->first; i < p->end; i++) {
        const gp_dim3 *b = &p->report->results[i].block;
        if (b->x == 0)
            continue;
        if (b0 && (b->x != b0->x || b->y != b0->y || b->z != b0->z))
            return true;
        b0 = b0 ? b0 : b;
    }
    return false;
}

/* ---- sweeps ------------------------------------------------------------------------------ */

static const char *const sweep_names[GP_SWEEP_PARAMS] = {
    [GP_SWEEP_BLOCK] = "block", [GP_SWEEP_N] = "n", [GP_SWEEP_PAD] = "pad",
    [GP_SWEEP_GROUP] = "group", [GP_SWEEP_GRID] = "grid",
};

const char *gp_sweep_param_name(gp_sweep_param p)
{
    return p > GP_SWEEP_NONE && p < GP_SWEEP_PARAMS ? sweep_names[p] : "";
}

double gp_sweep_value(const gp_result *res, gp_sweep_param p)
{
    if (p == GP_SWEEP_BLOCK)
        return (double)res->block.x * (res->block.y ? res->block.y : 1) *
               (res->block.z ? res->block.z : 1);
    if (p == GP_SWEEP_N)
        return (double)res->n;
    return param_value(res, gp_sweep_param_name(p));
}

static bool same_sweep(const gp_result *a, const gp_result *b, bool by_input)
{
    return strcmp(a->family, b->family) == 0 && strcmp(a->variant, b->variant) == 0 &&
           strcmp(a->type, b->type) == 0 && (!by_input || a->input == b->input);
}

static bool varies(const gp_report *r, const gp_sweep *s, gp_sweep_param p)
{
    const double first = gp_sweep_value(&r->results[s->results[0]], p);
    for (size_t i = 1; i < s->n; i++)
        if (!same_value(gp_sweep_value(&r->results[s->results[i]], p), first))
            return true;
    return false;
}

/* Exactly one parameter varies: that one; else none. */
static gp_sweep_param swept_param(const gp_report *r, const gp_sweep *s)
{
    gp_sweep_param found = GP_SWEEP_NONE;
    for (gp_sweep_param p = 0; p < GP_SWEEP_PARAMS; p++) {
        if (!varies(r, s, p))
            continue;
        if (found != GP_SWEEP_NONE)
            return GP_SWEEP_NONE;
        found = p;
    }
    return found;
}

/* Insertion sort, stable: results of equal value keep the report's order. */
static void sort_by_param(const gp_report *r, size_t *members, size_t n, gp_sweep_param p)
{
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0; k--) {
            const double a = gp_sweep_value(&r->results[members[k - 1]], p);
            const double b = gp_sweep_value(&r->results[members[k]], p);
            if (!(b < a))
                break;
            const size_t t = members[k];
            members[k] = members[k - 1];
            members[k - 1] = t;
        }
}

void gp_sweeps_free(gp_sweeps *s)
{
    free(s->sweeps);
    free(s->indices);
    *s = (gp_sweeps){0};
}

/* The sweep of results[first] and the untaken results after it of the same variant,
 * written at `members`. */
static gp_sweep collect(const gp_report *r, size_t first, bool by_input, bool *taken,
                        size_t *members)
{
    size_t n = 0;
    for (size_t k = first; k < r->n_results; k++)
        if (!taken[k] && same_sweep(&r->results[first], &r->results[k], by_input)) {
            taken[k] = true;
            members[n++] = k;
        }
    gp_sweep s = {members, n, GP_SWEEP_NONE};
    if (n > 1)
        s.param = swept_param(r, &s);
    if (s.param != GP_SWEEP_NONE)
        sort_by_param(r, members, n, s.param);
    return s;
}

int gp_sweeps_find(const gp_report *r, gp_sweeps *out)
{
    const size_t n = r->n_results;
    *out = (gp_sweeps){0};
    out->sweeps = calloc(n + 1, sizeof *out->sweeps);
    out->indices = calloc(n + 1, sizeof *out->indices);
    bool *taken = calloc(n + 1, sizeof *taken);
    if (!out->sweeps || !out->indices || !taken) {
        free(taken);
        gp_sweeps_free(out);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    const bool by_input = gp_report_sources_differ(r);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (taken[i])
            continue;
        const gp_sweep s = collect(r, i, by_input, taken, out->indices + used);
        out->sweeps[out->n_sweeps++] = s;
        used += s.n;
    }
    free(taken);
    return GP_OK;
}
