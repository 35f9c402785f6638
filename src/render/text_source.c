/* --source's per-line view as text (render/text_source.h): for each result (or, through
 * text_exec_lines.c, each exec kernel), each kernel's source lines that move memory, the most
 * wasteful first (global sectors over the ideal, then shared wavefronts over theirs, then
 * local traffic), with the line's text where the file is readable; with --sass each line's
 * instructions under it. */
#include "render/text_source.h"

#include "gpuprof/demangle.h"
#include "gpuprof/source_view.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/text_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines shown per kernel; the rest are counted below the table (JSON holds them all). */
#define SHOWN_LINES 12

/* ---- the source text ----------------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path;
}

/* ---- order --------------------------------------------------------------------------------- */

typedef struct {
    const gp_source_line *line;
    size_t index;
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
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (keys[k][0] != keys[k][1])
            return keys[k][0] > keys[k][1] ? -1 : 1;
    const size_t i = ((const ranked_line *)a)->index, j = ((const ranked_line *)b)->index;
    return (i > j) - (i < j);
}

/* ---- cells --------------------------------------------------------------------------------- */

static void add_count(gp_text_table *t, uint64_t v)
{
    if (v)
        gp_table_cellf(t, "%llu", (unsigned long long)v);
    else
        gp_table_cell(t, "-");
}

static void add_ratio(gp_text_table *t, uint64_t num, uint64_t den)
{
    if (den)
        gp_table_cellf(t, "%.2f", (double)num / (double)den);
    else
        gp_table_cell(t, "-");
}

/* The counts' cells, from `inst` to `local`. */
static void add_counts(gp_text_table *t, const uint64_t *c, uint64_t kernel_excess)
{
    const uint64_t req = gp_source_requests(c), shared = gp_source_shared_requests(c);
    add_count(t, c[GP_SRC_INST]);
    add_count(t, req);
    add_ratio(t, c[GP_SRC_SECTORS], req);
    add_ratio(t, c[GP_SRC_SECTORS_IDEAL], req);
    if (gp_source_excess(c) && kernel_excess)
        gp_table_cellf(t, "%.1f%%", 100.0 * (double)gp_source_excess(c) / (double)kernel_excess);
    else
        gp_table_cell(t, "-");
    add_ratio(t, c[GP_SRC_WAVEFRONTS], shared);
    add_ratio(t, c[GP_SRC_WAVEFRONTS_IDEAL], shared);
    add_count(t, c[GP_SRC_LOCAL_SECTORS]);
}

/* What an instruction does, in words, from what it counted. */
static const char *access_of(const uint64_t *c)
{
    if (c[GP_SRC_GLOBAL_LD])
        return "global load";
    if (c[GP_SRC_GLOBAL_ST])
        return "global store";
    if (c[GP_SRC_SHARED_LD])
        return "shared load";
    if (c[GP_SRC_SHARED_ST])
        return "shared store";
    if (c[GP_SRC_LOCAL_LD])
        return "local load";
    if (c[GP_SRC_LOCAL_ST])
        return "local store";
    return c[GP_SRC_SECTORS] || c[GP_SRC_WAVEFRONTS] ? "memory" : "";
}

/* A line's row, and its source text under it (the file as the line information names it,
 * when it can be read); without line information a "line" is one instruction, named by its
 * offset and what it does. */
static void add_line_row(gp_text_table *t, const gp_source_kernel *k, const gp_source_line *l,
                         uint64_t kernel_excess)
{
    char where[96], text[300];
    gp_table_row(t);
    text[0] = '\0';
    if (l->file) {
        snprintf(where, sizeof where, "%s:%u", base_name(l->file), l->line);
        gp_source_line_text(l->file, l->line, text, sizeof text);
    } else {
        const size_t i = (size_t)(l - k->lines);
        snprintf(where, sizeof where, "?");
        for (size_t p = 0; p < k->n_pcs; p++)
            if (k->pcs[p].line == i) {
                snprintf(where, sizeof where, "+0x%04x %s", k->pcs[p].pc, access_of(l->counts));
                break;
            }
    }
    gp_table_cell(t, where);
    add_counts(t, l->counts, kernel_excess);
    if (text[0])
        gp_table_note(t, text, 4);
}

