/* The HTML page (issue 21): one self-contained file that opens offline in any browser. No
 * scripts, no fonts, nothing fetched: the style is inline, the charts are inline SVG (svg.c)
 * and a Content-Security-Policy blocks, and makes the browser log, anything that would load.
 * Charts first, for the reading at a glance; under them tables with the exact numbers.
 *
 * Kernel reports: effective bandwidth per result against the GPU's peak and measured copy
 * bandwidth, the efficiency and transactions-per-request metrics side by side, a line chart
 * per parameter swept, the table of each problem. Exec reports: time per kernel and the
 * per-kernel table. Compare: before/after bars of the median time, changes marked. */
#include "gpuprof/exec_summary.h"
#include "gpuprof/group.h"
#include "gpuprof/metrics.h"
#include "gpuprof/registry.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"
#include "render/svg.h"
#include "render/cells.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_LEN 160                /* a result's label (compare: GP_COMPARE_LABEL_LEN) */
#define EXEC_TOP 20                  /* kernels in the exec time chart */

/* ---- the page ---------------------------------------------------------------------------- */

/* Okabe–Ito colours, told apart by colour-blind readers; the series classes of svg.c. */
static const char STYLE[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "color:#1b1b1b;background:#fff;max-width:1240px;margin:20px auto;padding:0 18px}\n"
    "h1{font-size:23px;margin:0 0 6px}h2{font-size:18px;margin:30px 0 6px;padding-bottom:3px;"
    "border-bottom:1px solid #d8d8d8}h3{font-size:15px;margin:18px 0 4px}\n"
    "code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,monospace;font-size:12.5px}\n"
    "dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:1px 14px;margin:6px 0}"
    "dl.meta dt{color:#555;font-weight:600}dl.meta dd{margin:0}\n"
    ".glance{background:#f3f7fb;border-left:4px solid #0072b2;padding:6px 12px;margin:12px 0}"
    ".glance p{margin:3px 0}\n"
    ".warnings{background:#fff6e0;border-left:4px solid #e69f00;padding:6px 12px 6px 28px}"
    ".failed,.regression{color:#b00020;font-weight:600}\n"
    "figure{margin:14px 0 6px}figcaption{color:#444;font-size:13px;margin:2px 0 0;"
    "max-width:980px}.pair{display:flex;flex-wrap:wrap;gap:0 28px}"
    ".pair figure{flex:1 1 560px;min-width:0}\n"
    "svg{display:block;max-width:100%;height:auto;font-size:12px}"
    "svg text{fill:#222}svg .tick{fill:#555;font-size:11px}svg .axis-title{font-size:12px;"
    "fill:#333}svg .group{font-weight:700;fill:#111}svg .value{fill:#333}svg .na{fill:#888;"
    "font-style:italic}svg .legend{fill:#222}\n"
    "svg .grid{stroke:#e4e4e4;stroke-width:1}"
    "svg .ref{stroke-width:2}svg .ref.peak{stroke:#b00020}svg .ref.copy{stroke:#6a3d9a;"
    "stroke-dasharray:6 4}svg .ref-label{font-size:11.5px;font-weight:600}"
    "svg .ref-label.peak{fill:#b00020}svg .ref-label.copy{fill:#6a3d9a}\n"
    ".s0{fill:#0072b2;stroke:#0072b2}.s1{fill:#e69f00;stroke:#e69f00}"
    ".s2{fill:#009e73;stroke:#009e73}.s3{fill:#cc79a7;stroke:#cc79a7}"
    ".s4{fill:#56b4e9;stroke:#56b4e9}.s5{fill:#d55e00;stroke:#d55e00}"
    ".s6{fill:#7f7f7f;stroke:#7f7f7f}.s7{fill:#000;stroke:#000}\n"
    "svg .bar,svg rect.swatch{stroke:none}svg polyline.line,svg line.line{fill:none;stroke-width:2}"
    "svg .dashed{stroke-dasharray:7 4}svg .point{stroke:#fff;stroke-width:1}\n"
    "svg .row.failed .label{fill:#b00020}svg .marker{font-weight:700}"
    "svg .row.best .bar.s0{fill:#005082}svg .row.best .label{font-weight:700}"
    "svg .value,svg .marker,svg .ref-label{paint-order:stroke;stroke:#fff;stroke-width:3px;"
    "stroke-linejoin:round}"
    "svg .row.slower .bar.s1{fill:#d55e00}svg .row.slower .marker{fill:#b00020}"
    "svg .row.faster .bar.s1{fill:#009e73}svg .row.faster .marker{fill:#00704f}"
    "svg .row.same .marker{fill:#666;font-weight:400}.chart-compare .s1{fill:#9fb8cc;stroke:#9fb8cc}\n"
    ".key{font-weight:600;padding:0 4px;border-radius:3px;white-space:nowrap}.key.slower{color:#fff;"
    "background:#d55e00}.key.faster{color:#fff;background:#009e73}.key.same{background:"
    "#9fb8cc}td.verdict{white-space:nowrap}\n"
    "table{border-collapse:collapse;font-size:12.5px;margin:6px 0 10px}"
    "th,td{padding:2px 8px;border-bottom:1px solid #e6e6e6;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2;font-weight:600}td.num,th.num{text-align:right;"
    "font-variant-numeric:tabular-nums}tr.launch td{color:#666}tr.failed td{color:#b00020}"
    "tr.slower td.verdict{color:#b00020;font-weight:700}"
    "tr.faster td.verdict{color:#00704f;font-weight:700}\n"
    ".note{color:#555;font-style:italic}footer{margin:30px 0 10px;color:#777;font-size:12px}\n";

static void page_start(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"gpuprof " GPUPROF_VERSION "\">\n<title>", out);
    gp_html_escape(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", STYLE);
}

static void page_end(FILE *out)
{
    fputs("<footer>Made by gpuprof " GPUPROF_VERSION ": one file, no scripts, nothing "
          "loaded from elsewhere.</footer>\n</body>\n</html>\n", out);
}

/* ---- cells ------------------------------------------------------------------------------- */

/* A number with printf's format, "-" when unknown. */
static void fmt_num(char *buf, size_t len, const char *fmt, double v)
{
    if (isfinite(v))
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "-");
}

static void td_num(FILE *out, const char *fmt, double v)
{
    char cell[48];
    fmt_num(cell, sizeof cell, fmt, v);
    fprintf(out, "<td class=\"num\">%s</td>", cell);
}

static void td_text(FILE *out, const char *s)
{
    fputs("<td>", out);
    gp_html_escape(out, s);
    fputs("</td>", out);
}

