/* The HTML page of a kernel command's report (render/html_page.h has what the pages share):
 * effective bandwidth per result against the GPU's peak and measured copy bandwidth, a line
 * chart per parameter swept (html_sweeps.c), a heatmap per pair of parameters swept together
 * (html_heatmaps.c), the efficiency and transactions-per-request
 * metrics side by side, the table of each problem. */
#include "render/html_source.h"
#include "render/html.h"

#include "gpuprof/group.h"
#include "gpuprof/registry.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/html_heatmaps.h"
#include "render/html_page.h"
#include "render/html_sweeps.h"
#include "render/part.h"
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_LEN 160                /* a result's label */

/* ---- the header ---------------------------------------------------------------------------- */

static void timing_line(FILE *out, const gp_report *r)
{
    char text[GP_TEXT_LEN * 2];
    snprintf(text, sizeof text, "median of %u runs after %u warm-up%s, L2 flushed before "
             "each; GB/s = minimum bytes moved / median time, 1 GB = 10^9 bytes; noise = "
             "1.4826 × median absolute deviation / median", r->repeat, r->warmup,
             r->warmup == 1 ? "" : "s");
    if (!isnan(r->max_noise_pct)) {
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "; repeated until at most %g %% where "
                 "possible", r->max_noise_pct);
    }
    gp_html_dd_text(out, "timing", text);
}

static void kernel_header(FILE *out, const gp_report *r)
{
    fputs("<header>\n<h1>gpuprof ", out);
    if (r->n_sources)
        fprintf(out, "report of %zu files", r->n_sources);
    else
        gp_html_escape(out, r->command);
    fputs("</h1>\n<dl class=\"meta\">\n", out);
    gp_html_dd_text(out, "gpuprof", r->tool_version);
    gp_html_code_line(out, "command", r->command_line, r->command_line_len, NULL, NULL);
    char dev[GP_NAME_LEN + 96] = "none recorded";
    if (r->has_device)
        gp_device_describe(dev, sizeof dev, &r->device);
    gp_html_dd_text(out, r->n_sources ? "device (first file)" : "device", dev);
    timing_line(out, r);
    gp_html_profiler_line(out, &r->profiler, "user replay, caches flushed");
    fputs("</dl>\n", out);
    if (r->n_sources) {
        if (gp_report_sources_differ(r))
            fputs("<p>The files come from different GPUs or gpuprof versions: each result "
                  "says which [file] it is from.</p>\n", out);
        gp_part_html(out, &gp_sources_part, r->sources, r->n_sources, r, "sources");
    }
    gp_html_warnings(out, r);
    fputs("</header>\n", out);
}

/* ---- a kernel report's results ------------------------------------------------------------- */

/* What the charts and tables of a kernel report share: each result's label and problem. */
typedef struct {
    const gp_report *r;
    bool label_sources;
    char (*labels)[LABEL_LEN];       /* per result: variant, the parameters that vary, [file] */
    gp_problem_span *problem;             /* per result: its problem */
    size_t n_problems;
    const char *keys[GP_TEXT_MAX_COLUMNS], *key_labels[GP_TEXT_MAX_COLUMNS];
    size_t n_keys;                   /* the table's metric columns */
} results_view;

/* "smem pad=1 block=32x16 [2]": what tells a result from the others of its problem. */
static void result_label(const results_view *v, size_t i, char *buf, size_t len)
{
    const gp_result *res = &v->r->results[i];
    snprintf(buf, len, "%s", res->variant);
    for (size_t p = 0; p < res->n_params; p++)
        if (!isnan(res->params[p].value) &&
            gp_problem_param_varies(&v->problem[i], res->params[p].name))
            gp_html_appendf(buf, len, " %s=%.10g", res->params[p].name, res->params[p].value);
    if (res->block.x && gp_problem_block_varies(&v->problem[i])) {
        char dim[32];
        gp_dim_text(dim, sizeof dim, res->block, res->nx != 0);
        gp_html_appendf(buf, len, " block=%s", dim);
    }
    if (v->label_sources)
        gp_html_appendf(buf, len, " [%zu]", res->input + 1);
}

static void view_free(results_view *v)
{
    free(v->labels);
    free(v->problem);
}

