/* exec's kernel metrics in text (render/text_exec_metrics.h): by default one table, a row per
 * kernel, as the catalogue's table is for results; per kernel a block of rows, one per metric,
 * with --metrics-detail or a set other than the default. */
#include "render/text_exec_metrics.h"

#include "gpuprof/metrics.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text_layout.h"

#include <stdlib.h>
#include <string.h>

#define MAX_METRIC_COLUMNS 256

/* ---- per kernel, one row per metric: nvprof's --metrics layout -------------------------- */

/* A kernel's block: the metrics it lists (what each means for --metrics-detail) and their
 * rows of the part. */
typedef struct {
    gp_text_metric cols[MAX_METRIC_COLUMNS];
    const gp_metric_stats *stats[MAX_METRIC_COLUMNS];
} metric_block;

/* The kernel's metrics in the table's order: the table's, or with --metrics-detail (or a set
 * other than the default) every one; their number. */
static size_t kernel_metrics(const gp_report *r, const gp_exec_kernel *k, bool detail,
                             metric_block *b)
{
    gp_metric_set *set;
    gp_metric_value *values;
    if (gp_exec_kernel_averages(k, 1, &set, &values) != GP_OK)
        return 0;
    const gp_metric_set *sets[] = {set};
    const bool every = detail || strcmp(r->profiler.metric_set, "default") != 0;
    const size_t n = gp_text_table_metrics(sets, 1, every ? GP_EVERY_METRIC : GP_TABLE_METRICS,
                                           b->cols, MAX_METRIC_COLUMNS);
    size_t m = 0;
    for (size_t c = 0; c < n; c++) {
        const gp_metric_stats *s = gp_kernel_metric(k, b->cols[c].key);
        if (s) {
            b->cols[m] = b->cols[c];
            b->stats[m++] = s;
        }
    }
    free(set);
    free(values);
    return m;
}

/* The line across the table before a kernel's rows: "Kernel #3 [1,2]: name". */
static void kernel_heading(gp_text_table *t, const gp_exec_kernel *k, const gp_kernel_labels *kl)
{
    char head[48 + GP_SOURCES_LEN];
    const char *from = gp_kernel_labels_from(kl, k->kernel, k->variant);
    snprintf(head, sizeof head, "Kernel #%zu%s%s: ",
             gp_kernel_labels_number(kl, k->kernel, k->variant), from[0] ? " " : "", from);
    gp_table_name_line(t, head, gp_kernel_labels_name(kl, k->kernel, k->variant));
}

/* The kernel's heading and rows (with --metrics-detail each with what it means), then its
 * metrics' notes, each once; whether any metric was combined over launches of different
 * passes. */
static bool add_kernel_metrics(gp_text_table *t, const gp_report *r, const gp_exec_kernel *k,
                               const gp_kernel_labels *kl, bool detail, metric_block *b)
{
    const size_t n = kernel_metrics(r, k, detail, b);
    kernel_heading(t, k, kl);
    gp_text_metric_notes notes = {.n = 0};
    bool combined = false;
    for (size_t i = 0; i < n; i++) {
        gp_part_text_row(t, &gp_metric_stats_part, b->stats[i], NULL);
        combined = combined || b->stats[i]->combined;
        if (detail)
            gp_table_note(t, b->cols[i].description, 12);
        gp_text_metric_notes_add(&notes, &b->stats[i]->average);
    }
    gp_text_metric_notes_rows(&notes, t, 10);
    return combined;
}

/* The block's heading, its table, and what "*" means where a metric was combined. */
static int print_metric_table(FILE *out, gp_text_table *t, bool combined, size_t width)
{
    int rc = GP_OK;
    if (t->n_rows) {
        fputc('\n', out);
        gp_text_paragraph(out, "metrics of each kernel: minimum, maximum and average over its "
                          "profiled launches (launches: those that had a value)", width, 2);
        rc = gp_table_print(out, t, width);
    }
    if (rc == GP_OK && combined)
        gp_text_paragraph(out, "*: no launch collected every input of the metric (they were "
                          "in different passes): derived from each input's mean over the "
                          "launches that collected it", width, 3);
    return rc;
}

static int print_blocks(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                        const gp_kernel_labels *kl, const gp_render_options *o)
{
    metric_block *b = calloc(1, sizeof *b);
    if (!b)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    gp_text_table t;
    gp_table_init(&t, gp_metric_stats_part.n_key);
    gp_part_text_columns(&t, &gp_metric_stats_part, NULL);
    bool combined = false;
    for (size_t i = 0; i < nk; i++)
        if (k[i].profiled && k[i].n_metrics)
            combined = add_kernel_metrics(&t, r, &k[i], kl, o && o->metrics_detail, b) ||
                       combined;
    free(b);
    const int rc = print_metric_table(out, &t, combined, gp_text_width(o));
    gp_table_free(&t);
    return rc;
}

/* ---- one row per kernel: the catalogue's table ------------------------------------------- */

#define COMBINED_NOTE "no launch collected every input (they were in different passes): " \
                      "derived from each input's mean over the launches that collected it"

