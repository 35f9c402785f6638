/* The HTML page of a gpuprof exec report (render/html_page.h has what the pages share): time
 * per kernel, each kernel's DRAM bandwidth against the GPU's peak, the memory-access metrics
 * of the kernels that took most, the per-kernel table, --source's lines (html_source.c).
 * Kernels are labelled as in every view (gpuprof/kernel_labels.h, the short style), the full
 * name on hover and in the table. */
#include "render/html.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/exec_graph.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/html_activities.h"
#include "render/html_graph.h"
#include "render/html_page.h"
#include "render/html_ranges.h"
#include "render/html_stalls.h"
#include "render/html_source.h"
#include "render/part.h"
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXEC_TOP 20                  /* kernels in the exec time chart */

/* ---- exec reports: the program's kernels ----------------------------------------------------- */

typedef struct {
    const gp_report *r;
    gp_exec_kernel *k;               /* the most time first */
    size_t nk;
    gp_metric_set *avg;              /* per kernel: its metrics' averages over its launches */
    gp_metric_value *values;
    gp_html_label *labels;           /* per kernel: "#3 label" */
    const char *keys[GP_TEXT_MAX_COLUMNS], *key_labels[GP_TEXT_MAX_COLUMNS];
    size_t n_keys;
    gp_kernel_rows rows;             /* the summary's part: graph nodes, estimates */
    bool by_range;                   /* --by-range: the ranges' table after the glance */
} exec_view;

static void exec_view_free(exec_view *v)
{
    gp_exec_summary_free(v->k, v->nk);
    free(v->avg);
    free(v->values);
    free(v->labels);
    gp_kernel_rows_free(&v->rows);
}

/* Each kernel's label after its number, #N as every view numbers it (the summary's order). */
static int number_labels(exec_view *v)
{
    gp_kernel_labels kl;
    GP_TRY(gp_kernel_labels_init(&kl, v->k, v->nk, GP_KERNEL_NAME_SHORT));
    const int rc = gp_html_numbered_labels(&kl, v->nk, &v->labels);
    gp_kernel_labels_free(&kl);
    return rc;
}

