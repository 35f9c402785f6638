/* Text output for people, every line within 120 columns unless --wide (render/text_layout.c).
 * Kernel reports: a header with the GPU and the run's configuration and a legend of the short
 * metric headers, a heading per problem and one aligned row per result with a column per
 * metric measured, per-launch rows for multi-kernel workloads, optional long metric form
 * (exec reports: text_exec.c). The catalogue commands: list, device, metrics. (Compare:
 * text_compare.c.) */
#include "render/text.h"
#include "render/text_source.h"

#include "gpuprof/group.h"
#include "gpuprof/kernel_name.h"
#include "gpuprof/metrics.h"
#include "gpuprof/registry.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *power_of_two_note(uint64_t n, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int k = 1; k < 64; k++) {
        uint64_t p = (uint64_t)1 << k;
        if (p == n)
            snprintf(buf, len, " (2^%d)", k);
        else if (n > p && n - p < 1000 && n < (p << 1))
            snprintf(buf, len, " (2^%d+%llu)", k, (unsigned long long)(n - p));
    }
    return buf;
}

/* A problem's size as its heading gives it: "16777216 (2^24)", "4096x4096". */
static void format_size(char *buf, size_t len, const gp_result *r)
{
    char note[32];
    if (r->nx)
        snprintf(buf, len, "%ux%u", r->nx, r->ny);
    else
        snprintf(buf, len, "%llu%s", (unsigned long long)r->n,
                 power_of_two_note(r->n, note, sizeof note));
}

/* " on GPU 0: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, peak 3352.3 GB/s)", or that none is
 * known (a saved report whose device is null). */
static void describe_gpu(char *buf, size_t len, const gp_device_info *d)
{
    if (!d)
        snprintf(buf, len, ", no GPU recorded");
    else
        snprintf(buf, len, " on GPU %d: %s (sm_%d%d, %d SMs, peak %.1f GB/s)", d->index,
                 d->name, d->cc_major, d->cc_minor, d->multiprocessors, d->peak_gbps);
}

/* Merged reports: each file, numbered as the rows refer to it when they differ. */
static void print_sources(FILE *out, const gp_report *r, size_t width)
{
    char line[4 * GP_TEXT_LEN], gpu[2 * GP_NAME_LEN];
    snprintf(line, sizeof line, "gpuprof %s  report of %zu files%s", GPUPROF_VERSION,
             r->n_sources, gp_report_sources_differ(r) ? " from different GPUs or gpuprof "
                                                         "versions: each row says which [file]"
                                                       : "");
    gp_text_paragraph(out, line, width, 2);
    for (size_t i = 0; i < r->n_sources; i++) {
        const gp_report_source *src = &r->sources[i];
        describe_gpu(gpu, sizeof gpu, src->has_device ? &src->device : NULL);
        const int lead = fprintf(out, "  [%zu] %s:", i + 1, src->file);
        snprintf(line, sizeof line, "gpuprof %s %s%s", src->tool_version, src->command, gpu);
        gp_text_paragraph_from(out, lead > 0 ? (size_t)lead : 0, line, width, 6);
    }
}

