/* The HTML page of gpuprof compare (render/html_page.h has what the pages share): before/after
 * bars of the median time with the changes marked and the repeats' spread as whiskers, the
 * matched results' table, the results only one report has. A launch shape that was not
 * captured (a library call's, block -) is left out of the labels. */
#include "render/html.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/html_page.h"
#include "render/part.h"
#include "render/svg.h"

#include <stdlib.h>
#include <string.h>

/* ---- compare: before and after ------------------------------------------------------------- */

static void compare_side(FILE *out, const char *term, const char *file, const gp_report *r)
{
    char text[GP_TEXT_LEN + GP_NAME_LEN + 128];
    char dev[GP_NAME_LEN + 96] = "no GPU recorded";
    if (r->is_exec && r->exec.n_devices)
        gp_device_describe(dev, sizeof dev, &r->exec.devices[0]);
    else if (r->has_device)
        gp_device_describe(dev, sizeof dev, &r->device);
    snprintf(text, sizeof text, "%s: gpuprof %s %s on %s", file, r->tool_version, r->command,
             dev);
    gp_html_dd_text(out, term, text);
}

static void compare_summary(FILE *out, const gp_comparison *c)
{
    fputs("<section class=\"glance\">\n", out);
    if (c->n_slower)
        fprintf(out, "<p class=\"regression\">\xe2\x96\xb2 REGRESSION: %zu result%s "
                     "significantly slower.</p>\n", c->n_slower, c->n_slower == 1 ? "" : "s");
    fprintf(out, "<p>%zu matched: <b>%zu slower</b>, <b>%zu faster</b>, %zu within the "
                 "bound; %zu only in base, %zu only in new.</p>\n",
            c->n_same + c->n_faster + c->n_slower, c->n_slower, c->n_faster, c->n_same,
            c->n_only_base, c->n_only_new);
    fputs("</section>\n", out);
}

static void compare_header(FILE *out, const gp_comparison *c)
{
    fputs("<header>\n<h1>gpuprof compare</h1>\n<dl class=\"meta\">\n", out);
    gp_html_dd_text(out, "gpuprof", GPUPROF_VERSION);
    compare_side(out, "base", c->base_file, c->base);
    compare_side(out, "new", c->next_file, c->next);
    char text[GP_TEXT_LEN];
    snprintf(text, sizeof text, "a change of the median time is significant beyond %g %% and "
             "beyond both runs' noise (the bound column)", c->threshold_pct);
    gp_html_dd_text(out, "threshold", text);
    fputs("</dl>\n", out);
    if (!c->same_device)
        fputs("<ul class=\"warnings\"><li>different GPUs: the changes compare the GPUs as much "
              "as the code.</li></ul>\n", out);
    fputs("</header>\n", out);
    compare_summary(out, c);
}

static bool matched(const gp_compare_row *row)
{
    return row->base.present && row->next.present;
}

static size_t n_matched(const gp_comparison *c)
{
    return c->n_same + c->n_faster + c->n_slower;
}

/* The colour says it, and so do a class, an arrow and a word, for readers who cannot tell
 * the colours apart and for tests. */
static void verdict_marker(char *buf, size_t len, const gp_compare_row *row)
{
    if (row->verdict == GP_CHANGE_SLOWER)
        snprintf(buf, len, "\xe2\x96\xb2 slower %+.1f %%", row->change_pct);
    else if (row->verdict == GP_CHANGE_FASTER)
        snprintf(buf, len, "\xe2\x96\xbc faster %+.1f %%", row->change_pct);
    else
        snprintf(buf, len, "%+.1f %% (within \xc2\xb1%.1f %%)", row->change_pct,
                 row->bound_pct);
}

typedef struct {
    gp_svg_row *rows;
    char (*labels)[GP_COMPARE_LABEL_LEN];
    char (*fulls)[GP_COMPARE_LABEL_LEN];
    char (*markers)[GP_SVG_VALUE_LEN];
    size_t n;
} compare_rows;

static void compare_rows_free(compare_rows *cr)
{
    free(cr->rows);
    free(cr->labels);
    free(cr->fulls);
    free(cr->markers);
}

