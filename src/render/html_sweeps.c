/* The parameter sweeps of a kernel command's HTML page (render/html_kernel.c): for the
 * results of each variant that differ in one parameter only (gpuprof/group.h), a line chart
 * of GB/s against it, a line per variant and a chart per family and parameter, with the
 * chart's numbers in a table under it. */
#include "render/html_sweeps.h"

#include "gpuprof/group.h"
#include "gpuprof/status.h"
#include "render/html_page.h"

#include <stdlib.h>
#include <string.h>

/* How a swept parameter is drawn: its axis, and whether its values go in powers of two. */
typedef struct {
    const char *axis;
    bool log2;
} sweep_axis;

static const sweep_axis sweep_axes[GP_SWEEP_PARAMS] = {
    [GP_SWEEP_BLOCK] = {"block size, threads", true},
    [GP_SWEEP_N] = {"problem size, elements", true},
    [GP_SWEEP_PAD] = {"pad, 4-byte words per tile row", false},
    [GP_SWEEP_GROUP] = {"group, tile side", true},
    [GP_SWEEP_GRID] = {"grid, blocks", true},
};

static const gp_result *sweep_result(const gp_report *r, const gp_sweep *s, size_t i)
{
    return &r->results[s->results[i]];
}

static bool types_differ(const gp_report *r)
{
    for (size_t i = 1; i < r->n_results; i++)
        if (strcmp(r->results[i].type, r->results[0].type) != 0)
            return true;
    return false;
}

static void series_name(const gp_report *r, const gp_sweep *l, char *buf, size_t len)
{
    const gp_result *res = sweep_result(r, l, 0);
    snprintf(buf, len, "%s", res->variant);
    if (types_differ(r))
        gp_html_appendf(buf, len, " %s", res->type);
    if (gp_report_sources_differ(r))
        gp_html_appendf(buf, len, " [%zu]", res->input + 1);
}

/* Sweeps drawn in one chart: of one family, over one parameter. */
static bool same_chart(const gp_report *r, const gp_sweep *a, const gp_sweep *b)
{
    return a->param == b->param &&
           strcmp(sweep_result(r, a, 0)->family, sweep_result(r, b, 0)->family) == 0;
}

/* Whether sweeps[i] opens a chart: it sweeps a parameter, and no sweep before it is of its
 * chart. */
static bool opens_chart(const gp_report *r, const gp_sweeps *s, size_t i)
{
    if (s->sweeps[i].param == GP_SWEEP_NONE)
        return false;
    for (size_t k = 0; k < i; k++)
        if (same_chart(r, &s->sweeps[k], &s->sweeps[i]))
            return false;
    return true;
}

/* The lines of the chart that sweeps[first] opens: it and the sweeps after it of its chart. */
static size_t chart_lines(const gp_report *r, const gp_sweeps *s, size_t first,
                          const gp_sweep **out)
{
    size_t n = 0;
    for (size_t i = first; i < s->n_sweeps; i++)
        if (same_chart(r, &s->sweeps[first], &s->sweeps[i]))
            out[n++] = &s->sweeps[i];
    return n;
}

/* One value per row of the table: the swept values, in order, each once. */
static size_t distinct_x(const gp_svg_series *series, size_t n, double *xs)
{
    size_t m = 0;
    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < series[s].n; i++) {
            size_t k = 0;
            while (k < m && xs[k] != series[s].x[i])
                k++;
            if (k == m)
                xs[m++] = series[s].x[i];
        }
    for (size_t i = 1; i < m; i++)
        for (size_t k = i; k > 0 && xs[k] < xs[k - 1]; k--) {
            const double t = xs[k];
            xs[k] = xs[k - 1];
            xs[k - 1] = t;
        }
    return m;
}

static void sweep_cell(FILE *out, const gp_svg_series *s, double x)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->x[i] == x) {
            gp_html_td_num(out, "%.1f", s->y[i]);
            return;
        }
    fputs("<td class=\"num\">-</td>", out);
}

