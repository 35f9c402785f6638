/* The two-parameter sweeps of a kernel command's HTML page (render/html_heatmaps.h). A sweep
 * (gpuprof/group.h: one variant's results) that varies in one parameter gets a line chart
 * (html_sweeps.c); one that varies in exactly two, each pair of values once, gets a heatmap
 * here: rows the first parameter's values, columns the second's, GB/s in the cells. The
 * parameters are the block's shape (32x8 and 16x16 are different blocks of 256 threads), the
 * problem size and the family's parameters, in that order. */
#include "render/html_heatmaps.h"

#include "gpuprof/group.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/html_page.h"
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DIM_MAX (GP_RESULT_MAX_PARAMS + 2)
#define VALUE_LEN 32
#define MAX_VALUES 64                /* of one parameter in a heatmap */

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

/* A heatmap's axis: one parameter's distinct values over the sweep. */
typedef struct {
    const char *name;
    char values[MAX_VALUES][VALUE_LEN];
    size_t n;
    size_t missing;                  /* results it does not apply to (NAN, no block) */
    bool overflow;                   /* more than MAX_VALUES */
} heat_axis;

static size_t axis_index(const heat_axis *a, const char *v)
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
static void axis_fill(heat_axis *a, const gp_report *r, const gp_sweep *s)
{
    a->n = a->missing = 0;
    a->overflow = false;
    for (size_t i = 0; i < s->n && !a->overflow; i++) {
        char v[VALUE_LEN];
        if (!dim_value(&r->results[s->results[i]], a->name, v, sizeof v))
            a->missing++;
        else if (axis_index(a, v) == a->n && a->n == MAX_VALUES)
            a->overflow = true;
        else if (axis_index(a, v) == a->n)
            snprintf(a->values[a->n++], VALUE_LEN, "%s", v);
    }
    if (strcmp(a->name, "block") != 0)
        qsort(a->values, a->n, VALUE_LEN, by_number);
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

/* A sweep's heatmap: its two axes and each result's cell. */
typedef struct {
    const gp_sweep *sweep;
    heat_axis rows, cols;
    double *values;                  /* rows.n × cols.n, NAN where no result */
} heat_grid;

/* Whether the sweep varies in exactly two parameters, each pair of values once: then `g`
 * holds its axes (values left to grid_values). */
static bool two_param_sweep(const gp_report *r, const gp_sweep *s, heat_grid *g)
{
    if (s->param != GP_SWEEP_NONE || s->n < 2)
        return false;
    const char *dims[DIM_MAX];
    const size_t nd = dims_of(&r->results[s->results[0]], dims);
    size_t found = 0;
    heat_axis a;
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
static bool grid_values(const gp_report *r, heat_grid *g)
{
    const size_t cells = g->rows.n * g->cols.n;
    for (size_t i = 0; i < cells; i++)
        g->values[i] = NAN;
    for (size_t i = 0; i < g->sweep->n; i++) {
        const gp_result *res = &r->results[g->sweep->results[i]];
        char a[VALUE_LEN], b[VALUE_LEN];
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

/* ---- the page's part: a figure per family and pair of parameters ------------------------ */

static const gp_result *first_result(const gp_report *r, const heat_grid *g)
{
    return &r->results[g->sweep->results[0]];
}

static bool same_figure(const gp_report *r, const heat_grid *a, const heat_grid *b)
{
    return strcmp(first_result(r, a)->family, first_result(r, b)->family) == 0 &&
           strcmp(a->rows.name, b->rows.name) == 0 && strcmp(a->cols.name, b->cols.name) == 0;
}

/* "smem: from 1479 GB/s (block 32x16, pad 0) to 1796 GB/s (block 32x8, pad 2)". */
static void describe(const heat_grid *g, const char *variant, char *buf, size_t len)
{
    size_t lo = SIZE_MAX, hi = SIZE_MAX;
    for (size_t i = 0; i < g->rows.n * g->cols.n; i++) {
        if (isnan(g->values[i]))
            continue;
        lo = lo == SIZE_MAX || g->values[i] < g->values[lo] ? i : lo;
        hi = hi == SIZE_MAX || g->values[i] > g->values[hi] ? i : hi;
    }
    if (lo == SIZE_MAX) {
        snprintf(buf, len, "%s: no values", variant);
        return;
    }
    snprintf(buf, len, "%s, GB/s by %s (rows) and %s (columns): the least %.1f at %s %s, %s %s; "
             "the most %.1f at %s %s, %s %s", variant, g->rows.name, g->cols.name,
             g->values[lo], g->rows.name, g->rows.values[lo / g->cols.n], g->cols.name,
             g->cols.values[lo % g->cols.n], g->values[hi], g->rows.name,
             g->rows.values[hi / g->cols.n], g->cols.name, g->cols.values[hi % g->cols.n]);
}

static void one_heatmap(FILE *out, const gp_report *r, const heat_grid *g, double lo,
                        double hi)
{
    const char *rows[MAX_VALUES], *cols[MAX_VALUES];
    for (size_t i = 0; i < g->rows.n; i++)
        rows[i] = g->rows.values[i];
    for (size_t i = 0; i < g->cols.n; i++)
        cols[i] = g->cols.values[i];
    const gp_result *res = first_result(r, g);
    char title[160], desc[512];
    snprintf(title, sizeof title, "%s %s: GB/s by %s and %s", res->family, res->variant,
             g->rows.name, g->cols.name);
    describe(g, res->variant, desc, sizeof desc);
    const gp_svg_heatmap h = {.title = title, .desc = desc, .row_title = g->rows.name,
                              .col_title = g->cols.name, .rows = rows, .cols = cols,
                              .n_rows = g->rows.n, .n_cols = g->cols.n, .values = g->values,
                              .unit = "GB/s", .lo = lo, .hi = hi};
    fputs("<div class=\"multiple\"><div class=\"multiple-title\">", out);
    gp_html_escape(out, res->variant);
    if (gp_report_sources_differ(r))
        fprintf(out, " [%zu]", res->input + 1);
    fputs("</div>\n", out);
    gp_svg_heatmap_chart(out, &h);
    fputs("</div>\n", out);
}

/* The figure of grids[first] and the grids after it of its family and parameters. */
static void heat_figure(FILE *out, const gp_report *r, const heat_grid *grids, size_t n,
                        size_t first, bool *drawn, size_t id)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = first; k < n; k++)
        for (size_t i = 0; same_figure(r, &grids[first], &grids[k]) &&
                           i < grids[k].rows.n * grids[k].cols.n; i++)
            if (!isnan(grids[k].values[i])) {
                lo = fmin(lo, grids[k].values[i]);
                hi = fmax(hi, grids[k].values[i]);
            }
    const heat_grid *g = &grids[first];
    fprintf(out, "<h3>");
    gp_html_escape(out, first_result(r, g)->family);
    fprintf(out, ": GB/s by %s and %s</h3>\n<figure class=\"chart chart-heatmap\" "
                 "id=\"chart-heatmap-%zu\" data-rows=\"%s\" data-cols=\"%s\">\n"
                 "<div class=\"multiples\">\n", g->rows.name, g->cols.name, id, g->rows.name,
            g->cols.name);
    for (size_t k = first; k < n; k++)
        if (same_figure(r, g, &grids[k])) {
            one_heatmap(out, r, &grids[k], lo, hi);
            drawn[k] = true;
        }
    fprintf(out, "</div>\n<figcaption>Effective bandwidth of each variant whose results differ "
                 "in %s and %s: a cell per result, its GB/s written in it and its colour on "
                 "one scale for the variants side by side, from %.0f GB/s (dark) to %.0f GB/s "
                 "(light); hover over a cell for its exact value. Empty cells were not run."
                 "</figcaption>\n</figure>\n", g->rows.name, g->cols.name, lo, hi);
}

static void grids_free(heat_grid *grids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(grids[i].values);
    free(grids);
}

/* Every two-parameter sweep's grid; their count in *n. */
static int find_grids(const gp_report *r, const gp_sweeps *s, heat_grid **out, size_t *n)
{
    heat_grid *grids = calloc(s->n_sweeps + 1, sizeof *grids);
    if (!grids)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    *n = 0;
    for (size_t i = 0; i < s->n_sweeps; i++) {
        heat_grid *g = &grids[*n];
        g->sweep = &s->sweeps[i];
        if (!two_param_sweep(r, g->sweep, g))
            continue;
        g->values = malloc(g->rows.n * g->cols.n * sizeof *g->values);
        if (!g->values) {
            grids_free(grids, *n);
            return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
        }
        if (grid_values(r, g))
            (*n)++;
        else
            free(g->values);
    }
    *out = grids;
    return GP_OK;
}

int gp_html_heatmaps(FILE *out, const gp_report *r)
{
    gp_sweeps s;
    GP_TRY(gp_sweeps_find(r, &s));
    heat_grid *grids = NULL;
    size_t n = 0;
    const int rc = find_grids(r, &s, &grids, &n);
    if (rc) {
        gp_sweeps_free(&s);
        return rc;
    }
    bool *drawn = calloc(n + 1, sizeof *drawn);
    if (!drawn) {
        grids_free(grids, n);
        gp_sweeps_free(&s);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    if (n)
        fputs("<h2>Two-parameter sweeps</h2>\n", out);
    for (size_t i = 0, id = 0; i < n; i++)
        if (!drawn[i])
            heat_figure(out, r, grids, n, i, drawn, ++id);
    free(drawn);
    grids_free(grids, n);
    gp_sweeps_free(&s);
    return GP_OK;
}