static void fill_compare_row(const gp_compare_common *ck, const gp_compare_row *row,
                             gp_svg_row *out, char *label, char *full, char *marker)
{
    gp_compare_chart_label(ck, row, label, GP_COMPARE_LABEL_LEN);
    gp_compare_full_label(row, full, GP_COMPARE_LABEL_LEN);
    verdict_marker(marker, GP_SVG_VALUE_LEN, row);
    out->label = label;
    out->full = full;
    out->marker = marker;
    out->row_class = gp_compare_part.html_row_class(row, NULL);
    const gp_compare_side *sides[2] = {&row->base, &row->next};
    for (size_t s = 0; s < 2; s++) {
        out->values[s] = sides[s]->time_ms;
        gp_html_fmt_num(out->value_text[s], GP_SVG_VALUE_LEN, "%.4f ms", sides[s]->time_ms);
        out->lo[s] = sides[s]->min_ms;
        out->hi[s] = sides[s]->max_ms;
        snprintf(out->whisker_text[s], GP_SVG_VALUE_LEN, "%s from %.4f to %.4f ms",
                 s ? "new" : "base", sides[s]->min_ms, sides[s]->max_ms);
    }
}

static int compare_rows_make(const gp_comparison *c, compare_rows *cr)
{
    const size_t n = n_matched(c) + 1;
    cr->rows = calloc(n, sizeof *cr->rows);
    cr->labels = calloc(n, sizeof *cr->labels);
    cr->fulls = calloc(n, sizeof *cr->fulls);
    cr->markers = calloc(n, sizeof *cr->markers);
    cr->n = 0;
    if (!cr->rows || !cr->labels || !cr->fulls || !cr->markers) {
        compare_rows_free(cr);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    gp_compare_common ck;
    gp_compare_common_keys(c, &ck);
    for (size_t i = 0; i < c->n_rows; i++)
        if (matched(&c->rows[i]) && cr->n + 1 < n) {
            fill_compare_row(&ck, &c->rows[i], &cr->rows[cr->n], cr->labels[cr->n],
                             cr->fulls[cr->n], cr->markers[cr->n]);
            cr->n++;
        }
    return GP_OK;
}

static void common_caption(FILE *out, const gp_comparison *c)
{
    gp_compare_common ck;
    gp_compare_common_keys(c, &ck);
    char words[GP_COMPARE_LABEL_LEN];
    gp_compare_common_label(&ck, words, sizeof words);
    if (!words[0])
        return;
    fputs(" Every bar is of ", out);
    gp_html_escape(out, words);
    fputc('.', out);
}

static int compare_chart(FILE *out, const gp_comparison *c)
{
    fputs("<h2>Median time, before and after</h2>\n", out);
    if (!n_matched(c)) {
        fputs("<p class=\"note\">No result is in both reports.</p>\n", out);
        return GP_OK;
    }
    compare_rows cr;
    GP_TRY(compare_rows_make(c, &cr));
    char base[GP_TEXT_LEN], next[GP_TEXT_LEN];
    snprintf(base, sizeof base, "base: %s", c->base_file);
    snprintf(next, sizeof next, "new: %s", c->next_file);
    const gp_svg_bars chart = {.title = "Median time of each result, base and new",
                               .axis_title = "median time, ms (shorter is faster)",
                               .series = {base, next}, .n_series = 2, .rows = cr.rows,
                               .n_rows = cr.n};
    gp_html_figure_start(out, "compare");
    gp_svg_bar_chart(out, &chart);
    fputs("<figcaption>Each result's median time in the base report (upper bar) and the new "
          "one (lower bar), the whisker from its fastest to its slowest repeat (of an exec "
          "kernel, launch): <span class=\"key slower\">\xe2\x96\xb2 significantly "
          "slower</span>, <span class=\"key faster\">\xe2\x96\xbc significantly "
          "faster</span>, <span class=\"key same\">within the bound</span>.", out);
    common_caption(out, c);
    fputs("</figcaption>\n</figure>\n", out);
    compare_rows_free(&cr);
    return GP_OK;
}

/* The metrics that changed by more than the threshold, as the text output lists them. */
static void changed_metrics(FILE *out, const gp_compare_row *row, double threshold_pct)
{
    fputs("<td>", out);
    for (size_t m = 0; m < row->base.n_metrics; m++) {
        const gp_metric_value *v = &row->base.metrics[m];
        double b, n;
        if (!gp_compare_metric_changed(row, v->key, threshold_pct, &b, &n))
            continue;
        gp_html_escape(out, v->key);
        fprintf(out, " %.4g\xe2\x86\x92%.4g ", b, n);
        gp_html_escape(out, v->unit);
        fputs("<br>", out);
    }
    fputs("</td>", out);
}

/* A row's label, wrapped anywhere: a kernel's name may have no space to wrap at. */
static void label_cell(FILE *out, const char *label)
{
    fputs("<td class=\"wrap\">", out);
    gp_html_escape(out, label);
    fputs("</td>", out);
}

static void compare_row(FILE *out, const gp_compare_row *row, double threshold_pct)
{
    char label[GP_COMPARE_LABEL_LEN];
    gp_compare_full_label(row, label, sizeof label);
    gp_part_html_tr(out, &gp_compare_part, row, NULL);
    label_cell(out, label);
    changed_metrics(out, row, threshold_pct);
    fputs("</tr>\n", out);
}

static void compare_table(FILE *out, const gp_comparison *c)
{
    static const char *const words[] = {"result", "metrics changed"};
    fputs("<div class=\"table-wrap\"><table class=\"compare\"><tr>", out);
    gp_part_html_headings(out, &gp_compare_part, c);
    gp_html_th_list(out, words, 2, 2);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < c->n_rows; i++)
        if (matched(&c->rows[i]))
            compare_row(out, &c->rows[i], c->threshold_pct);
    fputs("</table></div>\n", out);
}