static int exec_view_init(exec_view *v, const gp_report *r)
{
    memset(v, 0, sizeof *v);
    v->r = r;
    GP_TRY(gp_exec_summarize(&r->exec, &v->k, &v->nk));
    int rc = gp_exec_kernel_averages(v->k, v->nk, &v->avg, &v->values);
    rc = rc ? rc : number_labels(v);
    rc = rc ? rc : gp_kernel_rows_init(&v->rows, r, v->k, v->nk, NULL);
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

/* A merged file's program that an older gpuprof did not record. */
#define NOT_RECORDED "not recorded (merged by an older gpuprof)"

/* The program, or of a merged report every file's program, so that none goes unnamed. */
static void exec_program(FILE *out, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    if (r->n_sources > 1)
        for (size_t i = 0; i < r->n_sources; i++) {
            char term[32];
            snprintf(term, sizeof term, "program %zu", i + 1);
            gp_html_code_line(out, term, r->sources[i].program, r->sources[i].program_len,
                              NOT_RECORDED, r->sources[i].file);
        }
    else
        gp_html_code_line(out, "program", e->argv, e->argc, NOT_RECORDED, NULL);
    char text[128];
    if (e->signal)
        snprintf(text, sizeof text, "killed by signal %d (exit status %d)", e->signal,
                 e->exit_status);
    else
        snprintf(text, sizeof text, "exit status %d", e->exit_status);
    gp_html_dd_text(out, "ended", text);
    snprintf(text, sizeof text, "%zu kernel launch%s in %zu process%s", e->n_launches,
             e->n_launches == 1 ? "" : "es", e->processes, e->processes == 1 ? "" : "es");
    gp_html_dd_text(out, "ran", text);
    if (e->rank.known) {
        gp_exec_describe_rank(&e->rank, "", text, sizeof text);
        gp_html_dd_text(out, "distributed job", text);
    }
}

static void exec_header(FILE *out, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    fputs("<header>\n<h1>gpuprof exec ", out);
    gp_html_escape(out, e->argc ? e->argv[0] : "");
    fputs("</h1>\n<dl class=\"meta\">\n", out);
    gp_html_dd_text(out, "gpuprof", r->tool_version);
    gp_html_code_line(out, "command", r->command_line, r->command_line_len, NULL, NULL);
    exec_program(out, r);
    gp_html_gpus(out, e);
    char times[128];
    snprintf(times, sizeof times, "from CUPTI's activity records (of a profiled kernel, its "
             "counters); %zu of %zu launches profiled", gp_exec_profiled(e), e->n_launches);
    gp_html_dd_text(out, "times", times);
    char graphs[1024];
    if (gp_exec_graph_summary(graphs, sizeof graphs, e))
        gp_html_dd_text(out, "CUDA graphs", graphs);
    char how[160], replay[200];
    gp_exec_describe_replay(&r->profiler, how, sizeof how);
    snprintf(replay, sizeof replay, "%s, the program's own cache state", how);
    gp_html_profiler_line(out, &r->profiler, replay);
    char footprint[512];
    if (r->profiler.state == GP_PROF_OK &&
        gp_exec_describe_footprint(&r->profiler, footprint, sizeof footprint))
        gp_html_dd_text(out, "replay", footprint);
    fputs("</dl>\n", out);
    gp_html_warnings(out, r);
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
    fprintf(out, "%zu kernel%s. Most time: <b title=\"", v->nk, v->nk == 1 ? "" : "s");
    gp_html_escape(out, k->kernel);
    fputs("\">", out);
    gp_html_escape(out, v->labels[0]);
    if (k->total_estimated)
        fprintf(out, "</b>, ~%.4f ms in %zu calls, estimated from %zu timed (%.1f %% of the "
                "kernels' time).</p>\n", k->total_ms, k->calls, k->timed, k->time_percent);
    else if (k->timed)
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
    for (size_t i = 0; rows && i < exec_top(v); i++) {
        rows[i].label = v->labels[i];
        rows[i].full = v->k[i].kernel;
    }
    return rows;
}

static int exec_time_chart(FILE *out, const exec_view *v)
{
    gp_svg_row *rows = exec_rows(v);
    if (!rows)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    for (size_t i = 0; i < exec_top(v); i++) {
        const gp_exec_kernel *k = &v->k[i];
        rows[i].values[0] = k->total_ms;
        snprintf(rows[i].value_text[0], GP_SVG_VALUE_LEN, "%s%.4f ms \xc2\xb7 %.1f %% \xc2\xb7 "
                 "%zu call%s", k->total_estimated ? "~" : "", k->timed ? k->total_ms : 0.0,
                 isfinite(k->time_percent) ? k->time_percent : 0.0, k->calls,
                 k->calls == 1 ? "" : "s");
    }
    const gp_svg_bars chart = {.title = "Total time per kernel, ms",
                               .axis_title = "total time of the kernel's launches, ms",
                               .n_series = 1, .rows = rows, .n_rows = exec_top(v)};
    fputs("<h2>Time per kernel</h2>\n", out);
    gp_html_figure_start(out, "exec-time");
    gp_svg_bar_chart(out, &chart);
    fprintf(out, "<figcaption>Total time of each kernel, its launches at the mean of the timed "
                 "ones, the most first%s; the share is of all kernels' time.%s</figcaption>\n"
                 "</figure>\n",
            v->nk > EXEC_TOP ? " (the 20 that took most; the table has them all)" : "",
            v->rows.ctx.estimated ? " ~: some launches were not timed (see the table)." : "");
    free(rows);
    return GP_OK;
}

/* ---- bandwidth against the GPU's peak ------------------------------------------------------- */

/* The throughput a kernel's bar shows: DRAM's when measured, else the best there is. */
typedef struct {
    const char *key;
    const char *what;                /* the axis and the caption say what the bars are */
} throughput_metric;

static const throughput_metric throughput_metrics[] = {
    {"dram_throughput", "DRAM bandwidth (bytes read and written in DRAM / kernel time)"},
    {"gld_throughput", "global load throughput (L1; the report has no DRAM bandwidth)"},
    {"gst_throughput", "global store throughput (L1; the report has no DRAM bandwidth)"},
};

/* The kernel's statistics of a metric whose average has a value; NULL where none. */
static const gp_metric_stats *kernel_stat(const gp_exec_kernel *k, const char *key)
{
    const gp_metric_stats *s = gp_kernel_metric(k, key);
    return s && s->average.valid ? s : NULL;
}

/* The first of throughput_metrics that any kernel has; NULL when none does. */
static const throughput_metric *chosen_throughput(const exec_view *v)
{
    for (size_t t = 0; t < sizeof throughput_metrics / sizeof throughput_metrics[0]; t++)
        for (size_t i = 0; i < v->nk; i++)
            if (kernel_stat(&v->k[i], throughput_metrics[t].key))
                return &throughput_metrics[t];
    return NULL;
}

/* The GPU a kernel ran on: its first launch's; NULL when the report has none. */
static const gp_device_info *kernel_device(const gp_exec_info *e, const char *kernel)
{
    for (size_t i = 0; i < e->n_launches; i++) {
        if (strcmp(e->launches[i].kernel, kernel) != 0)
            continue;
        for (size_t d = 0; d < e->n_devices; d++)
            if (e->devices[d].index == e->launches[i].device)
                return &e->devices[d];
        break;
    }
    return e->n_devices ? &e->devices[0] : NULL;
}

static void fill_throughput(const exec_view *v, size_t i, const throughput_metric *tm,
                            gp_svg_row *row)
{
    const gp_metric_stats *st = kernel_stat(&v->k[i], tm->key);
    row->values[0] = st ? st->average.value : NAN;
    if (!st)
        return;
    const gp_device_info *d = kernel_device(&v->r->exec, v->k[i].kernel);
    snprintf(row->value_text[0], GP_SVG_VALUE_LEN, "%.1f GB/s", st->average.value);
    if (d && d->peak_gbps > 0)
        gp_html_appendf(row->value_text[0], GP_SVG_VALUE_LEN, " \xc2\xb7 %.1f %% of peak",
                        100 * st->average.value / d->peak_gbps);
    if (st->min.valid && st->max.valid && st->min.value < st->max.value) {
        row->lo[0] = st->min.value;
        row->hi[0] = st->max.value;
        snprintf(row->whisker_text[0], GP_SVG_VALUE_LEN, "launches from %.1f to %.1f GB/s",
                 st->min.value, st->max.value);
    }
}

static size_t exec_reflines(const gp_exec_info *e, gp_svg_refline *lines)
{
    size_t n = 0;
    for (size_t d = 0; d < e->n_devices; d++) {
        char suffix[24] = "";
        if (e->n_devices > 1)
            snprintf(suffix, sizeof suffix, " (GPU %d)", e->devices[d].index);
        n = gp_html_device_reflines(&e->devices[d], suffix, lines, n);
    }
    return n;
}

static void peak_words(FILE *out, const gp_exec_info *e)
{
    for (size_t d = 0; d < e->n_devices; d++) {
        fprintf(out, "%s", d ? "; " : "");
        gp_html_escape(out, e->devices[d].name);
        fprintf(out, ": peak %.1f GB/s", e->devices[d].peak_gbps);
    }
}

/* A copy or memset kind's bar: its bytes over its total time, no whisker (a total). */
static void fill_copy(const gp_activity_row *c, gp_svg_row *row)
{
    row->label = row->full = gp_activity_title(c->kind);
    row->row_class = "copy";
    row->values[0] = gp_activity_gbps(c);
    if (isfinite(row->values[0]))
        snprintf(row->value_text[0], GP_SVG_VALUE_LEN, "%.1f GB/s \xc2\xb7 %zu call%s",
                 row->values[0], c->calls, c->calls == 1 ? "" : "s");
}

static void bandwidth_caption(FILE *out, const exec_view *v, const throughput_metric *tm,
                              size_t n_copies)
{
    fputs("<figcaption>", out);
    if (tm) {
        fputs("Each kernel's ", out);
        gp_html_escape(out, tm->key);
        fputs(", the average over its profiled launches, and its share of the GPU's peak (",
              out);
        peak_words(out, &v->r->exec);
        fputs("; 2 \xc3\x97 memory clock \xc3\x97 bus width). The whisker spans the lowest to "
              "the highest launch; n/a: no value (the kernel was not profiled, or not for this "
              "metric).", out);
    }
    if (n_copies) {
        fputs(tm ? " Below the kernels, each kind" : "Each kind", out);
        fputs(" of copy and memset: its bytes over its total time (copies between host and "
              "device are bounded by the host link, not by DRAM).", out);
    }
    fputs("</figcaption>\n</figure>\n", out);
}

static int exec_bandwidth_chart(FILE *out, const exec_view *v)
{
    fputs("<h2>Bandwidth against the peak</h2>\n", out);
    const throughput_metric *tm = chosen_throughput(v);
    gp_activity_row *copies = NULL;
    size_t nc = 0;
    GP_TRY(gp_exec_activity_rows(&v->r->exec, &copies, &nc));
    if (!tm && !nc) {
        fputs("<p class=\"note\">No bandwidth chart: no kernel has a throughput metric "
              "(dram_throughput is in the default metric set).</p>\n", out);
        return GP_OK;
    }
    const size_t nk = tm ? exec_top(v) : 0;
    gp_svg_row *rows = calloc(nk + nc + 1, sizeof *rows);
    if (!rows) {
        free(copies);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    for (size_t i = 0; i < nk; i++) {
        rows[i].label = v->labels[i];
        rows[i].full = v->k[i].kernel;
        fill_throughput(v, i, tm, &rows[i]);
    }
    for (size_t i = 0; i < nc; i++)
        fill_copy(&copies[i], &rows[nk + i]);
    gp_svg_refline lines[GP_HTML_MAX_REFLINES];
    char axis[192];
    snprintf(axis, sizeof axis, "%s, GB/s", tm ? tm->what : "copies' and memsets' bytes / time");
    const gp_svg_bars chart = {.title = "Bandwidth of each kernel against the GPU's peak",
                               .axis_title = axis, .n_series = 1, .rows = rows,
                               .n_rows = nk + nc, .lines = lines,
                               .n_lines = exec_reflines(&v->r->exec, lines)};
    gp_html_figure_start(out, "exec-bandwidth");
    gp_svg_bar_chart(out, &chart);
    bandwidth_caption(out, v, tm, nc);
    free(rows);
    free(copies);
    return GP_OK;
}

static gp_svg_row *exec_metric_rows(const void *ctx, const gp_html_metric_chart *mc,
                                    size_t *n)
{
    const exec_view *v = ctx;
    gp_svg_row *rows = exec_rows(v);
    for (size_t i = 0; rows && i < exec_top(v); i++)
        gp_html_metric_bars(&rows[i], &v->avg[i], mc);
    *n = exec_top(v);
    return rows;
}

static void exec_kernel_row(FILE *out, const exec_view *v, size_t i)
{
    gp_part_html_tr(out, &gp_kernels_part, &v->k[i], &v->rows.ctx);
    gp_html_metric_cells(out, &v->avg[i], v->keys, v->n_keys);
    gp_html_kernel_cell(out, v->k[i].kernel, v->labels[i], NULL, false);
    fputs("</tr>\n", out);
}

static void exec_table(FILE *out, const exec_view *v)
{
    const bool rotated = gp_exec_rotated(&v->r->profiler);
    fputs("<h2>Kernels</h2>\n<div class=\"table-wrap\"><table class=\"kernels\"><tr>", out);
    gp_part_html_headings(out, &gp_kernels_part, &v->rows.ctx);
    gp_html_metric_titles(out, v->keys, v->key_labels, v->n_keys);
    fputs("<th>kernel</th></tr>\n", out);
    for (size_t i = 0; i < v->nk; i++)
        exec_kernel_row(out, v, i);
    fputs("</table></div>\n<p class=\"note\">Metrics: the average over each kernel's profiled "
          "launches; hover over a column's title for what it measures.", out);
    if (rotated)
        fputs(" Passes: of the one-pass groups the counters were split into, those the "
              "kernel's launches collected; a metric whose inputs no single launch collected "
              "is derived from each input's mean over the launches that did.", out);
    if (v->rows.ctx.estimated) {
        fputs(" ~: ", out);
        gp_html_escape(out, GP_EXEC_ESTIMATE_NOTE);
        fputc('.', out);
    }
    char variants[512];
    if (gp_exec_describe_variants(v->k, v->nk, variants, sizeof variants)) {
        fputc(' ', out);
        gp_html_escape(out, variants);
        fputc('.', out);
    }
    fputs("</p>\n", out);
}

static int exec_page(FILE *out, const void *ctx)
{
    const exec_view *v = ctx;
    exec_header(out, v->r);
    exec_glance(out, v);
    if (v->by_range)
        GP_TRY(gp_html_ranges(out, v->r));
    GP_TRY(gp_html_activities(out, v->r));
    if (!v->nk)
        return GP_OK;
    GP_TRY(exec_time_chart(out, v));
    GP_TRY(exec_bandwidth_chart(out, v));
    GP_TRY(gp_html_metric_section(out, exec_metric_rows, v, &v->r->profiler,
                                  gp_exec_profiled(&v->r->exec) > 0));
    exec_table(out, v);
    GP_TRY(gp_html_stalls(out, v->r));
    GP_TRY(gp_html_graph_nodes(out, v->r));
    return gp_html_exec_source(out, v->r);
}

int gp_html_exec(FILE *out, const gp_report *r, const gp_render_options *o)
{
    exec_view v;
    GP_TRY(exec_view_init(&v, r));
    v.by_range = o && o->by_range;
    char title[GP_TEXT_LEN];
    snprintf(title, sizeof title, "gpuprof exec %s",
             r->exec.argc ? r->exec.argv[0] : "");
    const int rc = gp_html_page(out, title, exec_page, &v);
    exec_view_free(&v);
    return rc;
}
