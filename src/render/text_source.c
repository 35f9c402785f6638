/* --source's per-line view as text (render/text_source.h): for each result (or, through
 * text_exec_lines.c, each exec kernel), each kernel's source lines that move memory, the most
 * wasteful first (global sectors over the ideal, then shared wavefronts over theirs, then
 * local traffic), with the line's text where the file is readable; with --sass each line's
 * instructions under it. */
#include "render/text_source.h"

#include "gpuprof/demangle.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/source_stalls.h"
#include "gpuprof/source_view.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines shown per kernel; the rest are counted below the table (JSON holds them all). */
#define SHOWN_LINES 12

/* ---- order --------------------------------------------------------------------------------- */

typedef struct {
    const gp_source_line *line;
    size_t index;
    uint64_t stalls;             /* its warp-stall samples, where the view has them joined */
} ranked_line;

static int worst_first(const void *a, const void *b)
{
    const uint64_t *x = ((const ranked_line *)a)->line->counts;
    const uint64_t *y = ((const ranked_line *)b)->line->counts;
    const uint64_t keys[][2] = {
        {gp_source_excess(x), gp_source_excess(y)},
        {gp_source_shared_excess(x), gp_source_shared_excess(y)},
        {x[GP_SRC_LOCAL_SECTORS], y[GP_SRC_LOCAL_SECTORS]},
        {x[GP_SRC_SECTORS] + x[GP_SRC_WAVEFRONTS], y[GP_SRC_SECTORS] + y[GP_SRC_WAVEFRONTS]},
        {((const ranked_line *)a)->stalls, ((const ranked_line *)b)->stalls},
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (keys[k][0] != keys[k][1])
            return keys[k][0] > keys[k][1] ? -1 : 1;
    const size_t i = ((const ranked_line *)a)->index, j = ((const ranked_line *)b)->index;
    return (i > j) - (i < j);
}

/* ---- rows ------------------------------------------------------------------------------ */

/* A line's row (the per-line part's), and its source text under it where the file as the line
 * information names it can be read. */
static void add_line_row(gp_text_table *t, const gp_source_line *l, const gp_source_context *ctx)
{
    gp_part_text_row(t, &gp_source_line_part, l, ctx);
    char text[GP_SOURCE_TEXT_LEN];
    gp_source_line_shown(ctx->kernel, l, text, sizeof text);
    if (text[0])
        gp_table_note(t, text, 4);
}

/* --sass: the line's instructions that move memory (or hold stall samples), in the line's
 * columns. */
static void add_instruction_rows(gp_text_table *t, size_t line, const gp_source_context *ctx)
{
    const gp_source_kernel *k = ctx->kernel;
    for (size_t p = 0; p < k->n_pcs; p++)
        if (k->pcs[p].line == line && gp_source_pc_listed(ctx->stalls, &k->pcs[p]))
            gp_part_text_row(t, &gp_source_pc_part, &k->pcs[p], ctx);
}

/* ---- one kernel ------------------------------------------------------------------------------ */

/* Which kernel of what, and its waste: a paragraph, never cut. */
static int kernel_heading(FILE *out, const char *heading, const gp_source_kernel *k,
                          const gp_render_options *o)
{
    const size_t len = strlen(heading) + 128;
    char *line = malloc(len);
    if (!line)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    const uint64_t excess = gp_source_kernel_excess(k);
    uint64_t sectors = 0;
    for (size_t i = 0; i < k->n_lines; i++)
        sectors += k->lines[i].counts[GP_SRC_SECTORS];
    if (sectors)
        snprintf(line, len, "%s: %llu global sectors, %llu (%.1f%%) over the ideal", heading,
                 (unsigned long long)sectors, (unsigned long long)excess,
                 100.0 * (double)excess / (double)sectors);
    else
        snprintf(line, len, "%s: no global sectors", heading);
    gp_text_paragraph(out, line, gp_text_width(o), 2);
    free(line);
    return GP_OK;
}

/* The table's rows and notes: the lines that move memory (or hold stall samples), the worst
 * first. */
static int fill_table(gp_text_table *t, const gp_source_context *ctx, const gp_render_options *o)
{
    const gp_source_kernel *k = ctx->kernel;
    ranked_line *order = malloc((k->n_lines ? k->n_lines : 1) * sizeof *order);
    if (!order)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t moving = 0;
    for (size_t i = 0; i < k->n_lines; i++) {
        const gp_stall_line *s = gp_source_line_stalls(ctx->stalls, k, &k->lines[i]);
        if (gp_source_line_listed(ctx->stalls, k, &k->lines[i]))
            order[moving++] = (ranked_line){&k->lines[i], i, s ? s->counts.samples : 0};
    }
    qsort(order, moving, sizeof *order, worst_first);
    const size_t shown = o && o->wide ? moving : moving < SHOWN_LINES ? moving : SHOWN_LINES;
    for (size_t i = 0; i < shown; i++) {
        add_line_row(t, order[i].line, ctx);
        if (o && o->sass)
            add_instruction_rows(t, order[i].index, ctx);
    }
    free(order);
    if (moving == 0)
        gp_table_note(t, "no instruction of this kernel moved global, shared or local memory",
                      2);
    if (shown < moving) {
        char more[128];
        snprintf(more, sizeof more, "%zu more lines move memory%s (--wide shows them all; JSON "
                 "holds every line)", moving - shown, ctx->stalls ? " or hold stalls" : "");
        gp_table_note(t, more, 2);
    }
    if (!k->has_lines)
        gp_table_note(t, "no line information in this kernel's code: its instructions by "
                      "offset (compile with nvcc -lineinfo for lines)", 2);
    for (size_t f = 0; f < k->n_files; f++) {
        char note[GP_SOURCE_TEXT_LEN + 128];
        if (gp_source_file_note(&k->files[f], note, sizeof note))
            gp_table_note(t, note, 2);
    }
    return GP_OK;
}

int gp_text_source_kernel(FILE *out, const char *heading, const gp_source_kernel *k,
                          const gp_stall_kernel *stalls, const gp_render_options *o)
{
    GP_TRY(kernel_heading(out, heading, k, o));
    gp_source_context ctx = gp_source_context_of(k);
    ctx.stalls = stalls;
    gp_text_table t;
    gp_table_init(&t, gp_source_line_part.n_key);
    gp_part_text_columns(&t, &gp_source_line_part, &ctx);
    int rc = fill_table(&t, &ctx, o);
    if (rc == GP_OK)
        rc = gp_table_print(out, &t, gp_text_width(o));
    gp_table_free(&t);
    return rc;
}

static bool any_lines(const gp_report *r)
{
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].lines)
            return true;
    return false;
}

