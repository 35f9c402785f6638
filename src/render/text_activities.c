/* gpuprof exec's GPU activities in text, as nvprof printed them: one table of kernels,
 * copies and memsets by the time they took (%GPU, Time, Calls, Avg, Min, Max, Name, and
 * for copies their bytes and throughput); the copies by host memory, with the share that was
 * pageable (copied through a staging buffer, so slower); and the unified-memory counters.
 * The tables are parts (report/activities_part.c, report/unified_part.c); their headings and
 * notes are here. On --launches, each copy or memset is a row among the kernel launches, in
 * the order the program issued them. */
#include "render/text_activities.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text_layout.h"

#include <stdlib.h>

/* ---- the GPU activities ---------------------------------------------------------------------- */

/* The copies and memsets, and the kernels in one row (each is in the summary), the most time
 * first; with --wide each kernel, numbered and named as the summary's. */
static int print_gpu_activities(FILE *out, const gp_exec_info *e, const gp_kernel_labels *kl,
                                bool each_kernel, size_t width)
{
    gp_exec_kernel *k = NULL;
    gp_activity_row *rows = NULL;
    gp_gpu_activity *a = NULL;
    gp_gpu_activities_context ctx;
    size_t nk = 0, nr = 0, n = 0;
    int rc = gp_exec_summarize(e, &k, &nk);
    if (rc == GP_OK)
        rc = gp_exec_activity_rows(e, &rows, &nr);
    if (rc == GP_OK)
        rc = gp_gpu_activities(k, nk, kl, !each_kernel, rows, nr, &a, &n, &ctx);
    if (a) {
        fputs("\nGPU activities:\n", out);
        rc = gp_part_text(out, &gp_gpu_activities_part, a, n, &ctx, width);
    }
    if (a && rc == GP_OK)
        gp_text_paragraph(out, "legend: %GPU = each row's share of the time of all GPU activities "
                          "(kernels, copies and memsets)", width, 2);
    if (a && rc == GP_OK && ctx.estimated)
        gp_text_estimate_note(out, width);
    free(a);
    free(rows);
    gp_exec_summary_free(k, nk);
    return rc;
}

/* ---- host memory ------------------------------------------------------------------------------ */

static int print_host_memory(FILE *out, const gp_exec_info *e, size_t width)
{
    gp_activity_row *rows = NULL;
    size_t n = 0;
    GP_TRY(gp_exec_host_memory_rows(e, &rows, &n));
    int rc = GP_OK;
    if (n) {
        fputs("\nHost memory of the copies:\n", out);
        rc = gp_part_text(out, &gp_copies_part, rows, n, NULL, width);
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
    GP_TRY(print_gpu_activities(out, e, kl, o && o->wide, width));
    GP_TRY(print_host_memory(out, e, width));
    return print_unified(out, e, width);
}

/* ---- --launches ---------------------------------------------------------------------------------- */

/* The copy as the launch table's row: no grid, block or shared memory (nor graph node, where
 * the table has that column), no metrics; its name, bytes and host memory where the kernel's
 * name stands. */
static void add_activity_row(gp_text_table *t, const gp_exec_activity *a, size_t n_metrics)
{
    char bytes[32], name[96], time[32];
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
    gp_text_format_time(time, sizeof time, gp_activity_ms(a));  /* "-": unknown */
    gp_table_cell(t, time);
    gp_table_cell(t, "-");
    for (size_t i = 0; i < n_metrics; i++)
        gp_table_cell(t, "");
    gp_table_cell(t, name);
}

void gp_text_launch_activities(gp_text_table *t, const gp_report *r, size_t *next,
                               const gp_exec_launch *before, size_t n_metrics)
{
    const gp_exec_info *e = &r->exec;
    for (; *next < e->n_activities && gp_activity_issued_before(&e->activities[*next], before); ++*next)
        add_activity_row(t, &e->activities[*next], n_metrics);
}