static void print_header(FILE *out, const gp_report *r, size_t width)
{
    char line[4 * GP_TEXT_LEN], gpu[2 * GP_NAME_LEN];
    if (r->n_sources) {
        print_sources(out, r, width);
    } else {
        describe_gpu(gpu, sizeof gpu, r->has_device ? &r->device : NULL);
        snprintf(line, sizeof line, "gpuprof %s  %s%s", r->tool_version, r->command, gpu);
        gp_text_paragraph(out, line, width, 2);
    }
    snprintf(line, sizeof line, "time: median of %u runs after %u warm-up%s, L2 flushed before "
             "each", r->repeat, r->warmup, r->warmup == 1 ? "" : "s");
    gp_text_paragraph(out, line, width, 2);
    gp_text_paragraph(out, "GB/s: minimum bytes moved / median time; " GP_TEXT_UNITS, width,
                      2);
    int used = snprintf(line, sizeof line, "noise%%: the runs' spread, 1.4826 x median absolute "
                        "deviation / median");
    if (!isnan(r->max_noise_pct))
        snprintf(line + used, sizeof line - (size_t)used, "; repeated until at most %g %% "
                 "where possible", r->max_noise_pct);
    gp_text_paragraph(out, line, width, 2);
    const gp_profiler_info *p = &r->profiler;
    if (p->state == GP_PROF_OK)
        snprintf(line, sizeof line, "metrics: CUPTI range profiler on %s, %s set, %d passes "
                 "per kernel, caches flushed, clocks not locked", p->chip, p->metric_set,
                 p->passes);
    else if (p->state == GP_PROF_UNAVAILABLE)
        snprintf(line, sizeof line, "metrics: unavailable (%s)", p->reason);
    else
        return;
    gp_text_paragraph(out, line, width, 2);
}

/* ---- metric columns: every metric asked for, abbreviated with a legend unless --wide ---- */

#define MAX_METRIC_COLUMNS 256

typedef struct {
    gp_text_metric cols[MAX_METRIC_COLUMNS];
    size_t n;
    bool wide;
} metric_columns;

/* The columns over every result's and launch's metrics. */
static int find_metric_columns(const gp_report *r, bool wide, metric_columns *m)
{
    size_t n_sets = 0;
    for (size_t i = 0; i < r->n_results; i++)
        n_sets += 1 + r->results[i].n_launches;
    const gp_metric_set **sets = calloc(n_sets ? n_sets : 1, sizeof *sets);
    if (!sets)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t k = 0;
    for (size_t i = 0; i < r->n_results; i++) {
        sets[k++] = &r->results[i].metrics;
        for (size_t l = 0; l < r->results[i].n_launches; l++)
            sets[k++] = &r->results[i].launches[l].metrics;
    }
    /* The ideals beside the per-request values only where the table's width is free: the
     * default table already fills 120 columns (ld_eff% and st_eff% say how near the ideal
     * each value is). */
    const bool every = strcmp(r->profiler.metric_set, "default") != 0;
    const gp_metric_columns which = every ? GP_EVERY_METRIC
                                    : wide ? GP_TABLE_METRICS_IDEALS : GP_TABLE_METRICS;
    m->n = gp_text_table_metrics(sets, n_sets, which, m->cols, MAX_METRIC_COLUMNS);
    m->wide = wide;
    free(sets);
    return GP_OK;
}

/* "columns: gld/req gld_transactions_per_request, ...": what the short headers stand for. */
static void print_legend(FILE *out, const metric_columns *m, size_t width)
{
    if (m->wide || m->n == 0)
        return;
    char line[MAX_METRIC_COLUMNS * 64] = "columns:";
    size_t used = strlen(line);
    for (size_t i = 0; i < m->n && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%s %s = %s", i ? "," : "",
                                 m->cols[i].label, m->cols[i].key);
    gp_text_paragraph(out, line, width, 2);
}

/* Under the header, where a result is a library call: what its "-" grid and block mean. */
static void print_library_shape(FILE *out, const gp_report *r, size_t width)
{
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].block.x == 0) {
            gp_text_paragraph(out, "grid, block -: " GP_LIBRARY_SHAPE, width, 2);
            return;
        }
}

static void add_metric_titles(gp_text_table *t, const metric_columns *m)
{
    for (size_t i = 0; i < m->n; i++)
        gp_table_column(t, m->wide ? m->cols[i].key : m->cols[i].label, GP_COLUMN_RIGHT,
                        i == 0 ? 2 : 1);
}

static void add_metric_cells(gp_text_table *t, const gp_metric_set *s, const metric_columns *m)
{
    for (size_t i = 0; i < m->n; i++) {
        char cell[48];
        const gp_metric_value *v = gp_metric_set_value(s, m->cols[i].key);
        gp_metric_value_text(cell, sizeof cell, v);
        if (v && v->note[0]) /* the note itself: --metrics-detail, or the JSON */
            gp_table_cellf(t, "%s*", cell);
        else
            gp_table_cell(t, cell);
    }
}

