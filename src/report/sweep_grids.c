/* The two-parameter sweeps of a report (gpuprof/group.h): a sweep (one variant's results)
 * that varies in exactly two parameters, each pair of values once, as a grid of its GB/s:
 * rows the first parameter's values, columns the second's. The parameters are the block's
 * shape (32x8 and 16x16 are different blocks of 256 threads), the problem size and the
 * family's parameters, in that order. Plain data: the page draws each grid as a heatmap
 * (render/html_heatmaps.c). */
#include "gpuprof/group.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DIM_MAX (GP_RESULT_MAX_PARAMS + 2)

/* What a result's parameter is, written as the page writes it: "block", "n", "pad". */
static bool dim_value(const gp_result *res, const char *dim, char *buf, size_t len)
{
    if (strcmp(dim, "block") == 0) {
        if (!res->block.x)
            return false;
        gp_dim_text(buf, len, res->block, res->nx != 0);
        return true;
    }
    if (strcmp(dim, "n") == 0) {
        snprintf(buf, len, "%llu", (unsigned long long)res->n);
        return true;
    }
    const gp_param *p = gp_result_param(res, dim);
    if (!p || isnan(p->value))
        return false;
    snprintf(buf, len, "%.10g", p->value);
    return true;
}

static size_t axis_index(const gp_heat_axis *a, const char *v)
{
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->values[i], v) == 0)
            return i;
    return a->n;
}

static int by_number(const void *a, const void *b)
{
    const double x = strtod(a, NULL), y = strtod(b, NULL);
    return (x > y) - (x < y);
}

/* The axis' values in the sweep: numbers in order, block shapes as first met. */
static void axis_fill(gp_heat_axis *a, const gp_report *r, const gp_sweep *s)
{
    a->n = a->missing = 0;
    a->overflow = false;
    for (size_t i = 0; i < s->n && !a->overflow; i++) {
        char v[GP_HEAT_VALUE_LEN];
        if (!dim_value(&r->results[s->results[i]], a->name, v, sizeof v))
            a->missing++;
        else if (axis_index(a, v) == a->n && a->n == GP_HEAT_MAX_VALUES)
            a->overflow = true;
        else if (axis_index(a, v) == a->n)
            snprintf(a->values[a->n++], GP_HEAT_VALUE_LEN, "%s", v);
    }
    if (strcmp(a->name, "block") != 0)
        qsort(a->values, a->n, GP_HEAT_VALUE_LEN, by_number);
}

/* The parameters a result can vary in: block, n, and those of its family. */
static size_t dims_of(const gp_result *res, const char **dims)
{
    size_t n = 0;
    dims[n++] = "block";
    dims[n++] = "n";
    for (size_t p = 0; p < res->n_params; p++)
        dims[n++] = res->params[p].name;
    return n;
}

/* Whether the sweep varies in exactly two parameters, each pair of values once: then `g`
 * holds its axes (values left to grid_values). */
static bool two_param_sweep(const gp_report *r, const gp_sweep *s, gp_heat_grid *g)
{
    if (s->param != GP_SWEEP_NONE || s->n < 2)
        return false;
    const char *dims[DIM_MAX];
    const size_t nd = dims_of(&r->results[s->results[0]], dims);
    size_t found = 0;
    gp_heat_axis a;
    for (size_t d = 0; d < nd; d++) {
        a.name = dims[d];
        axis_fill(&a, r, s);
        if (a.missing == s->n || (a.n < 2 && !a.missing))
            continue;            /* applies to none, or takes one value: not an axis */
        if (a.missing || a.overflow || ++found > 2)
            return false;        /* a parameter some results lack, or a third one */
        *(found == 1 ? &g->rows : &g->cols) = a;
    }
    return found == 2 && g->rows.n * g->cols.n >= s->n;
}

/* The cells: each result at its pair; false when two results share one. */
static bool grid_values(const gp_report *r, gp_heat_grid *g)
{
    const size_t cells = g->rows.n * g->cols.n;
    for (size_t i = 0; i < cells; i++)
        g->values[i] = NAN;
    for (size_t i = 0; i < g->sweep->n; i++) {
        const gp_result *res = &r->results[g->sweep->results[i]];
        char a[GP_HEAT_VALUE_LEN], b[GP_HEAT_VALUE_LEN];
        dim_value(res, g->rows.name, a, sizeof a);
        dim_value(res, g->cols.name, b, sizeof b);
        double *cell = &g->values[axis_index(&g->rows, a) * g->cols.n +
                                  axis_index(&g->cols, b)];
        if (!isnan(*cell))
            return false;
        *cell = res->gbps;
    }
    return true;
}

void gp_heat_grids_free(gp_heat_grids *h)
{
    for (size_t i = 0; h->grids && i < h->n; i++)
        free(h->grids[i].values);
    free(h->grids);
    gp_sweeps_free(&h->sweeps);
    memset(h, 0, sizeof *h);
}

/* Every two-parameter sweep's grid. */
static int find_grids(const gp_report *r, gp_heat_grids *h)
{
    const gp_sweeps *s = &h->sweeps;
    h->grids = calloc(s->n_sweeps + 1, sizeof *h->grids);
    if (!h->grids)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < s->n_sweeps; i++) {
        gp_heat_grid *g = &h->grids[h->n];
        g->sweep = &s->sweeps[i];
        if (!two_param_sweep(r, g->sweep, g))
            continue;
        g->values = malloc(g->rows.n * g->cols.n * sizeof *g->values);
        if (!g->values)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        if (grid_values(r, g))
            h->n++;
        else
            free(g->values);
    }
    return GP_OK;
}

int gp_heat_grids_find(const gp_report *r, gp_heat_grids *out)
{
    memset(out, 0, sizeof *out);
    GP_TRY(gp_sweeps_find(r, &out->sweeps));
    const int rc = find_grids(r, out);
    if (rc)
        gp_heat_grids_free(out);
    return rc;
}