/* The rows one report has and the other lacks. */
static void unmatched_table(FILE *out, const gp_comparison *c, gp_change which,
                            const char *file)
{
    const char *id = which == GP_CHANGE_ONLY_BASE ? "only-base" : "only-new";
    fprintf(out, "<h3>Only in %s (", which == GP_CHANGE_ONLY_BASE ? "BASE" : "NEW");
    gp_html_escape(out, file);
    fprintf(out, ")</h3>\n<table class=\"unmatched %s\" id=\"%s\"><tr><th>result</th>"
                 "<th class=\"num\">ms</th><th class=\"num\">GB/s</th></tr>\n", id, id);
    for (size_t i = 0; i < c->n_rows; i++) {
        const gp_compare_row *row = &c->rows[i];
        if (row->verdict != which)
            continue;
        const gp_compare_side *s = which == GP_CHANGE_ONLY_BASE ? &row->base : &row->next;
        char label[GP_COMPARE_LABEL_LEN];
        gp_compare_full_label(row, label, sizeof label);
        fputs("<tr>", out);
        label_cell(out, label);
        gp_html_td_num(out, "%.4f", s->time_ms);
        gp_html_td_num(out, "%.1f", s->gbps);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static int compare_page(FILE *out, const void *ctx)
{
    const gp_comparison *c = ctx;
    compare_header(out, c);
    GP_TRY(compare_chart(out, c));
    fputs("<h2>Matched results</h2>\n", out);
    compare_table(out, c);
    if (c->n_only_base || c->n_only_new)
        fputs("<h2>Unmatched results</h2>\n", out);
    if (c->n_only_base)
        unmatched_table(out, c, GP_CHANGE_ONLY_BASE, c->base_file);
    if (c->n_only_new)
        unmatched_table(out, c, GP_CHANGE_ONLY_NEW, c->next_file);
    return GP_OK;
}

int gp_html_compare(FILE *out, const gp_comparison *c, const gp_render_options *o)
{
    (void)o;
    char title[GP_TEXT_LEN * 2];
    snprintf(title, sizeof title, "gpuprof compare %s %s", c->base_file, c->next_file);
    return gp_html_page(out, title, compare_page, c);
}
