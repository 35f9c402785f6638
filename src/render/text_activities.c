/* gpuprof exec's GPU activities in text, as nvprof printed them: one table of kernels,
 * copies and memsets by the time they took (%GPU, Time, Calls, Avg, Min, Max, Name, and
 * for copies their bytes and throughput); the copies by host memory, with the share that was
 * pageable (copied through a staging buffer, so slower); and the unified-memory counters.
 * On --launches, each copy or memset is a row among the kernel launches, in the order the
 * program issued them. */
#include "render/text_activities.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/kernel_name.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "gpuprof/kernel_labels.h"
#include "render/part.h"
#include "render/text_layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- units ----------------------------------------------------------------------------------- */

static void format_gbps(char *buf, size_t len, double gbps)
{
    if (isfinite(gbps))
        snprintf(buf, len, "%.2f", gbps);
    else
        snprintf(buf, len, "-");
}

/* ---- the GPU activities ---------------------------------------------------------------------- */

/* A row of the table: a kernel or a kind of copy or memset. */
typedef struct {
    const char *name;            /* a kernel's in its style, or the kind of copy's title */
    size_t number;               /* a kernel's (gpuprof/kernel_labels.h); 0: a copy or memset */
    size_t calls, timed;
    double total_ms, avg_ms, min_ms, max_ms;
    bool estimated;              /* a kernel's total from the mean of some of its launches */
    bool moves_bytes;
    uint64_t bytes;
    double gbps;
} activity_line;

static int most_time_first(const void *a, const void *b)
{
    const activity_line *x = a, *y = b;
    const double tx = x->timed ? x->total_ms : -1, ty = y->timed ? y->total_ms : -1;
    if (tx != ty)
        return tx > ty ? -1 : 1;
    return x->number != y->number ? (x->number < y->number ? -1 : 1)
                                  : strcmp(x->name, y->name);
}

/* A kernel's row, numbered and named as the summary's. */
static void kernel_line(activity_line *l, const gp_exec_kernel *k, const gp_kernel_labels *kl)
{
    *l = (activity_line){.calls = k->calls, .timed = k->timed, .total_ms = k->total_ms,
                         .avg_ms = k->average_ms, .min_ms = k->min_ms, .max_ms = k->max_ms,
                         .estimated = k->total_estimated, .gbps = NAN,
                         .name = gp_kernel_labels_name(kl, k->kernel, k->variant),
                         .number = gp_kernel_labels_number(kl, k->kernel, k->variant)};
}

static void copy_line(activity_line *l, const gp_activity_row *row)
{
    *l = (activity_line){.calls = row->calls, .timed = row->timed, .total_ms = row->total_ms,
                         .avg_ms = gp_activity_average_ms(row), .min_ms = row->min_ms,
                         .max_ms = row->max_ms, .moves_bytes = true, .bytes = row->bytes,
                         .gbps = gp_activity_gbps(row)};
    l->name = gp_activity_title(row->kind);
}

/* A time cell: the unit that suits it (nvprof's), "-" when unknown. */
static void add_time(gp_text_table *t, bool known, double ms)
{
    char cell[32] = "-";
    if (known && isfinite(ms))
        gp_text_format_time(cell, sizeof cell, ms);
    gp_table_cell(t, cell);
}

/* timed_column: the table shows each row's timed calls (some kernel's total is estimated). */
static void add_line(gp_text_table *t, const activity_line *l, double all_ms, bool timed_column)
{
    char bytes[32] = "-", gbps[32] = "-", total[40] = "-";
    if (l->moves_bytes) {
        gp_text_format_bytes(bytes, sizeof bytes, (double)l->bytes);
        format_gbps(gbps, sizeof gbps, l->gbps);
    }
    if (l->timed)
        gp_text_format_total(total, sizeof total, l->total_ms, l->estimated);
    gp_table_row(t);
    gp_table_cellf(t, "%.2f%%", l->timed && all_ms > 0 ? 100.0 * l->total_ms / all_ms : 0.0);
    gp_table_cell(t, total);
    gp_table_cellf(t, "%zu", l->calls);
    if (timed_column)
        gp_table_cellf(t, "%zu", l->timed);
    add_time(t, l->timed, l->avg_ms);
    add_time(t, l->timed, l->min_ms);
    add_time(t, l->timed, l->max_ms);
    gp_table_cell(t, bytes);
    gp_table_cell(t, gbps);
    char tag[32] = "";
    if (l->number)
        snprintf(tag, sizeof tag, "#%zu ", l->number);
    gp_table_name_cell(t, tag, l->name);
}