void gp_text_source_legend(FILE *out, bool stalls, const gp_render_options *o)
{
    fputc('\n', out);
    gp_text_paragraph(out, "where memory moves, by source line, the most sectors over the ideal "
                      "first (--source): inst warp instructions executed; req global requests; "
                      "sect/req and ideal/req global sectors per request, accessed and ideal; "
                      "excess the line's share of the kernel's sectors over the ideal; shm wf/req "
                      "and ideal/req shared wavefronts per shared request, accessed and ideal "
                      "(more than ideal: bank conflicts); local spill sectors; the line's text "
                      "under it", gp_text_width(o), 2);
    if (stalls)
        gp_text_paragraph(out, "with warp stalls (--stalls): %stalls the line's share of its "
                          "kernel code's samples, stall the group of the most of them (as the "
                          "warp stalls' legend names it; - for a kernel of too few samples); a "
                          "line that moves no memory is listed when it holds 1% of them or more",
                          gp_text_width(o), 2);
}

/* "<result>, kernel <name>": which result's kernel, the name in --kernel-name's style. */
static char *result_heading(const gp_result *res, const gp_source_kernel *k,
                            const gp_render_options *o)
{
    char what[GP_TEXT_LEN], name[1024];
    gp_result_describe(res, what, sizeof what);
    char *demangled = gp_demangle(k->kernel);
    gp_text_kernel_name(name, sizeof name, demangled ? demangled : k->kernel,
                        o ? o->kernel_name : GP_KERNEL_NAME_SHORT);
    free(demangled);
    const size_t len = strlen(what) + strlen(name) + 16;
    char *heading = malloc(len);
    if (heading)
        snprintf(heading, len, "%s, kernel %s", what, name);
    return heading;
}

int gp_text_source(FILE *out, const gp_report *r, const gp_render_options *o)
{
    if (!any_lines(r))
        return GP_OK;
    gp_text_source_legend(out, false, o);
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        for (size_t k = 0; k < res->n_line_kernels; k++) {
            char *heading = result_heading(res, &res->lines[k], o);
            if (!heading)
                return gp_fail(GP_ERR_RUNTIME, "out of host memory");
            fputc('\n', out);
            const int rc = gp_text_source_kernel(out, heading, &res->lines[k], NULL, o);
            free(heading);
            GP_TRY(rc);
        }
    }
    return GP_OK;
}