static void add_instruction_rows(gp_text_table *t, const gp_source_kernel *k, size_t line,
                                 uint64_t kernel_excess)
{
    for (size_t p = 0; p < k->n_pcs; p++) {
        const gp_source_pc *pc = &k->pcs[p];
        if (pc->line != line || !gp_source_moves_memory(pc->counts))
            continue;
        gp_table_row(t);
        gp_table_cellf(t, "  +0x%04x %s", pc->pc, access_of(pc->counts));
        add_counts(t, pc->counts, kernel_excess);
    }
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

/* The table's rows and notes: the lines that move memory, the worst first. */
static int fill_table(gp_text_table *t, const gp_source_kernel *k, const gp_render_options *o)
{
    ranked_line *order = malloc((k->n_lines ? k->n_lines : 1) * sizeof *order);
    if (!order)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t moving = 0;
    for (size_t i = 0; i < k->n_lines; i++)
        if (gp_source_moves_memory(k->lines[i].counts))
            order[moving++] = (ranked_line){&k->lines[i], i};
    qsort(order, moving, sizeof *order, worst_first);
    const uint64_t excess = gp_source_kernel_excess(k);
    const size_t shown = o && o->wide ? moving : moving < SHOWN_LINES ? moving : SHOWN_LINES;
    for (size_t i = 0; i < shown; i++) {
        add_line_row(t, k, order[i].line, excess);
        if (o && o->sass)
            add_instruction_rows(t, k, order[i].index, excess);
    }
    free(order);
    if (moving == 0)
        gp_table_note(t, "no instruction of this kernel moved global, shared or local memory",
                      2);
    if (shown < moving) {
        char more[128];
        snprintf(more, sizeof more, "%zu more lines move memory (--wide shows them all; JSON "
                 "holds every line)", moving - shown);
        gp_table_note(t, more, 2);
    }
    if (!k->has_lines)
        gp_table_note(t, "no line information in this kernel's code: its instructions by "
                      "offset (compile with nvcc -lineinfo for lines)", 2);
    return GP_OK;
}

int gp_text_source_kernel(FILE *out, const char *heading, const gp_source_kernel *k,
                          const gp_render_options *o)
{
    static const gp_column_spec columns[] = {
        {"line", GP_COLUMN_LEFT, 0},        {"inst", GP_COLUMN_RIGHT, 2},
        {"req", GP_COLUMN_RIGHT, 2},        {"sect/req", GP_COLUMN_RIGHT, 2},
        {"ideal/req", GP_COLUMN_RIGHT, 2},  {"excess", GP_COLUMN_RIGHT, 2},
        {"shm wf/req", GP_COLUMN_RIGHT, 2}, {"ideal/req", GP_COLUMN_RIGHT, 2},
        {"local", GP_COLUMN_RIGHT, 2},
    };
    GP_TRY(kernel_heading(out, heading, k, o));
    gp_text_table t;
    gp_table_init(&t, 1);
    GP_TABLE_COLUMNS(&t, columns);
    int rc = fill_table(&t, k, o);
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

void gp_text_source_legend(FILE *out, const gp_render_options *o)
{
    fputc('\n', out);
    gp_text_paragraph(out, "where memory moves, by source line, the most sectors over the ideal "
                      "first (--source): inst warp instructions executed; req global requests; "
                      "sect/req and ideal/req global sectors per request, accessed and ideal; "
                      "excess the line's share of the kernel's sectors over the ideal; shm wf/req "
                      "and ideal/req shared wavefronts per shared request, accessed and ideal "
                      "(more than ideal: bank conflicts); local spill sectors; the line's text "
                      "under it", gp_text_width(o), 2);
}

/* "<result>, kernel <name>": which result's kernel, the name in --kernel-name's style. */
static char *result_heading(const gp_result *res, const gp_source_kernel *k,
                            const gp_render_options *o)
{
    char what[GP_TEXT_LEN], name[1024];
    gp_result_describe(res, what, sizeof what);
    char *demangled = gp_demangle(k->kernel);
    gp_text_kernel_name(name, sizeof name, demangled ? demangled : k->kernel,
                        o ? o->kernel_name : GP_KERNEL_NAME_FULL);
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
    gp_text_source_legend(out, o);
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        for (size_t k = 0; k < res->n_line_kernels; k++) {
            char *heading = result_heading(res, &res->lines[k], o);
            if (!heading)
                return gp_fail(GP_ERR_RUNTIME, "out of host memory");
            fputc('\n', out);
            const int rc = gp_text_source_kernel(out, heading, &res->lines[k], o);
            free(heading);
            GP_TRY(rc);
        }
    }
    return GP_OK;
}