static int print_lines(FILE *out, activity_line *lines, size_t n, size_t width)
{
    static const gp_column_spec counts[] = {
        {"%GPU", GP_COLUMN_RIGHT, 0}, {"Time", GP_COLUMN_RIGHT, 1},
        {"Calls", GP_COLUMN_RIGHT, 1},
    };
    static const gp_column_spec times[] = {
        {"Avg", GP_COLUMN_RIGHT, 1},     {"Min", GP_COLUMN_RIGHT, 1},
        {"Max", GP_COLUMN_RIGHT, 1},     {"Bytes", GP_COLUMN_RIGHT, 1},
        {"GB/s", GP_COLUMN_RIGHT, 1},    {"Name", GP_COLUMN_NAME, 2},
    };
    double all_ms = 0;
    bool estimated = false;
    for (size_t i = 0; i < n; i++) {
        all_ms += lines[i].timed ? lines[i].total_ms : 0;
        estimated = estimated || lines[i].estimated;
    }
    qsort(lines, n, sizeof *lines, most_time_first);
    gp_text_table t;
    gp_table_init(&t, 1);
    GP_TABLE_COLUMNS(&t, counts);
    if (estimated)
        gp_table_column(&t, "Timed", GP_COLUMN_RIGHT, 1);
    GP_TABLE_COLUMNS(&t, times);
    for (size_t i = 0; i < n; i++)
        add_line(&t, &lines[i], all_ms, estimated);
    fputs("\nGPU activities:\n", out);
    int rc = gp_table_print(out, &t, width);
    if (rc == GP_OK)
        gp_text_paragraph(out, "legend: %GPU = each row's share of the time of all GPU activities "
                          "(kernels, copies and memsets)", width, 2);
    if (rc == GP_OK && estimated)
        gp_text_estimate_note(out, width);
    gp_table_free(&t);
    return rc;
}

static int print_gpu_activities(FILE *out, const gp_exec_info *e, const gp_kernel_labels *kl,
                                size_t width)
{
    gp_exec_kernel *k = NULL;
    gp_activity_row *rows = NULL;
    size_t nk = 0, nr = 0;
    int rc = gp_exec_summarize(e, &k, &nk);
    if (rc == GP_OK)
        rc = gp_exec_activity_rows(e, &rows, &nr);
    activity_line *lines = rc == GP_OK && nk + nr ? malloc((nk + nr) * sizeof *lines) : NULL;
    if (rc == GP_OK && nk + nr && !lines)
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (lines) {
        for (size_t i = 0; i < nk; i++)
            kernel_line(&lines[i], &k[i], kl);
        for (size_t i = 0; i < nr; i++)
            copy_line(&lines[nk + i], &rows[i]);
        rc = print_lines(out, lines, nk + nr, width);
    }
    free(lines);
    free(rows);
    gp_exec_summary_free(k, nk);
    return rc;
}

/* ---- host memory ------------------------------------------------------------------------------ */

static void add_host_row(gp_text_table *t, const gp_activity_row *row)
{
    char bytes[32], gbps[32];
    gp_text_format_bytes(bytes, sizeof bytes, (double)row->bytes);
    format_gbps(gbps, sizeof gbps, gp_activity_gbps(row));
    gp_table_row(t);
    gp_table_cellf(t, "%zu", row->calls);
    gp_table_cell(t, bytes);
    add_time(t, row->timed, row->total_ms);
    gp_table_cell(t, gbps);
    gp_table_cell(t, gp_activity_title(row->kind));
    gp_table_cell(t, gp_memory_names[row->host]);
}