static void th_list(FILE *out, const char *const *titles, size_t n, size_t first_num)
{
    for (size_t i = 0; i < n; i++) {
        fputs(i >= first_num ? "<th class=\"num\">" : "<th>", out);
        gp_html_escape(out, titles[i]);
        fputs("</th>", out);
    }
}

static void dd_text(FILE *out, const char *term, const char *text)
{
    fprintf(out, "<dt>%s</dt><dd>", term);
    gp_html_escape(out, text);
    fputs("</dd>\n", out);
}

static const gp_metric_value *set_metric(const gp_metric_set *s, const char *key)
{
    for (size_t i = 0; s && i < s->n_metrics; i++)
        if (strcmp(s->metrics[i].key, key) == 0)
            return &s->metrics[i];
    return NULL;
}

static void metric_cells(FILE *out, const gp_metric_set *s, const char *const *keys,
                         size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char cell[32];
        gp_text_format_value(cell, sizeof cell, set_metric(s, keys[i]));
        fprintf(out, "<td class=\"num\">%s</td>", cell);
    }
}

static void metric_titles(FILE *out, const char *const *keys, const char *const *labels,
                          size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gp_metric_def *def = gp_find_metric(keys[i]);
        fputs("<th class=\"num\" title=\"", out);
        gp_html_escape(out, def ? def->description : keys[i]);
        fputs("\">", out);
        gp_html_escape(out, labels[i]);
        fputs("</th>", out);
    }
}

/* ---- the header ---------------------------------------------------------------------------- */

static void describe_device(char *buf, size_t len, const gp_device_info *d)
{
    char copy[64] = "";
    if (d->copy_gbps >= 0)
        snprintf(copy, sizeof copy, ", measured copy %.1f GB/s", d->copy_gbps);
    snprintf(buf, len, "%s (sm_%d%d, %d SMs, peak %.1f GB/s%s)", d->name, d->cc_major,
             d->cc_minor, d->multiprocessors, d->peak_gbps, copy);
}

static void command_line(FILE *out, char *const *argv, size_t n)
{
    fputs("<dt>command</dt><dd><code>", out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(' ', out);
        gp_html_escape(out, argv[i]);
    }
    fputs("</code></dd>\n", out);
}

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
    dd_text(out, "timing", text);
}

static void profiler_line(FILE *out, const gp_profiler_info *p, const char *replay)
{
    char text[GP_TEXT_LEN * 2];
    if (p->state == GP_PROF_OK)
        snprintf(text, sizeof text, "CUPTI range profiler on %s, %s set, %d pass%s per "
                 "kernel (%s), clocks not locked", p->chip, p->metric_set, p->passes,
                 p->passes == 1 ? "" : "es", replay);
    else if (p->state == GP_PROF_UNAVAILABLE)
        snprintf(text, sizeof text, "unavailable: %s", p->reason);
    else
        snprintf(text, sizeof text, "not collected (--metrics=none)");
    dd_text(out, "metrics", text);
}

