/* compare in text (render/text.h): both reports described, a row per compared result with
 * its verdict, change, bound, both times and both bandwidths, the metrics that changed under
 * it, and the counts of each verdict; REGRESSION when anything got slower. */
#include "render/text.h"

#include "gpuprof/compare.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text_layout.h"

#include <math.h>
#include <stdio.h>

/* ---- compare: a row per result, changed metrics under it ------------------------------- */

static void describe_side(char *buf, size_t len, const char *file, const gp_report *r)
{
    if (r->has_device)
        snprintf(buf, len, "%s: gpuprof %s %s on %s", file, r->tool_version, r->command,
                 r->device.name);
    else
        snprintf(buf, len, "%s: gpuprof %s %s", file, r->tool_version, r->command);
}

static void print_text_header(FILE *out, const gp_comparison *c, size_t width)
{
    char base[2 * GP_TEXT_LEN], next[2 * GP_TEXT_LEN], line[4 * GP_TEXT_LEN];
    describe_side(base, sizeof base, c->base_file, c->base);
    describe_side(next, sizeof next, c->next_file, c->next);
    fprintf(out, "gpuprof %s  compare\n", GPUPROF_VERSION);
    snprintf(line, sizeof line, "base: %s", base);
    gp_text_paragraph(out, line, width, 6);
    snprintf(line, sizeof line, "new:  %s", next);
    gp_text_paragraph(out, line, width, 6);
    if (!c->same_device)
        gp_text_paragraph(out, "different GPUs: the changes compare the GPUs as much as the "
                          "code", width, 2);
    snprintf(line, sizeof line, "a change is significant beyond %g %% and beyond both runs' "
             "noise (the bound column); metrics are shown where they changed by more than %g %%",
             c->threshold_pct, c->threshold_pct);
    gp_text_paragraph(out, line, width, 2);
    fputc('\n', out);
}

/* A compared metric's value, formatted as its unit deserves. */
static void add_metric_value(gp_text_table *t, const gp_metric_value *like, double v)
{
    gp_metric_value m = *like;
    m.valid = isfinite(v);
    m.value = v;
    char cell[48];
    gp_metric_value_text(cell, sizeof cell, &m);
    gp_table_cell(t, m.valid ? cell : "-");
}

static void add_compare_metrics(gp_text_table *t, const gp_compare_row *row,
                                double threshold_pct)
{
    if (!row->base.present || !row->next.present)
        return;
    for (size_t m = 0; m < row->base.n_metrics; m++) {
        const gp_metric_value *v = &row->base.metrics[m];
        double b, n;
        if (!gp_compare_metric_changed(row, v->key, threshold_pct, &b, &n))
            continue;
        gp_table_row(t);
        for (int k = 0; k < 3; k++)
            gp_table_cell(t, "");
        add_metric_value(t, v, b);
        add_metric_value(t, v, n);
        gp_table_cell(t, "");
        gp_table_cell(t, "");
        gp_table_cellf(t, "  %s (%s)", v->key, v->unit);
    }
}

static void add_compare_row(gp_text_table *t, const gp_comparison *c, const gp_compare_row *row)
{
    gp_part_text_row(t, &gp_compare_part, row, c);
    add_compare_metrics(t, row, c->threshold_pct);
}

int gp_text_compare(FILE *out, const gp_comparison *c, const gp_render_options *o)
{
    const size_t width = gp_text_width(o);
    print_text_header(out, c, width);
    gp_text_table t;
    gp_table_init(&t, 0);
    gp_part_text_columns(&t, &gp_compare_part, c);
    for (size_t i = 0; i < c->n_rows; i++)
        add_compare_row(&t, c, &c->rows[i]);
    const int rc = gp_table_print(out, &t, width);
    gp_table_free(&t);
    if (rc != GP_OK)
        return rc;
    char line[512];
    snprintf(line, sizeof line, "%zu matched: %zu slower, %zu faster, %zu within the bound; %zu "
             "only in base, %zu only in new", c->n_same + c->n_faster + c->n_slower,
             c->n_slower, c->n_faster, c->n_same, c->n_only_base, c->n_only_new);
    fputc('\n', out);
    gp_text_paragraph(out, line, width, 2);
    if (c->n_slower)
        fprintf(out, "REGRESSION: %zu result%s significantly slower\n", c->n_slower,
                c->n_slower == 1 ? "" : "s");
    return GP_OK;
}