/* The notes of the kernels' marked cells. */
static void notes_of(gp_text_metric_notes *notes, const gp_exec_kernel *const *shown, size_t n,
                     const gp_text_metric *cols, size_t n_cols, const gp_kernel_labels *kl)
{
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < n_cols; c++) {
            const gp_metric_stats *s = gp_kernel_metric(shown[i], cols[c].key);
            const size_t number = gp_kernel_labels_number(kl, shown[i]->kernel,
                                                          shown[i]->variant);
            if (s && s->average.note[0])
                gp_text_metric_note_add(notes, s->average.note, cols[c].key, number);
            if (s && s->combined && s->average.valid)
                gp_text_metric_note_add(notes, COMBINED_NOTE, cols[c].key, number);
        }
}

/* What the columns are: "columns: gld/req = gld_transactions_per_request, ...". */
static void print_columns(FILE *out, const gp_text_metric *cols, size_t n, size_t width)
{
    char line[MAX_METRIC_COLUMNS * 64] = "columns:";
    size_t used = strlen(line);
    for (size_t i = 0; i < n && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%s %s = %s", i ? "," : "",
                                 cols[i].label, cols[i].key);
    gp_text_paragraph(out, line, width, 2);
}

static void print_notes(FILE *out, const gp_text_metric_notes *notes, size_t width)
{
    for (size_t i = 0; i < notes->n; i++) {
        char line[GP_TEXT_LEN + sizeof notes->kernels[i] + sizeof notes->keys[i] + 16];
        gp_text_metric_note_line(notes, i, line, sizeof line);
        gp_text_paragraph(out, line, width, 2);
    }
}

/* The table (the part, its columns made for these metrics), its legend and its notes. */
static int print_table(FILE *out, const gp_exec_kernel *const *shown, size_t n,
                       const gp_text_metric *cols, size_t n_cols, const gp_kernel_labels *kl,
                       const gp_render_options *o)
{
    const bool wide = o && o->wide;
    const size_t width = gp_text_width(o);
    const char *keys[GP_KERNEL_METRICS_COLUMNS], *headers[GP_KERNEL_METRICS_COLUMNS];
    n_cols = n_cols < GP_KERNEL_METRICS_COLUMNS ? n_cols : GP_KERNEL_METRICS_COLUMNS;
    for (size_t c = 0; c < n_cols; c++) {
        keys[c] = cols[c].key;
        headers[c] = wide ? cols[c].key : cols[c].label;
    }
    gp_kernel_metrics_table *t = malloc(sizeof *t);
    gp_text_metric_notes *notes = calloc(1, sizeof *notes);
    int rc = t && notes ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (rc == GP_OK) {
        gp_kernel_metrics_table_of(t, headers, n_cols);
        const gp_kernel_metrics_context ctx = {.labels = kl, .keys = keys};
        fputc('\n', out);
        gp_text_paragraph(out, "metrics: each kernel's average over its profiled launches "
                          "(--metrics-detail: minimum and maximum, and every metric)", width, 2);
        rc = gp_part_text(out, &t->part, shown, n, &ctx, width);
    }
    if (rc == GP_OK && !wide)
        print_columns(out, cols, n_cols, width);
    if (rc == GP_OK) {
        notes_of(notes, shown, n, cols, n_cols, kl);
        print_notes(out, notes, width);
    }
    free(notes);
    free(t);
    return rc;
}

static int print_kernel_table(FILE *out, const gp_exec_kernel *k, size_t nk,
                              const gp_kernel_labels *kl, const gp_render_options *o)
{
    /* The profiled kernels' averages choose the columns; those kernels are the rows. */
    gp_metric_set *sets = NULL;
    gp_metric_value *values = NULL;
    int rc = gp_exec_kernel_averages(k, nk, &sets, &values);
    const gp_metric_set **each = rc == GP_OK ? calloc(nk + 1, sizeof *each) : NULL;
    const gp_exec_kernel **shown = rc == GP_OK ? calloc(nk + 1, sizeof *shown) : NULL;
    gp_text_metric *cols = rc == GP_OK ? calloc(MAX_METRIC_COLUMNS, sizeof *cols) : NULL;
    if (rc == GP_OK && (!each || !shown || !cols))
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t n_shown = 0;
    for (size_t i = 0; rc == GP_OK && i < nk; i++)
        if (k[i].profiled && k[i].n_metrics) {
            each[n_shown] = &sets[i];
            shown[n_shown++] = &k[i];
        }
    const size_t n = rc == GP_OK ? gp_text_table_metrics(each, n_shown, GP_TABLE_METRICS_IDEALS,
                                                        cols, MAX_METRIC_COLUMNS)
                                 : 0;
    if (rc == GP_OK && n)
        rc = print_table(out, shown, n_shown, cols, n, kl, o);
    free(cols);
    free(shown);
    free(each);
    free(sets);
    free(values);
    return rc;
}

int gp_text_exec_metrics(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                         const gp_kernel_labels *kl, const gp_render_options *o)
{
    if ((o && o->metrics_detail) || strcmp(r->profiler.metric_set, "default") != 0)
        return print_blocks(out, r, k, nk, kl, o);
    return print_kernel_table(out, k, nk, kl, o);
}