static int view_init(results_view *v, const gp_report *r)
{
    memset(v, 0, sizeof *v);
    v->r = r;
    v->label_sources = gp_report_sources_differ(r);
    const size_t n = r->n_results ? r->n_results : 1;
    v->labels = calloc(n, sizeof *v->labels);
    v->problem = calloc(n, sizeof *v->problem);
    if (!v->labels || !v->problem) {
        view_free(v);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    for (size_t first = 0; first < r->n_results; first = v->problem[first].end) {
        const gp_problem_span p = gp_problem_at(r, first);
        for (size_t i = p.first; i < p.end; i++)
            v->problem[i] = p;
        v->n_problems++;
    }
    for (size_t i = 0; i < r->n_results; i++)
        result_label(v, i, v->labels[i], LABEL_LEN);
    for (size_t i = 0; i < r->n_results && !v->n_keys; i++)
        if (r->results[i].metrics.n_metrics)
            v->n_keys = gp_text_metric_columns(&r->results[i].metrics,
                                               strcmp(r->profiler.metric_set, "list") == 0,
                                               v->keys, v->key_labels);
    return GP_OK;
}

static bool any_metrics(const gp_report *r)
{
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].metrics.n_metrics)
            return true;
    return false;
}

static void size_text(char *buf, size_t len, const gp_result *res)
{
    if (res->nx) {
        snprintf(buf, len, "%ux%u", res->nx, res->ny);
        return;
    }
    snprintf(buf, len, "n=%llu", (unsigned long long)res->n);
    for (int k = 10; k < 64; k++)
        if (res->n == (uint64_t)1 << k)
            gp_html_appendf(buf, len, " (2^%d)", k);
}

/* "reduce int32, n=16777216 (2^24), 67.1 MB moved at least, group 16". */
static void problem_title(const results_view *v, size_t first, char *buf, size_t len)
{
    char size[64];
    size_text(size, sizeof size, &v->r->results[first]);
    gp_problem_text(buf, len, &v->problem[first], size);
}

/* ---- at a glance: the best and worst of each problem ------------------------------------ */

/* The result of a problem with the most (sign > 0) or the least GB/s. */
static size_t extreme_of_problem(const results_view *v, size_t first, int sign)
{
    size_t pick = first;
    const size_t end = v->problem[first].end;
    for (size_t i = first; i < end; i++)
        if (sign * (v->r->results[i].gbps - v->r->results[pick].gbps) > 0)
            pick = i;
    return pick;
}

static void glance_problem(FILE *out, const results_view *v, size_t first)
{
    const size_t end = v->problem[first].end;
    const size_t best = extreme_of_problem(v, first, 1);
    const size_t worst = extreme_of_problem(v, first, -1);
    const gp_result *b = &v->r->results[best], *w = &v->r->results[worst];
    char title[LABEL_LEN * 2], pct[64] = "";
    problem_title(v, first, title, sizeof title);
    if (isfinite(b->percent_of_peak) && gp_html_result_device(v->r, b))
        snprintf(pct, sizeof pct, " (%.1f %% of peak)", b->percent_of_peak);
    fputs("<p><b>", out);
    gp_html_escape(out, title);
    fputs(":</b> fastest <b>", out);
    gp_html_escape(out, v->labels[best]);
    fprintf(out, "</b> at %.1f GB/s%s", b->gbps, pct);
    if (end - first > 1 && w->gbps > 0) {
        fprintf(out, ", %.1f× the slowest, ", b->gbps / w->gbps);
        gp_html_escape(out, v->labels[worst]);
        fprintf(out, " at %.1f GB/s", w->gbps);
    }
    fputs(".</p>\n", out);
}

static void glance(FILE *out, const results_view *v)
{
    size_t failed = 0;
    for (size_t i = 0; i < v->r->n_results; i++)
        failed += v->r->results[i].check.status == GP_CHECK_FAILED;
    fputs("<section class=\"glance\">\n", out);
    if (!v->r->n_results)
        fputs("<p>The report has no results.</p>\n", out);
    for (size_t i = 0; i < v->r->n_results; i = v->problem[i].end)
        glance_problem(out, v, i);
    if (failed)
        fprintf(out, "<p class=\"failed\">%zu result%s failed the check against the CPU: "
                     "see the tables.</p>\n", failed, failed == 1 ? "" : "s");
    fputs("</section>\n", out);
}

/* ---- bar charts of the results --------------------------------------------------------------- */

typedef void (*row_filler)(const results_view *v, size_t i, gp_svg_row *row, const void *arg);

/* A chart row per result, under a heading per problem when there are several. */
static gp_svg_row *result_rows(const results_view *v, row_filler fill, const void *arg,
                               size_t *n)
{
    gp_svg_row *rows = calloc(v->r->n_results + v->n_problems + 1, sizeof *rows);
    if (!rows)
        return NULL;
    *n = 0;
    for (size_t i = 0; i < v->r->n_results; i++) {
        if (v->n_problems > 1 && v->problem[i].first == i) {
            rows[*n].heading = true;
            rows[(*n)++].label = v->r->results[i].family;
        }
        gp_svg_row *row = &rows[(*n)++];
        row->label = v->labels[i];
        row->row_class = v->r->results[i].check.status == GP_CHECK_FAILED ? "failed" : NULL;
        row->marker = row->row_class ? "\xe2\x9c\x97 check failed" : NULL;
        fill(v, i, row, arg);
    }
    return rows;
}