/* Whether any value of the report carries a note (its cell is marked "*"). */
static bool has_notes(const gp_report *r)
{
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        for (size_t k = 0; k < res->metrics.n_metrics; k++)
            if (res->metrics.metrics[k].note[0])
                return true;
        for (size_t l = 0; l < res->n_launches; l++)
            for (size_t k = 0; k < res->launches[l].metrics.n_metrics; k++)
                if (res->launches[l].metrics.metrics[k].note[0])
                    return true;
    }
    return false;
}

/* ---- a problem's table: a row per result, and per launch of multi-kernel workloads ---- */

/* The results' columns (report/results_part.c), then a column per metric. */
static void add_result_columns(gp_text_table *t, const gp_results_context *ctx,
                               const metric_columns *m)
{
    gp_part_text_columns(t, &gp_results_part, ctx);
    add_metric_titles(t, m);
}

/* A result's row, and under it a row per kernel of a workload that launched several. */
static void add_result_row(gp_text_table *t, const gp_results_context *ctx,
                           const gp_result *res, const metric_columns *m)
{
    gp_part_text_row(t, &gp_results_part, &(gp_result_row){.result = res}, ctx);
    add_metric_cells(t, &res->metrics, m);
    for (size_t i = 0; res->n_launches > 1 && i < res->n_launches; i++) {
        const gp_result_row launch = {.result = res, .launch = &res->launches[i]};
        gp_part_text_row(t, &gp_results_part, &launch, ctx);
        add_metric_cells(t, &res->launches[i].metrics, m);
    }
}

/* The heading of a problem, with the parameters every one of its rows shares. */
static void print_problem(FILE *out, const gp_problem_span *pr, size_t width)
{
    char size[96], line[512];
    format_size(size, sizeof size, &pr->report->results[pr->first]);
    gp_problem_text(line, sizeof line, pr, size);
    fputc('\n', out);
    gp_text_paragraph(out, line, width, 2);
}

/* nvprof's --metrics long form: per launch, each metric's value, unit and description. */
static int print_detail(FILE *out, const gp_report *r, const gp_render_options *o)
{
    gp_text_table t;
    gp_table_init(&t, gp_metric_value_part.n_key);
    gp_part_text_columns(&t, &gp_metric_value_part, NULL);
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        for (size_t l = 0; l < res->n_launches; l++) {
            const gp_launch_record *lr = &res->launches[l];
            gp_text_metric_notes notes = {.n = 0};
            char name[GP_NAME_LEN], line[2 * GP_NAME_LEN + 64];
            gp_kernel_name_format(lr->kernel, o ? o->kernel_name : GP_KERNEL_NAME_SHORT, name,
                                  sizeof name);
            snprintf(line, sizeof line, "Kernel: %s (%s %s, launch %zu of %zu)", name,
                     res->family, res->variant, l + 1, res->n_launches);
            gp_table_line(&t, line);
            for (size_t m = 0; m < lr->metrics.n_metrics; m++) {
                gp_part_text_row(&t, &gp_metric_value_part, &lr->metrics.metrics[m], NULL);
                gp_text_metric_notes_add(&notes, &lr->metrics.metrics[m]);
            }
            gp_text_metric_notes_rows(&notes, &t, 6);  /* each note once, after the rows */
        }
    }
    if (t.n_rows)
        fputc('\n', out);
    const int rc = t.n_rows ? gp_table_print(out, &t, gp_text_width(o)) : GP_OK;
    gp_table_free(&t);
    return rc;
}

static void print_failures(FILE *out, const gp_report *r, size_t width)
{
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        if (res->check.status != GP_CHECK_FAILED)
            continue;
        char line[2 * GP_TEXT_LEN];
        snprintf(line, sizeof line, "FAILED %s %s block %u: %s%s", res->family, res->variant,
                 res->block.x, res->check.detail,
                 res->check.rechecked && res->check.after_profile == GP_CHECK_FAILED
                     ? " (after profiling)" : "");
        gp_text_paragraph(out, line, width, 2);
    }
}