static void warnings_list(FILE *out, const gp_report *r)
{
    if (!r->n_warnings)
        return;
    fputs("<ul class=\"warnings\">\n", out);
    for (size_t i = 0; i < r->n_warnings; i++) {
        fputs("<li>", out);
        gp_html_escape(out, r->warnings[i]);
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
}

static void sources_table(FILE *out, const gp_report *r)
{
    fputs("<table class=\"sources\"><tr><th>#</th><th>file</th><th>gpuprof</th>"
          "<th>command</th><th>device</th></tr>\n", out);
    for (size_t i = 0; i < r->n_sources; i++) {
        const gp_report_source *s = &r->sources[i];
        char dev[GP_NAME_LEN + 96] = "no GPU";
        if (s->has_device)
            describe_device(dev, sizeof dev, &s->device);
        fprintf(out, "<tr><td>[%zu]</td>", i + 1);
        td_text(out, s->file);
        td_text(out, s->tool_version);
        td_text(out, s->command);
        td_text(out, dev);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void kernel_header(FILE *out, const gp_report *r)
{
    fputs("<header>\n<h1>gpuprof ", out);
    if (r->n_sources)
        fprintf(out, "report of %zu files", r->n_sources);
    else
        gp_html_escape(out, r->command);
    fputs("</h1>\n<dl class=\"meta\">\n", out);
    dd_text(out, "gpuprof", r->tool_version);
    command_line(out, r->command_line, r->command_line_len);
    char dev[GP_NAME_LEN + 96] = "none recorded";
    if (r->has_device)
        describe_device(dev, sizeof dev, &r->device);
    dd_text(out, r->n_sources ? "device (first file)" : "device", dev);
    timing_line(out, r);
    profiler_line(out, &r->profiler, "user replay, caches flushed");
    fputs("</dl>\n", out);
    if (r->n_sources) {
        if (gp_report_sources_differ(r))
            fputs("<p>The files come from different GPUs or gpuprof versions: each result "
                  "says which [file] it is from.</p>\n", out);
        sources_table(out, r);
    }
    warnings_list(out, r);
    fputs("</header>\n", out);
}

/* ---- a kernel report's results ------------------------------------------------------------- */

/* What the charts and tables of a kernel report share: each result's label and problem. */
typedef struct {
    const gp_report *r;
    bool label_sources;
    char (*labels)[LABEL_LEN];       /* per result: variant, the parameters that vary, [file] */
    gp_problem *problem;             /* per result: its problem */
    size_t n_problems;
    const char *keys[GP_TEXT_MAX_COLUMNS], *key_labels[GP_TEXT_MAX_COLUMNS];
    size_t n_keys;                   /* the table's metric columns */
} results_view;

static const gp_device_info *result_device(const gp_report *r, const gp_result *res)
{
    if (r->n_sources && res->source < r->n_sources)
        return r->sources[res->source].has_device ? &r->sources[res->source].device : NULL;
    return r->has_device ? &r->device : NULL;
}

/* printf at the end of what the buffer holds. */
static void appendf(char *buf, size_t len, const char *fmt, ...)
{
    const size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* "smem pad=1 block=32x16 [2]": what tells a result from the others of its problem. */
static void result_label(const results_view *v, size_t i, char *buf, size_t len)
{
    const gp_result *res = &v->r->results[i];
    snprintf(buf, len, "%s", res->variant);
    for (size_t p = 0; p < res->n_params; p++)
        if (!isnan(res->params[p].value) &&
            gp_problem_param_varies(&v->problem[i], res->params[p].name))
            appendf(buf, len, " %s=%.10g", res->params[p].name, res->params[p].value);
    if (res->block.x && gp_problem_block_varies(&v->problem[i])) {
        char dim[32];
        gp_text_format_dim(dim, sizeof dim, res->block, res->nx != 0);
        appendf(buf, len, " block=%s", dim);
    }
    if (v->label_sources)
        appendf(buf, len, " [%zu]", res->source + 1);
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
        const gp_problem p = gp_problem_at(r, first);
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
            appendf(buf, len, " (2^%d)", k);
}

/* "reduce int32, n=16777216 (2^24), 64.0 MiB moved at least, group 16". */
static void problem_title(const results_view *v, size_t first, char *buf, size_t len)
{
    const gp_result *res = &v->r->results[first];
    char size[64];
    size_text(size, sizeof size, res);
    snprintf(buf, len, "%s %s, %s, %.1f MiB moved at least", res->family, res->type, size,
             (double)res->bytes_moved / (1024.0 * 1024.0));
    for (size_t p = 0; p < res->n_params; p++)
        if (!isnan(res->params[p].value) &&
            !gp_problem_param_varies(&v->problem[first], res->params[p].name))
            appendf(buf, len, ", %s %.10g", res->params[p].name, res->params[p].value);
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
    if (isfinite(b->percent_of_peak) && result_device(v->r, b))
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

static void fill_bandwidth(const results_view *v, size_t i, gp_svg_row *row, const void *arg)
{
    (void)arg;
    const gp_result *res = &v->r->results[i];
    row->values[0] = res->gbps;
    if (result_device(v->r, res) && isfinite(res->percent_of_peak))
        snprintf(row->value_text[0], GP_SVG_VALUE_LEN, "%.1f GB/s \xc2\xb7 %.1f %%", res->gbps,
                 res->percent_of_peak);
    else
        snprintf(row->value_text[0], GP_SVG_VALUE_LEN, "%.1f GB/s", res->gbps);
    const gp_problem *p = &v->problem[i];
    if (!row->row_class && p->end - p->first > 1 && is_best(v, i)) {
        row->row_class = "best";
        row->marker = "\xe2\x97\x80 fastest";
    }
}

#define MAX_REFLINES 8

static size_t add_refline(gp_svg_refline *lines, size_t n, double value, const char *cls,
                          const char *what, const char *suffix)
{
    for (size_t i = 0; i < n; i++)
        if (lines[i].value == value && strcmp(lines[i].cls, cls) == 0)
            return n;
    if (n == MAX_REFLINES || !(value > 0))
        return n;
    lines[n].value = value;
    lines[n].cls = cls;
    snprintf(lines[n].label, sizeof lines[n].label, "%s %.0f GB/s%s", what, value, suffix);
    return n + 1;
}

static size_t device_reflines(const gp_device_info *d, const char *suffix,
                              gp_svg_refline *lines, size_t n)
{
    n = add_refline(lines, n, d->peak_gbps, "peak", "peak", suffix);
    if (d->copy_gbps >= 0)
        n = add_refline(lines, n, d->copy_gbps, "copy", "measured copy", suffix);
    return n;
}

/* The peak and copy bandwidth of each GPU the results ran on, labelled [file] when the
 * files' GPUs differ. */
static size_t bandwidth_reflines(const gp_report *r, gp_svg_refline *lines)
{
    if (!r->n_sources)
        return r->has_device ? device_reflines(&r->device, "", lines, 0) : 0;
    const bool differ = gp_report_sources_differ(r);
    size_t n = 0;
    for (size_t i = 0; i < r->n_sources; i++) {
        char suffix[24] = "";
        if (differ)
            snprintf(suffix, sizeof suffix, " [%zu]", i + 1);
        if (r->sources[i].has_device)
            n = device_reflines(&r->sources[i].device, suffix, lines, n);
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

static void figure_start(FILE *out, const char *id)
{
    fprintf(out, "<figure class=\"chart chart-%s\" id=\"chart-%s\">\n", id, id);
}

static int bandwidth_chart(FILE *out, const results_view *v)
{
    size_t n;
    gp_svg_row *rows = result_rows(v, fill_bandwidth, NULL, &n);
    if (!rows)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    gp_svg_refline lines[MAX_REFLINES];
    const size_t n_lines = bandwidth_reflines(v->r, lines);
    const gp_svg_bars chart = {
        .title = "Effective bandwidth of each result, GB/s",
        .axis_title = "effective bandwidth, GB/s (minimum bytes moved / median time; "
                      "1 GB = 10^9 bytes)",
        .n_series = 1, .rows = rows, .n_rows = n, .lines = lines, .n_lines = n_lines};
    fputs("<h2>Bandwidth</h2>\n", out);
    figure_start(out, "bandwidth");
    gp_svg_bar_chart(out, &chart);
    fprintf(out, "<figcaption>Effective bandwidth of each result: the least the algorithm "
                 "must read and write, over its median time; the value after each bar is its "
                 "share of the GPU's peak. The solid line is the theoretical peak (2 × "
                 "memory clock × bus width)%s</figcaption>\n</figure>\n",
            copy_known(lines, n_lines) ? "; the dashed line the measured device-to-device "
                                         "copy bandwidth, what a kernel can reach in practice."
                                       : "; the report has no measured copy bandwidth.");
    free(rows);
    return GP_OK;
}

/* ---- the metrics, side by side ------------------------------------------------------------- */

typedef struct {
    const char *id;
    const char *keys[2];
    const char *series[2];
    const char *axis;
    double max;                      /* 0: from the data */
    const char *caption;
} metric_chart;

static const metric_chart metric_charts[] = {
    {"efficiency", {"gld_efficiency", "gst_efficiency"},
     {"loads (gld_efficiency)", "stores (gst_efficiency)"},
     "efficiency, % of the sectors' bytes used", 100,
     "Global load and store efficiency: of the bytes the 32-byte sectors moved, the share the "
     "kernel asked for. 100 % = nothing wasted."},
    {"transactions", {"gld_transactions_per_request", "gst_transactions_per_request"},
     {"loads (gld)", "stores (gst)"},
     "sectors per request (4 = a warp's coalesced 4-byte words)", 0,
     "Global memory sectors per load and store request (per warp-level instruction): 4 for a "
     "warp's 32 coalesced 4-byte words, up to 32 when every thread touches its own sector."},
    {"shared", {"shared_load_transactions_per_request", "shared_store_transactions_per_request"},
     {"loads", "stores"}, "shared-memory wavefronts per instruction (1 = no bank conflicts)", 0,
     "Shared-memory wavefronts per load and store instruction: 1 without bank conflicts, "
     "n for an n-way conflict."},
};

static void fill_metrics(const results_view *v, size_t i, gp_svg_row *row, const void *arg)
{
    const metric_chart *mc = arg;
    const gp_metric_set *set = &v->r->results[i].metrics;
    for (size_t s = 0; s < 2; s++) {
        const gp_metric_value *m = set_metric(set, mc->keys[s]);
        row->values[s] = m && m->valid ? m->value : NAN;
        gp_text_format_value(row->value_text[s], GP_SVG_VALUE_LEN, m);
        if (m && m->valid && strcmp(m->unit, "%") == 0)
            appendf(row->value_text[s], GP_SVG_VALUE_LEN, " %%");
    }
}

static bool row_has_values(const gp_svg_row *row)
{
    return !row->heading && (isfinite(row->values[0]) || isfinite(row->values[1]));
}

static bool chart_has_values(const gp_svg_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (row_has_values(&rows[i]))
            return true;
    return false;
}

/* Rows with neither metric (a kernel without shared-memory instructions) say nothing a
 * chart can show: left out, as are headings left with no row; the table still has them. */
static size_t drop_empty_rows(gp_svg_row *rows, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].heading) {
            size_t k = i + 1;
            while (k < n && !rows[k].heading && !row_has_values(&rows[k]))
                k++;
            if (k == n || rows[k].heading)
                continue;
        } else if (!row_has_values(&rows[i])) {
            continue;
        }
        rows[kept++] = rows[i];
    }
    return kept;
}

/* One metric chart; nothing when no result has either metric. */
static int one_metric_chart(FILE *out, const metric_chart *mc, gp_svg_row *rows, size_t n)
{
    if (!chart_has_values(rows, n))
        return GP_OK;
    const size_t all = n;
    n = drop_empty_rows(rows, n);
    const gp_svg_bars chart = {.title = mc->caption, .axis_title = mc->axis,
                               .series = {mc->series[0], mc->series[1]}, .n_series = 2,
                               .rows = rows, .n_rows = n, .max = mc->max, .width = 600};
    figure_start(out, mc->id);
    gp_svg_bar_chart(out, &chart);
    fputs("<figcaption>", out);
    gp_html_escape(out, mc->caption);
    if (n < all)
        fputs(" Results with neither value (n/a in the table) are left out.", out);
    fputs("</figcaption>\n</figure>\n", out);
    return GP_OK;
}

static void no_metrics_note(FILE *out, const gp_profiler_info *p)
{
    fputs("<p class=\"note\">No metric charts: ", out);
    if (p->state == GP_PROF_UNAVAILABLE) {
        fputs("the profiler was unavailable (", out);
        gp_html_escape(out, p->reason);
        fputs(").</p>\n", out);
    } else {
        fputs("no result has metrics (the run had --metrics=none).</p>\n", out);
    }
}

/* Builds a metric chart's rows: of results, or of an exec report's kernels. */
typedef gp_svg_row *(*metric_rows)(const void *ctx, const metric_chart *mc, size_t *n);

static int metric_section(FILE *out, metric_rows build, const void *ctx,
                          const gp_profiler_info *p, bool have)
{
    fputs("<h2>Memory access</h2>\n", out);
    if (!have) {
        no_metrics_note(out, p);
        return GP_OK;
    }
    fputs("<div class=\"pair\">\n", out);
    int rc = GP_OK;
    for (size_t c = 0; c < sizeof metric_charts / sizeof metric_charts[0] && !rc; c++) {
        if (c == 2)
            fputs("</div>\n<div class=\"pair\">\n", out);
        size_t n;
        gp_svg_row *rows = build(ctx, &metric_charts[c], &n);
        rc = rows ? one_metric_chart(out, &metric_charts[c], rows, n)
                  : gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
        free(rows);
    }
    fputs("</div>\n", out);
    return rc;
}

static gp_svg_row *result_metric_rows(const void *ctx, const metric_chart *mc, size_t *n)
{
    return result_rows(ctx, fill_metrics, mc, n);
}

/* ---- parameter sweeps: a line chart per parameter that the results vary ------------------- */

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

static const gp_result *sweep_result(const results_view *v, const gp_sweep *s, size_t i)
{
    return &v->r->results[s->results[i]];
}

static bool types_differ(const gp_report *r)
{
    for (size_t i = 1; i < r->n_results; i++)
        if (strcmp(r->results[i].type, r->results[0].type) != 0)
            return true;
    return false;
}

static void series_name(const results_view *v, const gp_sweep *l, char *buf, size_t len)
{
    const gp_result *res = sweep_result(v, l, 0);
    snprintf(buf, len, "%s", res->variant);
    if (types_differ(v->r))
        appendf(buf, len, " %s", res->type);
    if (v->label_sources)
        appendf(buf, len, " [%zu]", res->source + 1);
}

/* Sweeps drawn in one chart: of one family, over one parameter. */
static bool same_chart(const results_view *v, const gp_sweep *a, const gp_sweep *b)
{
    return a->param == b->param &&
           strcmp(sweep_result(v, a, 0)->family, sweep_result(v, b, 0)->family) == 0;
}

/* Whether sweeps[i] opens a chart: it sweeps a parameter, and no sweep before it is of its
 * chart. */
static bool opens_chart(const results_view *v, const gp_sweeps *s, size_t i)
{
    if (s->sweeps[i].param == GP_SWEEP_NONE)
        return false;
    for (size_t k = 0; k < i; k++)
        if (same_chart(v, &s->sweeps[k], &s->sweeps[i]))
            return false;
    return true;
}

/* The lines of the chart that sweeps[first] opens: it and the sweeps after it of its chart. */
static size_t chart_lines(const results_view *v, const gp_sweeps *s, size_t first,
                          const gp_sweep **out)
{
    size_t n = 0;
    for (size_t i = first; i < s->n_sweeps; i++)
        if (same_chart(v, &s->sweeps[first], &s->sweeps[i]))
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
            td_num(out, "%.1f", s->y[i]);
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
    th_list(out, &name, 1, 1);
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

static void fill_series(const results_view *v, const gp_sweep *l, gp_svg_series *s,
                        double *x, double *y)
{
    series_name(v, l, s->name, sizeof s->name);
    s->x = x;
    s->y = y;
    s->n = l->n;
    for (size_t i = 0; i < l->n; i++) {
        x[i] = gp_sweep_value(sweep_result(v, l, i), l->param);
        y[i] = sweep_result(v, l, i)->gbps;
    }
}

static bool all_positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0))
            return false;
    return true;
}

static void draw_sweep(FILE *out, const results_view *v, const gp_sweep *first,
                       const gp_svg_series *series, size_t n, double *xs, size_t n_points,
                       size_t id)
{
    const char *name = gp_sweep_param_name(first->param);
    const sweep_axis *axis = &sweep_axes[first->param];
    const gp_result *res = sweep_result(v, first, 0);
    char title[160];
    snprintf(title, sizeof title, "%s: GB/s against %s", res->family, name);
    gp_svg_refline lines[MAX_REFLINES];
    const gp_device_info *d = result_device(v->r, res);
    const bool log2_x = axis->log2 && all_positive(xs, n_points);
    const gp_svg_lines chart = {
        .title = title, .x_title = axis->axis, .y_title = "effective bandwidth, GB/s",
        .log2_x = log2_x, .series = series, .n_series = n, .lines = lines,
        .n_lines = d ? device_reflines(d, "", lines, 0) : 0};
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

static int sweep_chart(FILE *out, const results_view *v, const gp_sweeps *s, size_t first,
                       size_t id)
{
    const gp_sweep **lines = calloc(s->n_sweeps, sizeof *lines);
    gp_svg_series *series = calloc(s->n_sweeps, sizeof *series);
    double *xy = calloc(3 * v->r->n_results, sizeof *xy);
    if (!lines || !series || !xy) {
        free(lines), free(series), free(xy);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    const size_t n = chart_lines(v, s, first, lines);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        fill_series(v, lines[i], &series[i], xy + used, xy + v->r->n_results + used);
        used += lines[i]->n;
    }
    /* The third part of xy: the distinct x values, for the log test and the table. */
    double *xs = xy + 2 * v->r->n_results;
    memcpy(xs, xy, used * sizeof *xs);
    draw_sweep(out, v, lines[0], series, n, xs, used, id);
    free(lines), free(series), free(xy);
    return GP_OK;
}

static int sweep_section(FILE *out, const results_view *v)
{
    gp_sweeps s;
    GP_TRY(gp_sweeps_find(v->r, &s));
    int rc = GP_OK;
    size_t charts = 0;
    for (size_t i = 0; i < s.n_sweeps && !rc; i++) {
        if (!opens_chart(v, &s, i))
            continue;
        if (!charts)
            fputs("<h2>Parameter sweeps</h2>\n", out);
        rc = sweep_chart(out, v, &s, i, ++charts);
    }
    gp_sweeps_free(&s);
    return rc;
}

/* ---- the tables: every number of the text table ------------------------------------------- */

static void results_head(FILE *out, const results_view *v)
{
    static const char *const titles[] = {"variant", "params", "grid", "block", "time_ms",
                                         "noise %", "GB/s", "% peak", "check", "file"};
    fputs("<table class=\"results\"><tr>", out);
    th_list(out, titles, 4, 4);
    th_list(out, titles + 4, 4, 0);
    th_list(out, titles + 8, v->label_sources ? 2 : 1, 2);
    metric_titles(out, v->keys, v->key_labels, v->n_keys);
    fputs("</tr>\n", out);
}

static void params_cell(FILE *out, const gp_result *res)
{
    char text[GP_RESULT_MAX_PARAMS * 48] = "";
    for (size_t p = 0; p < res->n_params; p++)
        if (!isnan(res->params[p].value))
            appendf(text, sizeof text, "%s%s=%.10g", text[0] ? " " : "", res->params[p].name,
                    res->params[p].value);
    td_text(out, text);
}

static void dim_cell(FILE *out, gp_dim3 d, bool two_d)
{
    char cell[48];
    gp_text_format_dim(cell, sizeof cell, d, two_d);
    fprintf(out, "<td class=\"num\">%s</td>", cell);
}

static void check_cell(FILE *out, const gp_check *c)
{
    fputs("<td title=\"", out);
    gp_html_escape(out, c->detail);
    fputs("\">", out);
    fputs(gp_check_status_name(c->status), out);
    if (c->rechecked && c->after_profile == GP_CHECK_FAILED)
        fputs(" (failed after profiling)", out);
    fputs("</td>", out);
}

static void launch_rows(FILE *out, const results_view *v, const gp_result *res)
{
    for (size_t i = 0; res->n_launches > 1 && i < res->n_launches; i++) {
        const gp_launch_record *l = &res->launches[i];
        char name[96];
        snprintf(name, sizeof name, "#%zu", i + 1);
        if (l->in_nx)
            appendf(name, sizeof name, " %ux%u\xe2\x86\x92%ux%u", l->in_nx, l->in_ny,
                    l->out_nx, l->out_ny);
        fputs("<tr class=\"launch\">", out);
        td_text(out, name);
        td_text(out, l->kernel);
        dim_cell(out, l->grid, res->nx != 0);
        dim_cell(out, l->block, res->nx != 0);
        td_num(out, "%.4f", l->median_ms >= 0 ? l->median_ms : NAN);
        fprintf(out, "<td colspan=\"%d\"></td>", v->label_sources ? 5 : 4);
        metric_cells(out, &l->metrics, v->keys, v->n_keys);
        fputs("</tr>\n", out);
    }
}

/* The variant, with the registry's line on what it does for a tooltip. */
static void variant_cell(FILE *out, const gp_result *res)
{
    const gp_family *f = gp_find_family(res->family);
    const gp_variant *var = f ? gp_find_variant(f, res->variant) : NULL;
    fputs("<td", out);
    if (var && var->summary) {
        fputs(" title=\"", out);
        gp_html_escape(out, var->summary);
        fputc('"', out);
    }
    fputc('>', out);
    gp_html_escape(out, res->variant);
    fputs("</td>", out);
}

static void result_row(FILE *out, const results_view *v, size_t i)
{
    const gp_result *res = &v->r->results[i];
    const bool two_d = res->nx != 0;
    fputs(res->check.status == GP_CHECK_FAILED ? "<tr class=\"failed\">" : "<tr>", out);
    variant_cell(out, res);
    params_cell(out, res);
    dim_cell(out, res->grid, two_d);
    dim_cell(out, res->block, two_d);
    td_num(out, "%.4f", res->timing.median_ms);
    td_num(out, "%.1f", res->timing.noise_pct);
    td_num(out, "%.1f", res->gbps);
    td_num(out, "%.1f", result_device(v->r, res) ? res->percent_of_peak : NAN);
    check_cell(out, &res->check);
    if (v->label_sources)
        fprintf(out, "<td>[%zu]</td>", res->source + 1);
    metric_cells(out, &res->metrics, v->keys, v->n_keys);
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
        fputs("</table>\n", out);
        failures(out, v->r, first, v->problem[first].end);
    }
}

static int render_exec_html(FILE *out, const gp_report *r);

static int kernel_page(FILE *out, const results_view *v)
{
    const gp_report *r = v->r;
    kernel_header(out, r);
    glance(out, v);
    if (!r->n_results)
        return GP_OK;
    GP_TRY(bandwidth_chart(out, v));
    GP_TRY(sweep_section(out, v));
    GP_TRY(metric_section(out, result_metric_rows, v, &r->profiler, any_metrics(r)));
    results_section(out, v);
    return GP_OK;
}

int gp_render_html(FILE *out, const gp_report *r)
{
    if (r->is_exec)
        return render_exec_html(out, r);
    results_view v;
    GP_TRY(view_init(&v, r));
    char title[GP_NAME_LEN + 96];
    snprintf(title, sizeof title, "gpuprof %s%s%s", r->n_sources ? "report" : r->command,
             r->has_device ? " on " : "", r->has_device ? r->device.name : "");
    page_start(out, title);
    const int rc = kernel_page(out, &v);
    page_end(out);
    view_free(&v);
    return rc;
}

/* ---- exec reports: the program's kernels ----------------------------------------------------- */

typedef struct {
    const gp_report *r;
    gp_exec_kernel *k;               /* the most time first */
    size_t nk;
    gp_metric_set *avg;              /* per kernel: its metrics' averages over its launches */
    gp_metric_value *values;
    const char *keys[GP_TEXT_MAX_COLUMNS], *key_labels[GP_TEXT_MAX_COLUMNS];
    size_t n_keys;
} exec_view;

static void exec_view_free(exec_view *v)
{
    gp_exec_summary_free(v->k, v->nk);
    free(v->avg);
    free(v->values);
}

static int exec_averages(exec_view *v)
{
    size_t total = 1;
    for (size_t i = 0; i < v->nk; i++)
        total += v->k[i].n_metrics;
    v->avg = calloc(v->nk + 1, sizeof *v->avg);
    v->values = calloc(total, sizeof *v->values);
    if (!v->avg || !v->values)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    gp_metric_value *next = v->values;
    for (size_t i = 0; i < v->nk; i++) {
        v->avg[i] = (gp_metric_set){NULL, 0, next, v->k[i].n_metrics};
        for (size_t m = 0; m < v->k[i].n_metrics; m++)
            *next++ = v->k[i].metrics[m].average;
    }
    return GP_OK;
}

static int exec_view_init(exec_view *v, const gp_report *r)
{
    memset(v, 0, sizeof *v);
    v->r = r;
    GP_TRY(gp_exec_summarize(&r->exec, &v->k, &v->nk));
    const int rc = exec_averages(v);
    if (rc) {
        exec_view_free(v);
        return rc;
    }
    for (size_t i = 0; i < r->exec.n_launches && !v->n_keys; i++)
        if (r->exec.launches[i].profiled)
            v->n_keys = gp_text_metric_columns(&r->exec.launches[i].metrics,
                                               strcmp(r->profiler.metric_set, "list") == 0,
                                               v->keys, v->key_labels);
    return GP_OK;
}

static void exec_program(FILE *out, const gp_exec_info *e)
{
    fputs("<dt>program</dt><dd><code>", out);
    for (size_t i = 0; i < e->argc; i++) {
        if (i)
            fputc(' ', out);
        gp_html_escape(out, e->argv[i]);
    }
    fputs("</code></dd>\n", out);
    char text[128];
    if (e->signal)
        snprintf(text, sizeof text, "killed by signal %d (exit status %d)", e->signal,
                 e->exit_status);
    else
        snprintf(text, sizeof text, "exit status %d", e->exit_status);
    dd_text(out, "ended", text);
    snprintf(text, sizeof text, "%zu kernel launch%s in %zu process%s", e->n_launches,
             e->n_launches == 1 ? "" : "es", e->processes, e->processes == 1 ? "" : "es");
    dd_text(out, "ran", text);
}

static void exec_header(FILE *out, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    fputs("<header>\n<h1>gpuprof exec ", out);
    gp_html_escape(out, e->argc ? e->argv[0] : "");
    fputs("</h1>\n<dl class=\"meta\">\n", out);
    dd_text(out, "gpuprof", r->tool_version);
    command_line(out, r->command_line, r->command_line_len);
    exec_program(out, e);
    for (size_t i = 0; i < e->n_devices; i++) {
        char dev[GP_NAME_LEN + 96], term[32];
        describe_device(dev, sizeof dev, &e->devices[i]);
        snprintf(term, sizeof term, "GPU %d", e->devices[i].index);
        dd_text(out, term, dev);
    }
    char times[128];
    snprintf(times, sizeof times, "from CUPTI's activity records (of a profiled kernel, its "
             "counters); %zu of %zu launches profiled", gp_exec_profiled(e), e->n_launches);
    dd_text(out, "times", times);
    char replay[96];
    snprintf(replay, sizeof replay, "%s, the program's own cache state",
             gp_exec_replay(r->profiler.passes));
    profiler_line(out, &r->profiler, replay);
    fputs("</dl>\n", out);
    warnings_list(out, r);
    fputs("</header>\n", out);
}

static void exec_glance(FILE *out, const exec_view *v)
{
    fputs("<section class=\"glance\">\n<p>", out);
    if (!v->nk) {
        fputs("The program ran no kernel.</p>\n</section>\n", out);
        return;
    }
    const gp_exec_kernel *k = &v->k[0];
    fprintf(out, "%zu kernel%s. Most time: <b>", v->nk, v->nk == 1 ? "" : "s");
    gp_html_escape_cut(out, k->kernel, 120);
    if (k->timed)
        fprintf(out, "</b>, %.4f ms in %zu call%s (%.1f %% of the kernels' time).</p>\n",
                k->total_ms, k->calls, k->calls == 1 ? "" : "s",
                isfinite(k->time_percent) ? k->time_percent : 0.0);
    else
        fprintf(out, "</b> (%zu calls, not timed).</p>\n", k->calls);
    fputs("</section>\n", out);
}

static size_t exec_top(const exec_view *v)
{
    return v->nk < EXEC_TOP ? v->nk : EXEC_TOP;
}

static gp_svg_row *exec_rows(const exec_view *v)
{
    gp_svg_row *rows = calloc(exec_top(v) + 1, sizeof *rows);
    for (size_t i = 0; rows && i < exec_top(v); i++)
        rows[i].label = v->k[i].kernel;
    return rows;
}

static int exec_time_chart(FILE *out, const exec_view *v)
{
    gp_svg_row *rows = exec_rows(v);
    if (!rows)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    for (size_t i = 0; i < exec_top(v); i++) {
        const gp_exec_kernel *k = &v->k[i];
        rows[i].values[0] = k->timed ? k->total_ms : NAN;
        snprintf(rows[i].value_text[0], GP_SVG_VALUE_LEN, "%.4f ms \xc2\xb7 %.1f %% \xc2\xb7 "
                 "%zu call%s", k->total_ms, isfinite(k->time_percent) ? k->time_percent : 0.0,
                 k->calls, k->calls == 1 ? "" : "s");
    }
    const gp_svg_bars chart = {.title = "Total time per kernel, ms",
                               .axis_title = "total time of the kernel's launches, ms",
                               .n_series = 1, .rows = rows, .n_rows = exec_top(v)};
    fputs("<h2>Time per kernel</h2>\n", out);
    figure_start(out, "exec-time");
    gp_svg_bar_chart(out, &chart);
    fprintf(out, "<figcaption>Total time of each kernel over its timed launches, the most "
                 "first%s; the share is of all kernels' time.</figcaption>\n</figure>\n",
            v->nk > EXEC_TOP ? " (the 20 that took most; the table has them all)" : "");
    free(rows);
    return GP_OK;
}

static gp_svg_row *exec_metric_rows(const void *ctx, const metric_chart *mc, size_t *n)
{
    const exec_view *v = ctx;
    gp_svg_row *rows = exec_rows(v);
    for (size_t i = 0; rows && i < exec_top(v); i++)
        for (size_t s = 0; s < 2; s++) {
            const gp_metric_value *m = set_metric(&v->avg[i], mc->keys[s]);
            rows[i].values[s] = m && m->valid ? m->value : NAN;
            gp_text_format_value(rows[i].value_text[s], GP_SVG_VALUE_LEN, m);
            if (m && m->valid && strcmp(m->unit, "%") == 0)
                appendf(rows[i].value_text[s], GP_SVG_VALUE_LEN, " %%");
        }
    *n = exec_top(v);
    return rows;
}

static void exec_kernel_row(FILE *out, const exec_view *v, size_t i)
{
    const gp_exec_kernel *k = &v->k[i];
    fprintf(out, "<tr><td class=\"num\">%zu</td><td class=\"num\">%zu</td>", k->calls,
            k->profiled);
    td_num(out, "%.1f", k->time_percent);
    td_num(out, "%.4f", k->timed ? k->total_ms : NAN);
    td_num(out, "%.4f", k->timed ? k->total_ms / (double)k->timed : NAN);
    td_num(out, "%.4f", k->min_ms);
    td_num(out, "%.4f", k->max_ms);
    metric_cells(out, &v->avg[i], v->keys, v->n_keys);
    fputs("<td class=\"mono\">", out);
    gp_html_escape(out, k->kernel);
    fputs("</td></tr>\n", out);
}

static void exec_table(FILE *out, const exec_view *v)
{
    static const char *const titles[] = {"calls", "profiled", "time %", "total_ms", "avg_ms",
                                         "min_ms", "max_ms"};
    fputs("<h2>Kernels</h2>\n<table class=\"kernels\"><tr>", out);
    th_list(out, titles, sizeof titles / sizeof titles[0], 0);
    metric_titles(out, v->keys, v->key_labels, v->n_keys);
    fputs("<th>kernel</th></tr>\n", out);
    for (size_t i = 0; i < v->nk; i++)
        exec_kernel_row(out, v, i);
    fputs("</table>\n<p class=\"note\">Metrics: the average over each kernel's profiled "
          "launches.</p>\n", out);
}

static int exec_page(FILE *out, const exec_view *v)
{
    exec_header(out, v->r);
    exec_glance(out, v);
    if (!v->nk)
        return GP_OK;
    GP_TRY(exec_time_chart(out, v));
    GP_TRY(metric_section(out, exec_metric_rows, v, &v->r->profiler,
                          gp_exec_profiled(&v->r->exec) > 0));
    exec_table(out, v);
    return GP_OK;
}

static int render_exec_html(FILE *out, const gp_report *r)
{
    exec_view v;
    GP_TRY(exec_view_init(&v, r));
    char title[GP_TEXT_LEN];
    snprintf(title, sizeof title, "gpuprof exec %s",
             r->exec.argc ? r->exec.argv[0] : "");
    page_start(out, title);
    const int rc = exec_page(out, &v);
    page_end(out);
    exec_view_free(&v);
    return rc;
}

/* ---- compare: before and after ------------------------------------------------------------- */

static void compare_side(FILE *out, const char *term, const char *file, const gp_report *r)
{
    char text[GP_TEXT_LEN + GP_NAME_LEN + 128];
    char dev[GP_NAME_LEN + 96] = "no GPU recorded";
    if (r->is_exec && r->exec.n_devices)
        describe_device(dev, sizeof dev, &r->exec.devices[0]);
    else if (r->has_device)
        describe_device(dev, sizeof dev, &r->device);
    snprintf(text, sizeof text, "%s: gpuprof %s %s on %s", file, r->tool_version, r->command,
             dev);
    dd_text(out, term, text);
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
    dd_text(out, "gpuprof", GPUPROF_VERSION);
    compare_side(out, "base", c->base_file, c->base);
    compare_side(out, "new", c->next_file, c->next);
    char text[GP_TEXT_LEN];
    snprintf(text, sizeof text, "a change of the median time is significant beyond %g %% and "
             "beyond both runs' noise (the bound column)", c->threshold_pct);
    dd_text(out, "threshold", text);
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
static const char *verdict_class(gp_change v)
{
    return v == GP_CHANGE_SLOWER ? "significant slower"
           : v == GP_CHANGE_FASTER ? "significant faster" : "same";
}

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
    char (*markers)[GP_SVG_VALUE_LEN];
    size_t n;
} compare_rows;

static void compare_rows_free(compare_rows *cr)
{
    free(cr->rows);
    free(cr->labels);
    free(cr->markers);
}

/* The keys every matched row has with the same value ("reduce", "int32", "size=…"): the
 * chart's labels leave them to its caption, so that the labels keep what differs. */
typedef struct {
    const gp_compare_key *keys[GP_COMPARE_MAX_KEYS];
    size_t n;
} common_keys;

static bool row_has_key(const gp_compare_row *row, const gp_compare_key *key)
{
    for (size_t k = 0; k < row->n_keys; k++)
        if (strcmp(row->keys[k].name, key->name) == 0 &&
            strcmp(row->keys[k].value, key->value) == 0)
            return true;
    return false;
}

static void find_common(const gp_comparison *c, common_keys *ck)
{
    ck->n = 0;
    const gp_compare_row *first = NULL;
    for (size_t i = 0; i < c->n_rows && !first; i++)
        first = matched(&c->rows[i]) ? &c->rows[i] : NULL;
    for (size_t k = 0; first && k < first->n_keys; k++) {
        bool everywhere = true;
        for (size_t i = 0; i < c->n_rows && everywhere; i++)
            everywhere = !matched(&c->rows[i]) || row_has_key(&c->rows[i], &first->keys[k]);
        if (everywhere)
            ck->keys[ck->n++] = &first->keys[k];
    }
}

static bool is_common(const common_keys *ck, const gp_compare_key *key)
{
    for (size_t i = 0; i < ck->n; i++)
        if (strcmp(ck->keys[i]->name, key->name) == 0 &&
            strcmp(ck->keys[i]->value, key->value) == 0)
            return true;
    return false;
}

/* As gp_compare_label writes a key: "reduce", "int32", "size=16777216". */
static void append_key(char *buf, size_t len, const gp_compare_key *k)
{
    const bool bare = strcmp(k->name, "family") == 0 || strcmp(k->name, "variant") == 0 ||
                      strcmp(k->name, "type") == 0 || strcmp(k->name, "kernel") == 0;
    appendf(buf, len, "%s%s%s%s", buf[0] ? " " : "", bare ? "" : k->name, bare ? "" : "=",
            k->value);
}

/* gp_compare_label's words: those every row shares (`common`), or the others. */
static void label_keys(const common_keys *ck, const gp_compare_row *row, bool common,
                       char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < row->n_keys; i++) {
        const gp_compare_key *k = &row->keys[i];
        if (is_common(ck, k) != common)
            continue;
        append_key(buf, len, k);
    }
    if (!common && !buf[0])
        gp_compare_label(row, buf, len);
}

static void fill_compare_row(const common_keys *ck, const gp_compare_row *row,
                             gp_svg_row *out, char *label, char *marker)
{
    label_keys(ck, row, false, label, GP_COMPARE_LABEL_LEN);
    verdict_marker(marker, GP_SVG_VALUE_LEN, row);
    out->label = label;
    out->marker = marker;
    out->row_class = verdict_class(row->verdict);
    const gp_compare_side *sides[2] = {&row->base, &row->next};
    for (size_t s = 0; s < 2; s++) {
        out->values[s] = sides[s]->time_ms;
        fmt_num(out->value_text[s], GP_SVG_VALUE_LEN, "%.4f ms", sides[s]->time_ms);
    }
}

static int compare_rows_make(const gp_comparison *c, compare_rows *cr)
{
    const size_t n = n_matched(c) + 1;
    cr->rows = calloc(n, sizeof *cr->rows);
    cr->labels = calloc(n, sizeof *cr->labels);
    cr->markers = calloc(n, sizeof *cr->markers);
    cr->n = 0;
    if (!cr->rows || !cr->labels || !cr->markers) {
        compare_rows_free(cr);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    common_keys ck;
    find_common(c, &ck);
    for (size_t i = 0; i < c->n_rows; i++)
        if (matched(&c->rows[i]) && cr->n + 1 < n) {
            fill_compare_row(&ck, &c->rows[i], &cr->rows[cr->n], cr->labels[cr->n],
                             cr->markers[cr->n]);
            cr->n++;
        }
    return GP_OK;
}

static void common_caption(FILE *out, const gp_comparison *c)
{
    common_keys ck;
    find_common(c, &ck);
    char words[GP_COMPARE_LABEL_LEN] = "";
    for (size_t i = 0; i < ck.n; i++)
        append_key(words, sizeof words, ck.keys[i]);
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
    figure_start(out, "compare");
    gp_svg_bar_chart(out, &chart);
    fputs("<figcaption>Each result's median time in the base report (upper bar) and the new "
          "one (lower bar): <span class=\"key slower\">\xe2\x96\xb2 significantly "
          "slower</span>, <span class=\"key faster\">\xe2\x96\xbc significantly "
          "faster</span>, <span class=\"key same\">within the bound</span>.", out);
    common_caption(out, c);
    fputs("</figcaption>\n</figure>\n", out);
    compare_rows_free(&cr);
    return GP_OK;
}

static double side_metric(const gp_compare_side *s, const char *key)
{
    for (size_t i = 0; i < s->n_metrics; i++)
        if (strcmp(s->metrics[i].key, key) == 0)
            return s->metrics[i].valid ? s->metrics[i].value : NAN;
    return NAN;
}

/* The metrics that changed by more than the threshold, as the text output lists them. */
static void changed_metrics(FILE *out, const gp_compare_row *row, double threshold_pct)
{
    fputs("<td>", out);
    for (size_t m = 0; m < row->base.n_metrics; m++) {
        const gp_metric_value *v = &row->base.metrics[m];
        const double b = side_metric(&row->base, v->key), n = side_metric(&row->next, v->key);
        const double ch = b != 0 ? 100.0 * (n - b) / fabs(b) : NAN;
        if (!(fabs(ch) > threshold_pct) && !(b == 0 && n != 0))
            continue;
        gp_html_escape(out, v->key);
        fprintf(out, " %.4g\xe2\x86\x92%.4g ", b, n);
        gp_html_escape(out, v->unit);
        fputs("<br>", out);
    }
    fputs("</td>", out);
}

static void compare_row(FILE *out, const gp_compare_row *row, double threshold_pct)
{
    char label[GP_COMPARE_LABEL_LEN];
    gp_compare_label(row, label, sizeof label);
    const char *arrow = row->verdict == GP_CHANGE_SLOWER ? "\xe2\x96\xb2 "
                        : row->verdict == GP_CHANGE_FASTER ? "\xe2\x96\xbc " : "";
    fprintf(out, "<tr class=\"%s\"><td class=\"verdict\">%s%s</td>",
            verdict_class(row->verdict), arrow, gp_change_name(row->verdict));
    td_num(out, "%+.1f", row->change_pct);
    td_num(out, "%.1f", row->bound_pct);
    td_num(out, "%.4f", row->base.time_ms);
    td_num(out, "%.4f", row->next.time_ms);
    td_num(out, "%.1f", row->base.noise_pct);
    td_num(out, "%.1f", row->next.noise_pct);
    td_num(out, "%.1f", row->base.gbps);
    td_num(out, "%.1f", row->next.gbps);
    td_text(out, label);
    changed_metrics(out, row, threshold_pct);
    fputs("</tr>\n", out);
}

static void compare_table(FILE *out, const gp_comparison *c)
{
    static const char *const titles[] = {"verdict", "change %", "bound %", "base ms",
                                         "new ms", "base noise %", "new noise %",
                                         "base GB/s", "new GB/s", "result", "metrics changed"};
    fputs("<table class=\"compare\"><tr>", out);
    th_list(out, titles, 1, 1);
    th_list(out, titles + 1, 8, 0);
    th_list(out, titles + 9, 2, 2);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < c->n_rows; i++)
        if (matched(&c->rows[i]))
            compare_row(out, &c->rows[i], c->threshold_pct);
    fputs("</table>\n", out);
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
        gp_compare_label(row, label, sizeof label);
        fputs("<tr>", out);
        td_text(out, label);
        td_num(out, "%.4f", s->time_ms);
        td_num(out, "%.1f", s->gbps);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static int compare_page(FILE *out, const gp_comparison *c)
{
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

int gp_render_compare_html(FILE *out, const gp_comparison *c)
{
    char title[GP_TEXT_LEN * 2];
    snprintf(title, sizeof title, "gpuprof compare %s %s", c->base_file, c->next_file);
    page_start(out, title);
    const int rc = compare_page(out, c);
    page_end(out);
    return rc;
}