/* Under the chart: a row per value of the parameter, a column per line, GB/s in the cells. */
static void sweep_table(FILE *out, gp_sweep_param p, const gp_svg_series *series, size_t n,
                        double *xs)
{
    const size_t m = distinct_x(series, n, xs);
    const char *name = gp_sweep_param_name(p);
    fputs("<table class=\"sweep\"><tr>", out);
    gp_html_th_list(out, &name, 1, 1);
    for (size_t s = 0; s < n; s++) {
        fputs("<th class=\"num\">", out);
        gp_html_escape(out, series[s].name);
        fputs(", GB/s</th>", out);
    }
    fputs("</tr>\n", out);
    for (size_t i = 0; i < m; i++) {
        fprintf(out, "<tr><td class=\"num\">%.10g</td>", xs[i]);
        for (size_t s = 0; s < n; s++)
            sweep_cell(out, &series[s], xs[i]);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void fill_series(const gp_report *r, const gp_sweep *l, gp_svg_series *s,
                        double *x, double *y)
{
    series_name(r, l, s->name, sizeof s->name);
    s->x = x;
    s->y = y;
    s->n = l->n;
    for (size_t i = 0; i < l->n; i++) {
        x[i] = gp_sweep_value(sweep_result(r, l, i), l->param);
        y[i] = sweep_result(r, l, i)->gbps;
    }
}

static bool all_positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0))
            return false;
    return true;
}

static void draw_sweep(FILE *out, const gp_report *r, const gp_sweep *first,
                       const gp_svg_series *series, size_t n, double *xs, size_t n_points,
                       size_t id)
{
    const char *name = gp_sweep_param_name(first->param);
    const sweep_axis *axis = &sweep_axes[first->param];
    const gp_result *res = sweep_result(r, first, 0);
    char title[160];
    snprintf(title, sizeof title, "%s: GB/s against %s", res->family, name);
    gp_svg_refline lines[GP_HTML_MAX_REFLINES];
    const gp_device_info *d = gp_html_result_device(r, res);
    const bool log2_x = axis->log2 && all_positive(xs, n_points);
    const gp_svg_lines chart = {
        .title = title, .x_title = axis->axis, .y_title = "effective bandwidth, GB/s",
        .log2_x = log2_x, .series = series, .n_series = n, .lines = lines,
        .n_lines = d ? gp_html_device_reflines(d, "", lines, 0) : 0};
    fputs("<h3>", out);
    gp_html_escape(out, title);
    fprintf(out, "</h3>\n<figure class=\"chart chart-sweep\" id=\"chart-sweep-%zu\" "
                 "data-param=\"%s\">\n", id, name);
    gp_svg_line_chart(out, &chart);
    fprintf(out, "<figcaption>Effective bandwidth of each variant whose results differ only "
                 "in %s%s; a point per result, the line at the top the GPU's peak.</figcaption>"
                 "\n</figure>\n", name, log2_x ? " (x axis in powers of two)" : "");
    sweep_table(out, first->param, series, n, xs);
}

static int sweep_chart(FILE *out, const gp_report *r, const gp_sweeps *s, size_t first,
                       size_t id)
{
    const gp_sweep **lines = calloc(s->n_sweeps, sizeof *lines);
    gp_svg_series *series = calloc(s->n_sweeps, sizeof *series);
    double *xy = calloc(3 * r->n_results, sizeof *xy);
    if (!lines || !series || !xy) {
        free(lines), free(series), free(xy);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    const size_t n = chart_lines(r, s, first, lines);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        fill_series(r, lines[i], &series[i], xy + used, xy + r->n_results + used);
        used += lines[i]->n;
    }
    /* The third part of xy: the distinct x values, for the log test and the table. */
    double *xs = xy + 2 * r->n_results;
    memcpy(xs, xy, used * sizeof *xs);
    draw_sweep(out, r, lines[0], series, n, xs, used, id);
    free(lines), free(series), free(xy);
    return GP_OK;
}

int gp_html_sweeps(FILE *out, const gp_report *r)
{
    gp_sweeps s;
    GP_TRY(gp_sweeps_find(r, &s));
    int rc = GP_OK;
    size_t charts = 0;
    for (size_t i = 0; i < s.n_sweeps && !rc; i++) {
        if (!opens_chart(r, &s, i))
            continue;
        if (!charts)
            fputs("<h2>Parameter sweeps</h2>\n", out);
        rc = sweep_chart(out, r, &s, i, ++charts);
    }
    gp_sweeps_free(&s);
    return rc;
}