/* Whether no result of its problem has more GB/s, nor as much before it: the fastest. */
static bool is_best(const results_view *v, size_t i)
{
    const double g = v->r->results[i].gbps;
    for (size_t k = v->problem[i].first; k < v->problem[i].end; k++)
        if (v->r->results[k].gbps > g || (k < i && v->r->results[k].gbps == g))
            return false;
    return true;
}

/* The repeats' spread as bandwidth: from the slowest repeat's GB/s to the fastest's. */
static void bandwidth_whisker(const gp_result *res, gp_svg_row *row)
{
    const gp_timing *t = &res->timing;
    if (!(t->min_ms > 0 && t->max_ms > t->min_ms) || !res->bytes_moved)
        return;
    row->lo[0] = (double)res->bytes_moved / (t->max_ms * 1e6);
    row->hi[0] = (double)res->bytes_moved / (t->min_ms * 1e6);
    snprintf(row->whisker_text[0], GP_SVG_VALUE_LEN, "repeats from %.1f to %.1f GB/s "
             "(slowest to fastest of %u)", row->lo[0], row->hi[0], t->repeats);
}

static void fill_bandwidth(const results_view *v, size_t i, gp_svg_row *row, const void *arg)
{
    (void)arg;
    const gp_result *res = &v->r->results[i];
    row->values[0] = res->gbps;
    if (gp_html_result_device(v->r, res) && isfinite(res->percent_of_peak))
        snprintf(row->value_text[0], GP_SVG_VALUE_LEN, "%.1f GB/s \xc2\xb7 %.1f %%", res->gbps,
                 res->percent_of_peak);
    else
        snprintf(row->value_text[0], GP_SVG_VALUE_LEN, "%.1f GB/s", res->gbps);
    bandwidth_whisker(res, row);
    const gp_problem_span *p = &v->problem[i];
    if (!row->row_class && p->end - p->first > 1 && is_best(v, i)) {
        row->row_class = "best";
        row->marker = "\xe2\x97\x80 fastest";
    }
}

/* The peak and copy bandwidth of each GPU the results ran on, labelled [file] when the
 * files' GPUs differ. */
static size_t bandwidth_reflines(const gp_report *r, gp_svg_refline *lines)
{
    if (!r->n_sources)
        return r->has_device ? gp_html_device_reflines(&r->device, "", lines, 0) : 0;
    const bool differ = gp_report_sources_differ(r);
    size_t n = 0;
    for (size_t i = 0; i < r->n_sources; i++) {
        char suffix[24] = "";
        if (differ)
            snprintf(suffix, sizeof suffix, " [%zu]", i + 1);
        if (r->sources[i].has_device)
            n = gp_html_device_reflines(&r->sources[i].device, suffix, lines, n);
    }
    return n;
}

static bool copy_known(const gp_svg_refline *lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(lines[i].cls, "copy") == 0)
            return true;
    return false;
}

static int bandwidth_chart(FILE *out, const results_view *v)
{
    size_t n;
    gp_svg_row *rows = result_rows(v, fill_bandwidth, NULL, &n);
    if (!rows)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    gp_svg_refline lines[GP_HTML_MAX_REFLINES];
    const size_t n_lines = bandwidth_reflines(v->r, lines);
    const gp_svg_bars chart = {
        .title = "Effective bandwidth of each result, GB/s",
        .axis_title = "effective bandwidth, GB/s (minimum bytes moved / median time; "
                      "1 GB = 10^9 bytes)",
        .n_series = 1, .rows = rows, .n_rows = n, .lines = lines, .n_lines = n_lines};
    fputs("<h2>Bandwidth</h2>\n", out);
    gp_html_figure_start(out, "bandwidth");
    gp_svg_bar_chart(out, &chart);
    fprintf(out, "<figcaption>Effective bandwidth of each result: the least the algorithm "
                 "must read and write, over its median time; the value after each bar is its "
                 "share of the GPU's peak; the whisker spans the slowest to the fastest "
                 "repeat (the noise of the timing). The solid line is the theoretical peak "
                 "(2 × memory clock × bus width)%s</figcaption>\n</figure>\n",
            copy_known(lines, n_lines) ? "; the dashed line the measured device-to-device "
                                         "copy bandwidth, what a kernel can reach in practice."
                                       : "; the report has no measured copy bandwidth.");
    free(rows);
    return GP_OK;
}

/* ---- the metrics, side by side ------------------------------------------------------------- */

