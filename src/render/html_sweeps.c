/* The parameter sweeps of a kernel command's HTML page (render/html_kernel.c): a line chart of
 * GB/s against each parameter a family's variants sweep, a line per variant
 * (report/sweep_part.c), with the chart's numbers in the sweep part's table under it. */
#include "render/html_sweeps.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "render/part.h"

#include <stdlib.h>

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

static bool all_positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0))
            return false;
    return true;
}

static void draw_sweep(FILE *out, const gp_report *r, const gp_sweep_chart *c,
                       const gp_svg_series *series, size_t id)
{
    const char *name = gp_sweep_param_name(c->param);
    const sweep_axis *axis = &sweep_axes[c->param];
    char title[160];
    snprintf(title, sizeof title, "%s: GB/s against %s", c->first->family, name);
    gp_svg_refline lines[GP_HTML_MAX_REFLINES];
    const gp_device_info *d = gp_html_result_device(r, c->first);
    const bool log2_x = axis->log2 && all_positive(c->values, c->n_values);
    const gp_svg_lines chart = {
        .title = title, .x_title = axis->axis, .y_title = "effective bandwidth, GB/s",
        .log2_x = log2_x, .series = series, .n_series = c->n_lines, .lines = lines,
        .n_lines = d ? gp_html_device_reflines(d, "", lines, 0) : 0};
    fputs("<h3>", out);
    gp_html_escape(out, title);
    fprintf(out, "</h3>\n<figure class=\"chart chart-sweep\" id=\"chart-sweep-%zu\" "
                 "data-param=\"%s\">\n", id, name);
    gp_svg_line_chart(out, &chart);
    fprintf(out, "<figcaption>Effective bandwidth of each variant whose results differ only "
                 "in %s%s; a point per result, the line at the top the GPU's peak.</figcaption>"
                 "\n</figure>\n", name, log2_x ? " (x axis in powers of two)" : "");
}

/* The chart, then its table (a table per GP_SWEEP_TABLE_LINES of its lines). */
static int sweep_chart(FILE *out, const gp_report *r, const gp_sweep_chart *c, size_t id)
{
    gp_svg_series *series = calloc(c->n_lines + 1, sizeof *series);
    gp_sweep_table *table = malloc(sizeof *table);
    if (!series || !table) {
        free(series), free(table);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    for (size_t i = 0; i < c->n_lines; i++) {
        const gp_sweep_line *l = &c->lines[i];
        series[i] = (gp_svg_series){.x = l->x, .y = l->y, .n = l->n};
        snprintf(series[i].name, sizeof series[i].name, "%s", l->name);
    }
    draw_sweep(out, r, c, series, id);
    for (size_t first = 0; first < c->n_lines; first += GP_SWEEP_TABLE_LINES) {
        gp_sweep_table_of(table, c, first);
        gp_part_html(out, &table->part, c->values, c->n_values, c, "sweep");
    }
    free(series), free(table);
    return GP_OK;
}

int gp_html_sweeps(FILE *out, const gp_report *r)
{
    gp_sweep_charts s;
    GP_TRY(gp_sweep_charts_find(r, &s));
    if (s.n)
        fputs("<h2>Parameter sweeps</h2>\n", out);
    int rc = GP_OK;
    for (size_t i = 0; i < s.n && rc == GP_OK; i++)
        rc = sweep_chart(out, r, &s.charts[i], i + 1);
    gp_sweep_charts_free(&s);
    return rc;
}