/* ---- a kernel command's report, written as its results become final ------------------- */

/* The widths of the measured columns of a live table, decided before any is measured: the
 * common values' (162.16us, 2460.0, passed; metrics 100.0, 2612.1); a wider value pushes the
 * rest of its line. */
static const struct {
    const char *key;
    size_t width;
} measured_widths[] = {
    {"block", 5}, {"median_ms", 8}, {"noise_pct", 6}, {"bandwidth_gbps", 6},
    {"percent_of_peak", 5}, {"check", 6},
};
#define METRIC_WIDTH 7

/* A grid as wide as the most blocks the result's size and block can take, one element per
 * thread (the variants that do more per thread launch fewer); "-" for a library's. */
static size_t grid_width(const gp_result *res)
{
    char cell[48];
    const gp_dim3 b = res->block;
    if (b.x == 0)
        return 1;
    if (res->nx)
        snprintf(cell, sizeof cell, "%ux%u", (res->nx + b.x - 1) / b.x,
                 (res->ny + (b.y ? b.y : 1) - 1) / (b.y ? b.y : 1));
    else
        snprintf(cell, sizeof cell, "%llu",
                 (unsigned long long)((res->n + b.x - 1) / b.x));
    return strlen(cell);
}

typedef struct {
    FILE *out;
    const gp_report *r;
    gp_render_options o;
    size_t page;
    bool ahead;                /* widths decided before the rows: a live run */
    bool started;              /* the header is written */
    gp_results_context ctx;    /* the rows' problem: s->pr */
    metric_columns *m;
    size_t next;               /* the next result to write */
    gp_problem_span pr;             /* the problem being written, while in_problem */
    bool in_problem;
    gp_text_table t;
    size_t *widths;            /* its columns' widths when its rows are written one by one */
    size_t written;            /* rows of t written so far */
} text_stream;

/* The header, the legend, and the metric columns: over the results final by now, which under
 * one run's profiler all have the metrics the later ones will have. */
static int start(text_stream *s)
{
    GP_TRY(find_metric_columns(s->r, s->o.wide, s->m));
    print_header(s->out, s->r, s->page);
    print_legend(s->out, s->m, s->page);
    print_library_shape(s->out, s->r, s->page);
    s->started = true;
    return GP_OK;
}

/* A result column's width ahead: the widest of the problem's labels (known before they run)
 * or grids, or the common width of a measured column. */
static size_t width_ahead(const text_stream *s, size_t column)
{
    const char *key = gp_results_part.columns[column].key;
    const bool grid = strcmp(key, "grid") == 0;
    if (!grid && strcmp(key, "label") != 0) {
        for (size_t i = 0; i < sizeof measured_widths / sizeof *measured_widths; i++)
            if (strcmp(measured_widths[i].key, key) == 0)
                return measured_widths[i].width;
        return 0;
    }
    size_t widest = 0;
    for (size_t i = s->pr.first; i < s->pr.end; i++) {
        const gp_result_row row = {.result = &s->r->results[i]};
        char label[256];
        const size_t w = grid ? grid_width(row.result)
                              : gp_text_columns(gp_part_cell(&gp_results_part, column, &row,
                                                             &s->ctx, label, sizeof label)
                                                    .text);
        widest = w > widest ? w : widest;
    }
    return widest;
}

/* A live table's widths: the result columns' ahead, the metrics' common width, each at least
 * its title. NULL where the lines would not fit the page: the table is then written whole
 * once its problem ends. */