static void fill_metrics(const results_view *v, size_t i, gp_svg_row *row, const void *arg)
{
    gp_html_metric_bars(row, &v->r->results[i].metrics, arg);
}

static gp_svg_row *result_metric_rows(const void *ctx, const gp_html_metric_chart *mc,
                                      size_t *n)
{
    return result_rows(ctx, fill_metrics, mc, n);
}

/* ---- the tables: every number of the text table ------------------------------------------- */

/* The part's headings (report/results_part.c), then the metrics'. */
static void results_head(FILE *out, const results_view *v)
{
    fputs("<div class=\"table-wrap\"><table class=\"results\"><tr>", out);
    gp_part_html_headings(out, &gp_results_part, &(gp_results_context){.r = v->r});
    gp_html_metric_titles(out, v->keys, v->key_labels, v->n_keys);
    fputs("</tr>\n", out);
}

/* A row per launch of a result that launched several: the part's first cells, then its
 * metrics. */
static void launch_rows(FILE *out, const results_view *v, const gp_result *res)
{
    const gp_results_context ctx = {.r = v->r};
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(&gp_results_part, GP_VIEW_HTML, &ctx, cols);
    for (size_t i = 0; res->n_launches > 1 && i < res->n_launches; i++) {
        const gp_result_row row = {.result = res, .launch = &res->launches[i]};
        fputs("<tr class=\"launch\">", out);
        for (size_t c = 0; c < GP_RESULT_HTML_LAUNCH_CELLS; c++)
            gp_part_html_cell(out, &gp_results_part, cols[c], &row, &ctx);
        fprintf(out, "<td colspan=\"%zu\"></td>", n - GP_RESULT_HTML_LAUNCH_CELLS);
        gp_html_metric_cells(out, &res->launches[i].metrics, v->keys, v->n_keys);
        fputs("</tr>\n", out);
    }
}

/* The part's row, the registry's line on what its variant does for a tooltip; its metrics. */
static void result_row(FILE *out, const results_view *v, size_t i)
{
    const gp_result *res = &v->r->results[i];
    const gp_family *f = gp_find_family(res->family);
    const gp_variant *var = f ? gp_find_variant(f, res->variant) : NULL;
    const gp_result_row row = {.result = res, .summary = var ? var->summary : NULL};
    gp_part_html_tr(out, &gp_results_part, &row, &(gp_results_context){.r = v->r});
    gp_html_metric_cells(out, &res->metrics, v->keys, v->n_keys);
    fputs("</tr>\n", out);
    launch_rows(out, v, res);
}

static void failures(FILE *out, const gp_report *r, size_t first, size_t end)
{
    for (size_t i = first; i < end; i++) {
        const gp_result *res = &r->results[i];
        if (res->check.status != GP_CHECK_FAILED)
            continue;
        fprintf(out, "<p class=\"failed\">FAILED ");
        gp_html_escape(out, res->variant);
        fprintf(out, " block %u: ", res->block.x);
        gp_html_escape(out, res->check.detail);
        fputs("</p>\n", out);
    }
}

static void results_section(FILE *out, const results_view *v)
{
    fputs("<h2>Results</h2>\n", out);
    for (size_t first = 0; first < v->r->n_results; first = v->problem[first].end) {
        char title[LABEL_LEN * 2];
        problem_title(v, first, title, sizeof title);
        fputs("<h3>", out);
        gp_html_escape(out, title);
        fputs("</h3>\n", out);
        results_head(out, v);
        for (size_t i = first; i < v->problem[first].end; i++)
            result_row(out, v, i);
        fputs("</table></div>\n", out);
        failures(out, v->r, first, v->problem[first].end);
    }
}

static int kernel_page(FILE *out, const void *ctx)
{
    const results_view *v = ctx;
    const gp_report *r = v->r;
    kernel_header(out, r);
    glance(out, v);
    if (!r->n_results)
        return GP_OK;
    GP_TRY(bandwidth_chart(out, v));
    GP_TRY(gp_html_sweeps(out, r));
    GP_TRY(gp_html_heatmaps(out, r));
    GP_TRY(gp_html_metric_section(out, result_metric_rows, v, &r->profiler, any_metrics(r)));
    results_section(out, v);
    return gp_html_source(out, r);
}

int gp_html_report(FILE *out, const gp_report *r, const gp_render_options *o)
{
    (void)o;
    results_view v;
    GP_TRY(view_init(&v, r));
    char title[GP_NAME_LEN + 96];
    snprintf(title, sizeof title, "gpuprof %s%s%s", r->n_sources ? "report" : r->command,
             r->has_device ? " on " : "", r->has_device ? r->device.name : "");
    const int rc = gp_html_page(out, title, kernel_page, &v);
    view_free(&v);
    return rc;
}
