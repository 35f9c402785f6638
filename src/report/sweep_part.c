/* The parameter sweeps as charts and tables (gpuprof/report_parts.h): the sweeps
 * (gpuprof/group.h) of one family over one parameter make a chart, a line per sweep; its
 * table, the sweep part, has a row per value of the parameter and a column per line, the
 * line's GB/s at that value. The page draws the charts and prints their tables
 * (render/html_sweeps.c). */
#include "gpuprof/report_parts.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the charts ------------------------------------------------------------------------- */

static const gp_result *result_of(const gp_report *r, const gp_sweep *s, size_t i)
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

/* "smem", with " float32" where the report's types differ and " [2]" where its files' GPUs
 * or versions do. */
static void line_name(const gp_report *r, const gp_sweep *s, char *buf, size_t len)
{
    const gp_result *res = result_of(r, s, 0);
    snprintf(buf, len, "%s", res->variant);
    size_t used = strlen(buf);
    if (types_differ(r) && used + 1 < len)
        snprintf(buf + used, len - used, " %s", res->type);
    used = strlen(buf);
    if (gp_report_sources_differ(r) && used + 1 < len)
        snprintf(buf + used, len - used, " [%zu]", res->input + 1);
}

/* Sweeps drawn in one chart: of one family, over one parameter. */
static bool same_chart(const gp_report *r, const gp_sweep *a, const gp_sweep *b)
{
    return a->param == b->param &&
           strcmp(result_of(r, a, 0)->family, result_of(r, b, 0)->family) == 0;
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

/* The line of sweep s: its values and GB/s at `numbers`; the numbers after them. */
static double *fill_line(const gp_report *r, const gp_sweep *s, gp_sweep_line *l,
                         double *numbers)
{
    line_name(r, s, l->name, sizeof l->name);
    l->x = numbers;
    l->y = numbers + s->n;
    l->n = s->n;
    for (size_t i = 0; i < s->n; i++) {
        l->x[i] = gp_sweep_value(result_of(r, s, i), s->param);
        l->y[i] = result_of(r, s, i)->gbps;
    }
    return l->y + s->n;
}

/* The values the chart's lines take, each once, in order, into xs; their number. */
static size_t distinct_values(const gp_sweep_chart *c, double *xs)
{
    size_t m = 0;
    for (size_t s = 0; s < c->n_lines; s++)
        for (size_t i = 0; i < c->lines[s].n; i++) {
            size_t k = 0;
            while (k < m && xs[k] != c->lines[s].x[i])
                k++;
            if (k == m)
                xs[m++] = c->lines[s].x[i];
        }
    for (size_t i = 1; i < m; i++)
        for (size_t k = i; k > 0 && xs[k] < xs[k - 1]; k--) {
            const double t = xs[k];
            xs[k] = xs[k - 1];
            xs[k - 1] = t;
        }
    return m;
}

/* The chart that sweeps[first] opens: it and the sweeps after it of its chart, their lines
 * at `lines`, their numbers at `numbers`; the numbers after them. */
static double *add_chart(const gp_report *r, const gp_sweeps *s, size_t first,
                         gp_sweep_chart *c, gp_sweep_line *lines, double *numbers)
{
    *c = (gp_sweep_chart){.param = s->sweeps[first].param,
                          .first = result_of(r, &s->sweeps[first], 0), .lines = lines};
    for (size_t i = first; i < s->n_sweeps; i++)
        if (same_chart(r, &s->sweeps[first], &s->sweeps[i]))
            numbers = fill_line(r, &s->sweeps[i], &lines[c->n_lines++], numbers);
    c->values = numbers;
    c->n_values = distinct_values(c, numbers);
    return numbers + c->n_values;
}

void gp_sweep_charts_free(gp_sweep_charts *c)
{
    free(c->charts);
    free(c->lines);
    free(c->numbers);
    *c = (gp_sweep_charts){0};
}

int gp_sweep_charts_find(const gp_report *r, gp_sweep_charts *out)
{
    gp_sweeps s;
    *out = (gp_sweep_charts){0};
    GP_TRY(gp_sweeps_find(r, &s));
    /* each result in one line at most: its value and GB/s, and a value of its chart's */
    out->charts = calloc(s.n_sweeps + 1, sizeof *out->charts);
    out->lines = calloc(s.n_sweeps + 1, sizeof *out->lines);
    out->numbers = calloc(3 * r->n_results + 1, sizeof *out->numbers);
    const int rc = out->charts && out->lines && out->numbers
                       ? GP_OK
                       : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    double *numbers = out->numbers;
    for (size_t i = 0, lines = 0; rc == GP_OK && i < s.n_sweeps; i++)
        if (opens_chart(r, &s, i)) {
            gp_sweep_chart *c = &out->charts[out->n++];
            numbers = add_chart(r, &s, i, c, out->lines + lines, numbers);
            lines += c->n_lines;
        }
    gp_sweeps_free(&s);
    if (rc != GP_OK)
        gp_sweep_charts_free(out);
    return rc;
}

/* ---- a chart's table -------------------------------------------------------------------- */

/* The parameter's value, as the page writes parameters. */
GP_PART_TEXT_GETTER(get_value, double, void, (snprintf(buf, len, "%.10g", *r), buf))

/* A line's GB/s at the row's value (its first result there); unknown where it has none. */
static gp_cell get_line(const void *row, const void *ctx, size_t at, char *buf, size_t len)
{
    (void)buf, (void)len;
    const gp_sweep_line *l = &((const gp_sweep_chart *)ctx)->lines[at];
    for (size_t i = 0; i < l->n; i++)
        if (l->x[i] == *(const double *)row)
            return GP_CELL_NUMBER(l->y[i]);
    return GP_CELL_NUMBER(NAN);
}

enum { VALUE, LINE };

static const gp_part_column columns[] = {
    [VALUE] = {.key = "value", .in = GP_IN_HTML, .get = get_value, .html_class = "num",
               .html_word_heading = true, .legend = "the swept parameter's value"},
    [LINE] = {.key = "gbps", .unit = "GB/s", .format = GP_NUMBER_FIXED1, .in = GP_IN_HTML,
              .get_at = get_line, .legend = "a line's effective bandwidth at the value"},
};

const gp_part gp_sweep_part = GP_PART_DECLARE("sweep", columns, 1, double, -1);

void gp_sweep_table_of(gp_sweep_table *t, const gp_sweep_chart *c, size_t first)
{
    const size_t left = first < c->n_lines ? c->n_lines - first : 0;
    const size_t n = left < GP_SWEEP_TABLE_LINES ? left : GP_SWEEP_TABLE_LINES;
    t->columns[0] = columns[VALUE];
    t->columns[0].html = gp_sweep_param_name(c->param);
    for (size_t i = 0; i < n; i++) {
        snprintf(t->headings[i], sizeof t->headings[i], "%s, GB/s", c->lines[first + i].name);
        t->columns[i + 1] = columns[LINE];
        t->columns[i + 1].html = t->headings[i];
        t->columns[i + 1].at = first + i;
    }
    t->part = gp_sweep_part;
    t->part.columns = t->columns;
    t->part.n_columns = n + 1;
}