static size_t *decide_widths(const text_stream *s)
{
    size_t *w = calloc(s->t.n_columns, sizeof *w);
    if (!w)
        return NULL;
    gp_table_title_widths(&s->t, w);
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(&gp_results_part, GP_VIEW_TEXT, &s->ctx, cols);
    for (size_t c = 0; c < s->t.n_columns; c++) {
        const size_t ahead = c < n ? width_ahead(s, cols[c]) : METRIC_WIDTH;
        w[c] = ahead > w[c] ? ahead : w[c];
    }
    if (gp_table_line_width(&s->t, w) <= s->page)
        return w;
    free(w);
    return NULL;
}

static int open_problem(text_stream *s, size_t first)
{
    s->pr = gp_problem_at(s->r, first);
    s->in_problem = true;
    s->written = 0;
    print_problem(s->out, &s->pr, s->page);
    gp_table_init(&s->t, 1);
    add_result_columns(&s->t, &s->ctx, s->m);
    s->widths = s->ahead ? decide_widths(s) : NULL;
    return s->widths ? gp_table_print_rows(s->out, &s->t, s->widths, true, 0, 0) : GP_OK;
}

/* The rows not written yet: now when written one by one, else the whole table. */
static int close_problem(text_stream *s)
{
    const int rc = s->widths ? gp_table_print_rows(s->out, &s->t, s->widths, false, s->written,
                                                   s->t.n_rows)
                             : gp_table_print(s->out, &s->t, s->page);
    gp_table_free(&s->t);
    free(s->widths);
    s->widths = NULL;
    s->in_problem = false;
    return rc;
}

static int write_result(text_stream *s, size_t i)
{
    if (!s->started)
        GP_TRY(start(s));
    if (!s->in_problem)
        GP_TRY(open_problem(s, i));
    add_result_row(&s->t, &s->ctx, &s->r->results[i], s->m);
    if (s->widths) {
        GP_TRY(gp_table_print_rows(s->out, &s->t, s->widths, false, s->written, s->t.n_rows));
        s->written = s->t.n_rows;
    }
    return i + 1 == s->pr.end ? close_problem(s) : GP_OK;
}

static int text_stream_open(FILE *out, const gp_report *r, const gp_render_options *o,
                            bool ahead, void **state)
{
    text_stream *s = calloc(1, sizeof *s);
    metric_columns *m = malloc(sizeof *m);
    if (!s || !m) {
        free(s);
        free(m);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    *s = (text_stream){.out = out, .r = r, .o = o ? *o : (gp_render_options){0},
                       .page = gp_text_width(o), .ahead = ahead, .m = m};
    s->ctx = (gp_results_context){.r = r, .problem = &s->pr};
    *state = s;
    return GP_OK;
}

static int text_stream_result(void *state, size_t i)
{
    text_stream *s = state;
    for (; s->next <= i; s->next++)
        GP_TRY(write_result(s, s->next));
    fflush(s->out); /* kept by a run cut short, in a pipe or a file too */
    return GP_OK;
}

/* After the tables: the notes' legend, the failed checks, --metrics-detail, --source's
 * per-line view. */
static int write_end(text_stream *s)
{
    if (!s->started)
        GP_TRY(start(s));
    if (has_notes(s->r) && !s->o.metrics_detail)
        gp_text_paragraph(s->out, "*: the value has a note (what it leaves out, or why it is "
                          "above 100 %): see --metrics-detail", s->page, 2);
    print_failures(s->out, s->r, s->page);
    if (s->o.metrics_detail)
        GP_TRY(print_detail(s->out, s->r, &s->o));
    return gp_text_source(s->out, s->r, &s->o);
}

static int text_stream_close(void *state, bool complete)
{
    text_stream *s = state;
    int rc = s->in_problem ? close_problem(s) : GP_OK;
    if (rc == GP_OK && complete)
        rc = write_end(s);
    free(s->m);
    free(s);
    return rc;
}

const gp_stream_view gp_text_stream = {text_stream_open, text_stream_result,
                                       text_stream_close};

/* ---- the catalogue commands ---------------------------------------------------------- */

/* Whether a family's rows have a library call's, whose blocks the table says as "-". */
static bool any_library(const gp_variant_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].library)
            return true;
    return false;
}

