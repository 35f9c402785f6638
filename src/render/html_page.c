/* The HTML pages' common part (issue 21): each page is one self-contained file that opens
 * offline in any browser. No scripts, no fonts, nothing fetched: the style is inline, the
 * charts are inline SVG (svg.c) and a Content-Security-Policy blocks, and makes the browser
 * log, anything that would load. Charts first, for the reading at a glance; under them tables
 * with the exact numbers. Here: the page around them, the cells of their tables, lines of
 * their headers, the lines across bandwidth charts and the memory-access charts both
 * reports' pages draw (render/html_page.h). */
#include "render/html_page.h"

#include "gpuprof/metrics.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    "th{background:#f2f2f2;font-weight:600}td.num,th.num{text-align:right;padding:2px 6px;"
    "font-variant-numeric:tabular-nums}tr.launch td{color:#666}tr.failed td{color:#b00020}"
    "tr.slower td.verdict{color:#b00020;font-weight:700}"
    "tr.faster td.verdict{color:#00704f;font-weight:700}\n"
    ".glance,dl.meta dd,figcaption,h3{overflow-wrap:anywhere}"
    ".table-wrap{max-width:100%;overflow-x:auto}td.kernel{min-width:12em;max-width:36em;"
    "overflow-wrap:anywhere}td.kernel .full{color:#666;font-size:11px}td.wrap{overflow-wrap:"
    "anywhere;min-width:12em}svg .whisker line{stroke:#1b1b1b;stroke-width:1.3}\n"
    ".multiples{display:flex;flex-wrap:wrap;gap:4px 26px}.multiple-title{font-weight:600;"
    "margin:4px 0 0}svg .cell-value{font-size:11.5px;fill:#111}svg .cell-value.on-dark{fill:#fff}"
    "svg rect.cell.none{fill:#f4f4f4}\n"
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

int gp_html_page(FILE *out, const char *title, gp_html_body *body, const void *ctx)
{
    page_start(out, title);
    const int rc = body(out, ctx);
    page_end(out);
    return rc;
}

/* ---- cells ------------------------------------------------------------------------------- */

/* A number with printf's format, "-" when unknown. */
void gp_html_fmt_num(char *buf, size_t len, const char *fmt, double v)
{
    if (isfinite(v))
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "-");
}

/* printf at the end of what the buffer holds. */
void gp_html_appendf(char *buf, size_t len, const char *fmt, ...)
{
    const size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

void gp_html_td_num(FILE *out, const char *fmt, double v)
{
    char cell[48];
    gp_html_fmt_num(cell, sizeof cell, fmt, v);
    fprintf(out, "<td class=\"num\">%s</td>", cell);
}

void gp_html_th_list(FILE *out, const char *const *titles, size_t n, size_t first_num)
{
    for (size_t i = 0; i < n; i++) {
        fputs(i >= first_num ? "<th class=\"num\">" : "<th>", out);
        gp_html_escape(out, titles[i]);
        fputs("</th>", out);
    }
}

void gp_html_dd_text(FILE *out, const char *term, const char *text)
{
    fprintf(out, "<dt>%s</dt><dd>", term);
    gp_html_escape(out, text);
    fputs("</dd>\n", out);
}

void gp_html_metric_cells(FILE *out, const gp_metric_set *s, const char *const *keys,
                          size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char cell[32];
        gp_metric_value_text(cell, sizeof cell, gp_metric_set_value(s, keys[i]));
        fprintf(out, "<td class=\"num\">%s</td>", cell);
    }
}

void gp_html_metric_titles(FILE *out, const char *const *keys, const char *const *labels,
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

int gp_html_numbered_labels(const gp_kernel_labels *kl, size_t n, gp_html_label **out)
{
    *out = calloc(n + 1, sizeof **out);
    if (!*out)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    for (size_t i = 0; i < n; i++)
        snprintf((*out)[i], GP_HTML_LABEL_LEN, "#%zu %s", i + 1,
                 gp_kernel_labels_label(kl, i + 1));
    return GP_OK;
}

void gp_html_kernel_cell(FILE *out, const char *full, const char *label, const char *after,
                         bool always)
{
    fputs("<td class=\"kernel\" title=\"", out);
    gp_html_escape(out, full);
    fputs("\"><b>", out);
    gp_html_escape(out, label);
    fputs("</b>", out);
    fputs(after ? after : "", out);
    const char *after_number = strchr(label, ' ');
    if (always || strcmp(full, after_number ? after_number + 1 : label) != 0) {
        fputs("<div class=\"full mono\">", out);
        gp_html_escape(out, full);
        fputs("</div>", out);
    }
    fputs("</td>", out);
}

/* ---- the header ---------------------------------------------------------------------------- */

void gp_html_code_line(FILE *out, const char *term, char *const *argv, size_t n,
                       const char *none, const char *file)
{
    fprintf(out, "<dt>%s</dt><dd><code>", term);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(' ', out);
        gp_html_escape(out, argv[i]);
    }
    if (!n && none)
        fputs(none, out);
    fputs("</code>", out);
    if (file) {
        fputs(" (", out);
        gp_html_escape(out, file);
        fputc(')', out);
    }
    fputs("</dd>\n", out);
}

