/* The two-parameter sweeps of a kernel command's HTML page (render/html_heatmaps.h). A sweep
 * (gpuprof/group.h: one variant's results) that varies in one parameter gets a line chart
 * (html_sweeps.c); one that varies in exactly two, each pair of values once, gets a heatmap
 * here, of its grid (report/sweep_grids.c): rows the first parameter's values, columns the
 * second's, GB/s in the cells. */
#include "render/html_heatmaps.h"

#include "gpuprof/group.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the page's part: a figure per family and pair of parameters ------------------------ */

static const gp_result *first_result(const gp_report *r, const gp_heat_grid *g)
{
    return &r->results[g->sweep->results[0]];
}

static bool same_figure(const gp_report *r, const gp_heat_grid *a, const gp_heat_grid *b)
{
    return strcmp(first_result(r, a)->family, first_result(r, b)->family) == 0 &&
           strcmp(a->rows.name, b->rows.name) == 0 && strcmp(a->cols.name, b->cols.name) == 0;
}

/* "smem: from 1479 GB/s (block 32x16, pad 0) to 1796 GB/s (block 32x8, pad 2)". */
static void describe(const gp_heat_grid *g, const char *variant, char *buf, size_t len)
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

static void one_heatmap(FILE *out, const gp_report *r, const gp_heat_grid *g, double lo,
                        double hi)
{
    const char *rows[GP_HEAT_MAX_VALUES], *cols[GP_HEAT_MAX_VALUES];
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
static void heat_figure(FILE *out, const gp_report *r, const gp_heat_grid *grids, size_t n,
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
    const gp_heat_grid *g = &grids[first];
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

int gp_html_heatmaps(FILE *out, const gp_report *r)
{
    gp_heat_grids h;
    GP_TRY(gp_heat_grids_find(r, &h));
    bool *drawn = calloc(h.n + 1, sizeof *drawn);
    if (!drawn) {
        gp_heat_grids_free(&h);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    if (h.n)
        fputs("<h2>Two-parameter sweeps</h2>\n", out);
    for (size_t i = 0, id = 0; i < h.n; i++)
        if (!drawn[i])
            heat_figure(out, r, h.grids, h.n, i, drawn, ++id);
    free(drawn);
    gp_heat_grids_free(&h);
    return GP_OK;
}
