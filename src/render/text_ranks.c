/* Text of a rank view (gpuprof/ranks.h), for people: what ran and on how many ranks; then per
 * kernel its time and DRAM bytes over the ranks (least, median, most) and its slowest rank,
 * or with --by-rank a block per kernel with a row per rank, and a row per rank of its
 * kernels' time. Kernels are numbered #1 to #N in the view's order (the most time on one rank
 * first) in every format. The tables are the rank view's parts (gpuprof/report_parts.h); the
 * lines around them are this file's. */
#include "gpuprof/kernel_labels.h"
#include "gpuprof/ranks.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text.h"
#include "render/text_layout.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 5                 /* failed ranks, collectives named in a line */

/* ---- the header ------------------------------------------------------------------------- */

static size_t launches_of(const gp_rank_view *v)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n_ranks; i++)
        n += v->ranks[i].launches;
    return n;
}

/* "gpuprof 0.1.0  exec python3 train.py: 4 ranks of world size 8 (missing: 4-7), 368 launches
 * of 24 kernels". */
static void print_program(FILE *out, const gp_report *r, size_t width)
{
    const gp_rank_view *v = r->ranks;
    char line[4 * GP_TEXT_LEN], missing[256];
    size_t used = gp_text_exec_program(line, sizeof line, r);
    if (used < sizeof line)
        used += (size_t)snprintf(line + used, sizeof line - used, ": %zu rank%s",
                                 v->n_ranks, v->n_ranks == 1 ? "" : "s");
    if (v->world_size && used < sizeof line)
        used += (size_t)snprintf(line + used, sizeof line - used, " of world size %d",
                                 v->world_size);
    if (gp_rank_view_missing(v, missing, sizeof missing) && used < sizeof line)
        used += (size_t)snprintf(line + used, sizeof line - used, " (missing: %s)", missing);
    const size_t launches = launches_of(v);
    if (used < sizeof line)
        snprintf(line + used, sizeof line - used, ", %zu launch%s of %zu kernel%s", launches,
                 launches == 1 ? "" : "es", v->n_kernels, v->n_kernels == 1 ? "" : "s");
    gp_text_paragraph(out, line, width, 2);
}

/* The GPUs of every rank, and how the lowest rank's metrics were collected. */
static void print_devices(FILE *out, const gp_report *r, size_t width)
{
    char line[2048];
    const size_t used = gp_text_exec_gpus(line, sizeof line, &r->exec);
    if (r->profiler.state == GP_PROF_OK)
        snprintf(line + used, sizeof line - used, "; metrics: %s set (rank %d's)",
                 r->profiler.metric_set, r->ranks->ranks[0].rank);
    else
        snprintf(line + used, sizeof line - used, "; metrics: none (rank %d's)",
                 r->ranks->ranks[0].rank);
    gp_text_paragraph(out, line, width, 2);
}

/* How a rank ended: "exit status 1", "killed by signal 9". */
static void describe_end(char *buf, size_t len, const gp_rank_entry *e)
{
    if (e->signal)
        snprintf(buf, len, "killed by signal %d", e->signal);
    else
        snprintf(buf, len, "exit status %d", e->exit_status);
}

/* The ranks whose program failed, when any did. */
static void print_failures(FILE *out, const gp_rank_view *v, size_t width)
{
    char line[1024] = "";
    size_t used = 0, failed = 0;
    for (size_t i = 0; i < v->n_ranks; i++) {
        const gp_rank_entry *e = &v->ranks[i];
        if (!e->exit_status)
            continue;
        char end[64];
        describe_end(end, sizeof end, e);
        if (failed++ < MAX_LISTED && used < sizeof line)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%d (%s, %s)",
                                     used ? ", " : "", e->rank, e->file, end);
    }
    if (!failed)
        return;
    char text[1200];
    snprintf(text, sizeof text, "%zu rank%s failed: %s%s", failed, failed == 1 ? "" : "s",
             line, failed > MAX_LISTED ? ", ..." : "");
    gp_text_paragraph(out, text, width, 2);
}

static int rank_of(const gp_rank_view *v, size_t index)
{
    return index < v->n_ranks ? v->ranks[index].rank : -1;
}

/* ---- each kernel's spread over the ranks --------------------------------------------------- */