void gp_html_gpus(FILE *out, const gp_exec_info *e)
{
    for (size_t i = 0; i < e->n_devices; i++) {
        char dev[GP_NAME_LEN + 96], term[32];
        gp_device_describe(dev, sizeof dev, &e->devices[i]);
        snprintf(term, sizeof term, "GPU %d", e->devices[i].index);
        gp_html_dd_text(out, term, dev);
    }
}

void gp_html_profiler_line(FILE *out, const gp_profiler_info *p, const char *replay)
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
    gp_html_dd_text(out, "metrics", text);
}

void gp_html_warnings(FILE *out, const gp_report *r)
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

/* ---- charts: their figures, the lines across those of bandwidth ---------------------------- */

void gp_html_figure_start(FILE *out, const char *id)
{
    fprintf(out, "<figure class=\"chart chart-%s\" id=\"chart-%s\">\n", id, id);
}

const gp_device_info *gp_html_result_device(const gp_report *r, const gp_result *res)
{
    if (r->n_sources && res->input < r->n_sources)
        return r->sources[res->input].has_device ? &r->sources[res->input].device : NULL;
    return r->has_device ? &r->device : NULL;
}

static size_t add_refline(gp_svg_refline *lines, size_t n, double value, const char *cls,
                          const char *what, const char *suffix)
{
    for (size_t i = 0; i < n; i++)
        if (lines[i].value == value && strcmp(lines[i].cls, cls) == 0)
            return n;
    if (n == GP_HTML_MAX_REFLINES || !(value > 0))
        return n;
    lines[n].value = value;
    lines[n].cls = cls;
    snprintf(lines[n].label, sizeof lines[n].label, "%s %.0f GB/s%s", what, value, suffix);
    return n + 1;
}

size_t gp_html_device_reflines(const gp_device_info *d, const char *suffix,
                               gp_svg_refline *lines, size_t n)
{
    n = add_refline(lines, n, d->peak_gbps, "peak", "peak", suffix);
    if (d->copy_gbps >= 0)
        n = add_refline(lines, n, d->copy_gbps, "copy", "measured copy", suffix);
    return n;
}

/* ---- the metrics, side by side ------------------------------------------------------------- */

struct gp_html_metric_chart {
    const char *id;
    const char *keys[2];
    const char *series[2];
    const char *axis;
    double max;                      /* 0: from the data */
    const char *caption;
};

static const gp_html_metric_chart metric_charts[] = {
    {"efficiency", {"gld_efficiency", "gst_efficiency"},
     {"loads (gld_efficiency)", "stores (gst_efficiency)"},
     "efficiency, % of the sectors' bytes used", 100,
     "Global load and store efficiency: of the bytes the 32-byte sectors moved, the share the "
     "kernel asked for. 100 % = nothing wasted."},
    {"transactions", {"gld_transactions_per_request", "gst_transactions_per_request"},
     {"loads (gld)", "stores (gst)"},
     "sectors per request (ideal: 4 for 4-byte words, 16 for 16-byte)", 0,
     "Global memory sectors per load and store request (per warp-level instruction). The ideal "
     "follows the access width: 4 for a warp's 32 coalesced 4-byte words, 16 for 16-byte "
     "vectors (the tables' ideal columns give each kernel's); up to 32 when every thread "
     "touches its own sector."},
    {"shared", {"shared_load_transactions_per_request", "shared_store_transactions_per_request"},
     {"loads", "stores"}, "shared-memory wavefronts per instruction (1 = no bank conflicts)", 0,
     "Shared-memory wavefronts per load and store instruction: 1 without bank conflicts for "
     "4-byte words (4 for 16-byte vectors), n for an n-way conflict."},
};

void gp_html_metric_bars(gp_svg_row *row, const gp_metric_set *set,
                         const gp_html_metric_chart *mc)
{
    for (size_t s = 0; s < 2; s++) {
        const gp_metric_value *m = gp_metric_set_value(set, mc->keys[s]);
        row->values[s] = m && m->valid ? m->value : NAN;
        gp_metric_value_text(row->value_text[s], GP_SVG_VALUE_LEN, m);
        if (m && m->valid && strcmp(m->unit, "%") == 0)
            gp_html_appendf(row->value_text[s], GP_SVG_VALUE_LEN, " %%");
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
static int one_metric_chart(FILE *out, const gp_html_metric_chart *mc, gp_svg_row *rows,
                            size_t n)
{
    if (!chart_has_values(rows, n))
        return GP_OK;
    const size_t all = n;
    n = drop_empty_rows(rows, n);
    const gp_svg_bars chart = {.title = mc->caption, .axis_title = mc->axis,
                               .series = {mc->series[0], mc->series[1]}, .n_series = 2,
                               .rows = rows, .n_rows = n, .max = mc->max, .width = 600};
    gp_html_figure_start(out, mc->id);
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

int gp_html_metric_section(FILE *out, gp_html_metric_rows build, const void *ctx,
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