static int print_host_memory(FILE *out, const gp_exec_info *e, size_t width)
{
    static const gp_column_spec columns[] = {
        {"Calls", GP_COLUMN_RIGHT, 0}, {"Bytes", GP_COLUMN_RIGHT, 1},
        {"Time", GP_COLUMN_RIGHT, 1},  {"GB/s", GP_COLUMN_RIGHT, 1},
        {"Copy", GP_COLUMN_LEFT, 2},   {"Host memory", GP_COLUMN_LEFT, 1},
    };
    gp_activity_row *rows = NULL;
    size_t n = 0;
    GP_TRY(gp_exec_host_memory_rows(e, &rows, &n));
    int rc = GP_OK;
    if (n) {
        gp_text_table t;
        gp_table_init(&t, 1);
        GP_TABLE_COLUMNS(&t, columns);
        for (size_t i = 0; i < n; i++)
            add_host_row(&t, &rows[i]);
        fputs("\nHost memory of the copies:\n", out);
        rc = gp_table_print(out, &t, width);
        gp_table_free(&t);
        const double pageable = gp_exec_pageable_percent(e);
        if (rc == GP_OK && pageable > 0) {
            char text[320];
            snprintf(text, sizeof text, "pageable: %.1f%% of the bytes copied between host and "
                                        "device; pageable copies go through a staging buffer "
                                        "and do not overlap kernels (pin the memory: "
                                        "cudaMallocHost, cudaHostRegister)", pageable);
            gp_text_paragraph(out, text, width, 2);
        }
    }
    free(rows);
    return rc;
}

/* ---- unified memory ------------------------------------------------------------------------------ */

static int print_unified(FILE *out, const gp_exec_info *e, size_t width)
{
    gp_um_row rows[GP_UM_COUNTERS];
    const size_t n = gp_unified_rows(e, rows);
    if (!n)
        return GP_OK;
    fputs("\nUnified memory:\n", out);
    return gp_part_text(out, &gp_unified_part, rows, n, NULL, width);
}

int gp_text_activities(FILE *out, const gp_report *r, const gp_kernel_labels *kl,
                       const gp_render_options *o)
{
    const gp_exec_info *e = &r->exec;
    if (!gp_exec_has_activities(e))
        return GP_OK;
    const size_t width = gp_text_width(o);
    GP_TRY(print_gpu_activities(out, e, kl, width));
    GP_TRY(print_host_memory(out, e, width));
    return print_unified(out, e, width);
}

/* ---- --launches ---------------------------------------------------------------------------------- */

static bool issued_before(const gp_exec_activity *a, const gp_exec_launch *l)
{
    return !l || a->pid < l->pid || (a->pid == l->pid && a->id < l->id);
}

/* The copy as the launch table's row: no grid, block or shared memory (nor graph node, where
 * the table has that column), no metrics; its name, bytes and host memory where the kernel's
 * name stands. */
static void add_activity_row(gp_text_table *t, const gp_exec_activity *a, size_t n_metrics)
{
    char bytes[32], name[96];
    gp_text_format_bytes(bytes, sizeof bytes, (double)a->bytes);
    const gp_memory_kind host = gp_activity_host_memory(a);
    snprintf(name, sizeof name, "%s %s%s%s", gp_activity_title(a->kind), bytes,
             host != GP_MEMORY_UNKNOWN ? " " : "",
             host != GP_MEMORY_UNKNOWN ? gp_memory_names[host] : "");
    gp_table_row(t);
    gp_table_cellf(t, "%d", a->pid);
    gp_table_cellf(t, "%llu", (unsigned long long)a->id);
    gp_table_cellf(t, "%d", a->device);
    gp_table_cellf(t, "%u", a->stream);
    /* pid, id, dev and stream before them; time, profiled and kernel besides the metrics */
    const size_t dashes = t->n_columns >= n_metrics + 7 ? t->n_columns - n_metrics - 7 : 0;
    for (size_t i = 0; i < dashes; i++)
        gp_table_cell(t, "-");
    const double ms = gp_activity_ms(a);
    add_time(t, isfinite(ms), ms);
    gp_table_cell(t, "-");
    for (size_t i = 0; i < n_metrics; i++)
        gp_table_cell(t, "");
    gp_table_cell(t, name);
}

void gp_text_launch_activities(gp_text_table *t, const gp_report *r, size_t *next,
                               const gp_exec_launch *before, size_t n_metrics)
{
    const gp_exec_info *e = &r->exec;
    for (; *next < e->n_activities && issued_before(&e->activities[*next], before); ++*next)
        add_activity_row(t, &e->activities[*next], n_metrics);
}