static bool any_estimated(const gp_rank_view *v)
{
    for (size_t i = 0; i < v->n_kernels; i++)
        if (v->kernels[i].time_ms.estimated || v->kernels[i].dram_bytes.estimated)
            return true;
    return false;
}

/* The collectives' footnote: their slowest rank waited longest; the fastest, which the
 * others waited for, is named where a collective ran on several ranks. */
static void print_collectives(FILE *out, const gp_rank_view *v, const char *mark,
                              size_t width)
{
    char named[512] = "";
    size_t used = 0, n = 0, collectives = 0;
    for (size_t i = 0; i < v->n_kernels; i++) {
        const gp_rank_kernel *k = &v->kernels[i];
        collectives += k->collective;
        if (!k->collective || k->fastest >= v->n_ranks || k->n_cells < 2)
            continue;
        if (n++ < MAX_LISTED && used < sizeof named)
            used += (size_t)snprintf(named + used, sizeof named - used, "%s#%zu rank %d",
                                     used ? ", " : "", i + 1, rank_of(v, k->fastest));
    }
    if (!collectives)
        return;
    char text[1024];
    snprintf(text, sizeof text, "%s: a collective kernel (NCCL, NVSHMEM): its time includes "
             "waiting for the other ranks, so its slowest rank is the one that waited longest, "
             "and the rank the others waited for is usually its fastest%s%s%s", mark,
             n ? " (" : "", named, n > MAX_LISTED ? ", ...)" : n ? ")" : "");
    gp_text_paragraph(out, text, width, mark[1] ? 2 : 3);  /* under the text after "*: " */
}

/* The legend under a table of the kernels, then what its marks mean. */
static void print_kernel_notes(FILE *out, const gp_rank_view *v, const char *legend,
                               const char *mark, size_t width)
{
    gp_text_paragraph(out, legend, width, 2);
    print_collectives(out, v, mark, width);
    if (any_estimated(v))
        gp_text_estimate_note(out, width);
}

static int print_spread(FILE *out, const gp_rank_part_ctx *c, size_t width)
{
    const gp_rank_view *v = c->view;
    fputc('\n', out);
    GP_TRY(gp_part_text(out, &gp_rank_kernel_part, v->kernels, v->n_kernels, c, width));
    print_kernel_notes(out, v, "legend: per kernel, over the ranks it ran on (ranks: how many, "
                       "of the view's), the least, median and most of its time on a rank (its "
                       "calls x the mean of its timed launches) and of the DRAM bytes it read "
                       "and wrote there (its calls x the means over its profiled launches); "
                       "max/med: the most time over the median; slowest: the rank of the most "
                       "time; " GP_TEXT_UNITS, "*", width);
    return GP_OK;
}

/* The ranks' kernel time in one line: which rank took most, against the median. */
static int print_rank_time(FILE *out, const gp_rank_view *v, size_t width)
{
    gp_rank_spread s;
    size_t slowest, fastest;
    GP_TRY(gp_rank_view_time_spread(v, &s, &slowest, &fastest));
    if (!s.ranks)
        return GP_OK;
    char least[40], median[40], most[40], text[512];
    gp_text_format_total(least, sizeof least, s.min, s.estimated);
    gp_text_format_total(median, sizeof median, s.median, s.estimated);
    gp_text_format_total(most, sizeof most, s.max, s.estimated);
    snprintf(text, sizeof text, "kernel time per rank (its kernels' times summed): least %s "
             "(rank %d), median %s, most %s (rank %d, %s)", least, rank_of(v, fastest), median,
             most, rank_of(v, slowest), v->ranks[slowest].file);
    fputc('\n', out);
    gp_text_paragraph(out, text, width, 2);
    return GP_OK;
}

/* ---- --by-rank: each kernel's value on each rank --------------------------------------- */