int gp_text_list(FILE *out, const gp_render_options *o)
{
    gp_variant_row *rows;
    size_t n;
    GP_TRY(gp_variant_rows(&rows, &n));
    int rc = GP_OK;
    for (size_t f = 0, end; f < n && rc == GP_OK; f = end) {
        end = gp_variant_family_end(rows, n, f);
        fprintf(out, "%s%s: %s\n", f ? "\n" : "", rows[f].family, rows[f].family_summary);
        rc = gp_part_text(out, &gp_variant_part, &rows[f], end - f, NULL, gp_text_width(o));
        if (rc == GP_OK && any_library(&rows[f], end - f))
            fputs("  default, blocks -: " GP_LIBRARY_SHAPE "\n", out);
    }
    free(rows);
    return rc;
}

static void print_device(FILE *out, const gp_device_info *d)
{
    fprintf(out, "GPU %d: %s\n", d->index, d->name);
    fprintf(out, "  compute capability    %d.%d\n", d->cc_major, d->cc_minor);
    fprintf(out, "  multiprocessors       %d\n", d->multiprocessors);
    fprintf(out, "  memory                %.1f GiB, %d-bit bus at %.0f MHz\n",
            d->memory_bytes / 1073741824.0, d->memory_bus_bits, d->memory_clock_mhz);
    fprintf(out, "  L2 cache              %.1f MiB\n", d->l2_bytes / 1048576.0);
    fprintf(out, "  SM clock (maximum)    %.0f MHz\n", d->sm_clock_mhz);
    fprintf(out, "  peak DRAM bandwidth   %.1f GB/s (2 x memory clock x bus width)\n",
            d->peak_gbps);
    fprintf(out, "  copy bandwidth        %.1f GB/s measured (device-to-device, bytes read + "
                 "written), %.1f%% of peak\n", d->copy_gbps, 100.0 * d->copy_gbps / d->peak_gbps);
    fprintf(out, "  driver / runtime      %d.%d / %d.%d\n", d->driver_version / 1000,
            d->driver_version % 1000 / 10, d->runtime_version / 1000,
            d->runtime_version % 1000 / 10);
}

int gp_text_devices(FILE *out, const gp_device_info *devices, size_t n,
                    const gp_render_options *o)
{
    (void)o;
    for (size_t i = 0; i < n; i++)
        print_device(out, &devices[i]);
    return GP_OK;
}

int gp_text_chip_metrics(FILE *out, const gp_chip_metrics *c, const gp_render_options *o)
{
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    if (c->chip) {
        fprintf(out, "chip %s: passes per kernel:", c->chip);
        for (unsigned g = 0; g < GP_GROUP_ALL_ONLY; g++)
            fprintf(out, " %s %d,", gp_metric_group_name((gp_metric_group)g), c->group_passes[g]);
        fprintf(out, " all %d\n", c->passes_all);
        gp_text_paragraph(out, "smsp__sass_* counters are counted by instrumenting the kernel's "
                          "code, in passes of their own; the others are hardware counters",
                          gp_text_width(o), 2);
        fputc('\n', out);
    }
    for (size_t i = 0; i < n; i++) {
        const gp_metric_def *m = &cat[i];
        const bool available = c->chip && c->availability[i].available;
        fprintf(out, "%-38s %-22s %s%s\n", m->key, m->unit, gp_metric_group_name(m->group),
                c->chip ? (available ? ", available" : ", NOT AVAILABLE") : "");
        fprintf(out, "    %s\n    = %s\n", m->description, m->formula);
        for (size_t k = 0; k < m->n_inputs; k++)
            fprintf(out, "      %s\n", m->inputs[k]);
        if (m->ncu_metric)
            fprintf(out, "    ncu: %s\n", m->ncu_metric);
        else
            fprintf(out, "    ncu: no single metric; compare the counters above\n");
        if (c->chip && !available)
            fprintf(out, "    missing on %s: %s\n", c->chip, c->availability[i].missing);
    }
    return GP_OK;
}