/* A kernel's name on a line of its own, then a row per rank it ran on. */
static int print_by_kernel(FILE *out, gp_rank_part_ctx *c, size_t width)
{
    const gp_rank_view *v = c->view;
    gp_text_table t;
    gp_table_init(&t, gp_rank_cell_part.n_key);
    gp_part_text_columns(&t, &gp_rank_cell_part, c);
    for (size_t i = 0; i < v->n_kernels; i++) {
        const gp_rank_kernel *k = &v->kernels[i];
        char head[48];
        snprintf(head, sizeof head, "Kernel #%zu%s: ", i + 1, k->collective ? " (collective)" : "");
        gp_table_name_line(&t, head, c->labels[i]);
        c->kernel = k;
        for (size_t r = 0; r < k->n_cells; r++)
            gp_part_text_row(&t, &gp_rank_cell_part, &k->cells[r], c);
    }
    fputc('\n', out);
    const int rc = gp_table_print(out, &t, width);
    gp_table_free(&t);
    GP_TRY(rc);
    print_kernel_notes(out, v, "legend: each kernel's time on each rank it ran on (its calls x "
                       "the mean of its timed launches) and the DRAM bytes it read and wrote "
                       "there, against their medians over those ranks; " GP_TEXT_UNITS,
                       "collective", width);
    return GP_OK;
}

/* A row per rank: its kernels' time against the median, how it ended, its file. */
static int print_ranks(FILE *out, gp_rank_part_ctx *c, size_t width)
{
    gp_rank_spread s;
    size_t slowest, fastest;
    GP_TRY(gp_rank_view_time_spread(c->view, &s, &slowest, &fastest));
    c->median_ms = s.median;
    fputc('\n', out);
    return gp_part_text(out, &gp_rank_entry_part, c->view->ranks, c->view->n_ranks, c, width);
}

/* ---- --by-range: each NVTX range path over the ranks ------------------------------------ */

static bool any_range_estimated(const gp_rank_view *v)
{
    for (size_t i = 0; i < v->n_ranges; i++)
        if (v->ranges[i].time_ms.estimated)
            return true;
    return false;
}

/* A row per range path, indented as --by-range indents one report's (two no-break spaces a
 * level in Markdown, whose cells are trimmed). */
static int print_ranges(FILE *out, gp_rank_part_ctx *c, size_t width)
{
    const gp_rank_view *v = c->view;
    c->indent = width == GP_TEXT_MARKDOWN ? "\u00a0\u00a0" : "  ";
    fputc('\n', out);
    GP_TRY(gp_part_text(out, &gp_rank_range_part, v->ranges, v->n_ranges, c, width));
    gp_text_paragraph(out, "legend: each NVTX range path of the ranks' reports (recorded by "
                      "exec --nvtx), with the paths within it indented under it, the most "
                      "time on one rank first, each counting the kernels launched within it "
                      "as report FILE --by-range does for one rank; ranks: those it occurred "
                      "on, of the view's (absent from the others); the least, median and most "
                      "of its time on a rank; max/min: the most over the least; slowest, "
                      "fastest: the ranks of the most and least time; calls: the most kernel "
                      "launches in it on one rank; " GP_TEXT_UNITS, width, 2);
    if (any_range_estimated(v))
        gp_text_estimate_note(out, width);
    return GP_OK;
}

/* ---- the view ----------------------------------------------------------------------------- */

/* The tables under the header: the kernels' spread and the ranks' time in a line, with
 * --by-range each range path's spread instead, or with --by-rank each kernel's value on each
 * rank and a row per rank. */
static int print_tables(FILE *out, gp_rank_part_ctx *c, const gp_render_options *o,
                        size_t width)
{
    if (o && o->by_range)
        return print_ranges(out, c, width);
    if (!(o && o->by_rank)) {
        GP_TRY(print_spread(out, c, width));
        return print_rank_time(out, c->view, width);
    }
    GP_TRY(print_by_kernel(out, c, width));
    return print_ranks(out, c, width);
}

int gp_text_ranks(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const gp_rank_view *v = r->ranks;
    const size_t width = gp_text_width(o);
    gp_kernel_labels kl;
    GP_TRY(gp_rank_view_labels(v, o ? o->kernel_name : GP_KERNEL_NAME_SHORT, &kl));
    const char **labels = malloc((v->n_kernels + 1) * sizeof *labels);
    int rc = labels ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < v->n_kernels; i++)
        labels[i] = gp_kernel_labels_label(&kl, i + 1);
    if (rc == GP_OK) {
        print_program(out, r, width);
        print_devices(out, r, width);
        print_failures(out, v, width);
        gp_rank_part_ctx c = {.view = v, .labels = labels};
        rc = print_tables(out, &c, o, width);
    }
    free(labels);
    gp_kernel_labels_free(&kl);
    return rc;
}
