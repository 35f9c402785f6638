/* The HTML page of a rank view (gpuprof/ranks.h; render/html_page.h has what the pages
 * share): the job and its ranks, each top kernel's time by rank (a bar per rank, or with many
 * ranks the median with a whisker from the least to the most), the spread of every kernel
 * over the ranks, with --by-range each NVTX range path's, with --by-rank its value on each
 * rank, and a row per rank. Kernels are
 * numbered #1 to #N as in the text and CSV and labelled as in every view (gpuprof/ranks.h,
 * the short style), the full name on hover and in the tables. The tables' numbers are the
 * rank view's parts' (gpuprof/report_parts.h). */
#include "render/html.h"

#include "gpuprof/exec_summary.h"
#include "gpuprof/ranks.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "render/part.h"
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOP_KERNELS 8                /* kernels in the chart of time by rank */
#define RANK_BARS 32                 /* the most ranks drawn a bar each; more: a whisker */

typedef struct {
    const gp_report *r;
    const gp_rank_view *v;
    gp_html_label *labels;           /* per kernel: "#3 label" */
    bool by_rank, by_range;
    /* The ranks' kernel time (gp_rank_view_time_spread), its most and least (indices): the
     * glance and the table of ranks both say them, worked out once for the page. */
    gp_rank_spread spread;
    size_t slowest, fastest;
} ranks_page;

static int rank_at(const gp_rank_view *v, size_t index)
{
    return index < v->n_ranks ? v->ranks[index].rank : -1;
}

/* ---- the header ---------------------------------------------------------------------------- */

static void ranks_line(FILE *out, const gp_rank_view *v)
{
    char text[512], missing[256];
    int used = snprintf(text, sizeof text, "%zu", v->n_ranks);
    if (v->world_size)
        used += snprintf(text + used, sizeof text - (size_t)used, " of world size %d",
                         v->world_size);
    if (gp_rank_view_missing(v, missing, sizeof missing) && used < (int)sizeof text)
        snprintf(text + used, sizeof text - (size_t)used, " (missing: %s)", missing);
    gp_html_dd_text(out, "ranks", text);
}

static void failed_line(FILE *out, const gp_rank_view *v)
{
    char text[1024] = "";
    size_t used = 0;
    for (size_t i = 0; i < v->n_ranks && used < sizeof text; i++) {
        const gp_rank_entry *e = &v->ranks[i];
        if (e->signal)
            used += (size_t)snprintf(text + used, sizeof text - used, "%srank %d killed by "
                                     "signal %d", used ? "; " : "", e->rank, e->signal);
        else if (e->exit_status)
            used += (size_t)snprintf(text + used, sizeof text - used, "%srank %d exit status "
                                     "%d", used ? "; " : "", e->rank, e->exit_status);
    }
    if (used)
        gp_html_dd_text(out, "failed", text);
}

static void header(FILE *out, const ranks_page *p)
{
    const gp_report *r = p->r;
    const gp_exec_info *e = &r->exec;
    fputs("<header>\n<h1>gpuprof exec ", out);
    gp_html_escape(out, e->argc ? e->argv[0] : "");
    fprintf(out, ": %zu rank%s</h1>\n<dl class=\"meta\">\n", p->v->n_ranks,
            p->v->n_ranks == 1 ? "" : "s");
    gp_html_dd_text(out, "gpuprof", r->tool_version);
    char term[64];
    snprintf(term, sizeof term, "command (rank %d)", p->v->ranks[0].rank);
    gp_html_code_line(out, term, r->command_line, r->command_line_len, NULL, NULL);
    gp_html_code_line(out, "program", e->argv, e->argc, NULL, NULL);
    ranks_line(out, p->v);
    failed_line(out, p->v);
    gp_html_gpus(out, e);
    gp_html_dd_text(out, "times", "per kernel and rank, its calls at the mean of its timed "
                    "launches (CUPTI's activity records); DRAM bytes read and written, its "
                    "calls at the means over its profiled launches");
    fputs("</dl>\n", out);
    gp_html_warnings(out, r);
    fputs("</header>\n", out);
}

static void glance(FILE *out, const ranks_page *p)
{
    const gp_rank_view *v = p->v;
    const gp_rank_spread s = p->spread;
    fprintf(out, "<section class=\"glance\">\n<p>%zu kernel%s on %zu rank%s.", v->n_kernels,
            v->n_kernels == 1 ? "" : "s", v->n_ranks, v->n_ranks == 1 ? "" : "s");
    if (s.ranks && s.median > 0)
        fprintf(out, " Most kernel time: <b>rank %d</b>, %s%.4f ms, %+.1f %% against the "
                "median rank's %.4f ms (least: rank %d, %.4f ms).",
                rank_at(v, p->slowest), s.estimated ? "~" : "", s.max,
                100.0 * (s.max - s.median) / s.median, s.median, rank_at(v, p->fastest), s.min);
    fputs("</p>\n</section>\n", out);
}

/* ---- the chart of time by rank --------------------------------------------------------------- */

static size_t top(const gp_rank_view *v)
{
    return v->n_kernels < TOP_KERNELS ? v->n_kernels : TOP_KERNELS;
}

/* A bar per rank under each kernel's heading, the slowest marked. */
static size_t rank_rows(const ranks_page *p, gp_svg_row *rows, char (*labels)[32])
{
    const gp_rank_view *v = p->v;
    size_t n = 0;
    for (size_t i = 0; i < top(v); i++) {
        const gp_rank_kernel *k = &v->kernels[i];
        rows[n++] = (gp_svg_row){.label = p->labels[i], .full = k->kernel,
                                 .heading = true};
        for (size_t c = 0; c < k->n_cells; c++) {
            const gp_rank_cell *cell = &k->cells[c];
            const size_t at = n++;
            gp_svg_row *row = &rows[at];
            snprintf(labels[at], sizeof labels[at], "rank %d", rank_at(v, cell->rank));
            /* The kernel's name is its heading's: a rank's bar says the rank alone. */
            *row = (gp_svg_row){.label = labels[at], .values = {cell->total_ms}};
            if (isfinite(cell->total_ms))
                snprintf(row->value_text[0], GP_SVG_VALUE_LEN, "%s%.4f ms",
                         cell->total_estimated ? "~" : "", cell->total_ms);
            if (cell->rank == k->slowest && k->n_cells > 1) {
                row->row_class = "slowest";
                row->marker = k->collective ? "slowest (waited longest)" : "slowest";
            }
        }
    }
    return n;
}

/* A bar per kernel at its median, a whisker from its least to its most time. */
static size_t spread_rows(const ranks_page *p, gp_svg_row *rows)
{
    const gp_rank_view *v = p->v;
    for (size_t i = 0; i < top(v); i++) {
        const gp_rank_kernel *k = &v->kernels[i];
        gp_svg_row *row = &rows[i];
        *row = (gp_svg_row){.label = p->labels[i], .full = k->kernel,
                            .values = {k->time_ms.median}, .lo = {k->time_ms.min},
                            .hi = {k->time_ms.max}};
        if (!k->time_ms.ranks)
            continue;
        snprintf(row->value_text[0], GP_SVG_VALUE_LEN, "median %.4f ms \xc2\xb7 most %.4f ms "
                 "(rank %d)", k->time_ms.median, k->time_ms.max, rank_at(v, k->slowest));
        snprintf(row->whisker_text[0], GP_SVG_VALUE_LEN, "ranks from %.4f to %.4f ms",
                 k->time_ms.min, k->time_ms.max);
    }
    return top(v);
}

static int time_chart(FILE *out, const ranks_page *p)
{
    const gp_rank_view *v = p->v;
    const bool bars = v->n_ranks <= RANK_BARS;
    const size_t most = bars ? top(v) * (v->n_ranks + 1) : top(v);
    gp_svg_row *rows = calloc(most + 1, sizeof *rows);
    char (*labels)[32] = calloc(most + 1, sizeof *labels);
    if (!rows || !labels) {
        free(rows);
        free(labels);
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    const size_t n = bars ? rank_rows(p, rows, labels) : spread_rows(p, rows);
    const gp_svg_bars chart = {.title = "Time of the top kernels by rank, ms",
                               .axis_title = "the kernel's time on the rank, ms",
                               .n_series = 1, .rows = rows, .n_rows = n};
    fputs("<h2>Time by rank</h2>\n", out);
    gp_html_figure_start(out, "rank-time");
    gp_svg_bar_chart(out, &chart);
    fprintf(out, "<figcaption>The %zu kernel%s with the most time on one rank: %s. A "
                 "collective's time includes waiting for the other ranks: its slowest rank "
                 "waited longest, and the rank the others waited for is usually its fastest."
                 "</figcaption>\n</figure>\n",
            top(v), top(v) == 1 ? "" : "s",
            bars ? "each one's time on each rank it ran on (its calls at the mean of its "
                   "timed launches), the slowest marked"
                 : "the median over the ranks it ran on, the whisker from the least to the "
                   "most");
    free(rows);
    free(labels);
    return GP_OK;
}

/* ---- the tables ------------------------------------------------------------------------------ */

/* Each kernel's spread: the part's cells, its names. */
static void spread_table(FILE *out, const ranks_page *p)
{
    const gp_rank_view *v = p->v;
    const gp_rank_part_ctx c = {.view = v};
    fputs("<h2>Kernels over the ranks</h2>\n<div class=\"table-wrap\"><table class=\"kernels "
          "ranks\"><tr>", out);
    gp_part_html_headings(out, &gp_rank_kernel_part, &c);
    fputs("<th>kernel</th></tr>\n", out);
    for (size_t i = 0; i < v->n_kernels; i++) {
        const gp_rank_kernel *k = &v->kernels[i];
        gp_part_html_tr(out, &gp_rank_kernel_part, k, &c);
        gp_html_kernel_cell(out, k->kernel, p->labels[i],
                            k->collective ? " <i>(collective)</i>" : NULL, true);
        fputs("</tr>\n", out);
    }
    fputs("</table></div>\n<p class=\"note\">Per kernel, over the ranks it ran on (ranks: how "
          "many, of the view's): the least, median and most of its time on a rank, and of the "
          "DRAM bytes it read and wrote there (MB, 10^6 bytes); the slowest rank took the "
          "most time. ~: ", out);
    gp_html_escape(out, GP_EXEC_ESTIMATE_NOTE);
    fputs(".</p>\n", out);
}

/* --by-range: a row per NVTX range path over the ranks, in the tree's reading order, its
 * label indented by its depth, its path on hover. */
static void ranges_table(FILE *out, const ranks_page *p)
{
    const gp_rank_part_ctx c = {.view = p->v, .indent = "\u00a0\u00a0"};
    fputs("<h2>Ranges over the ranks</h2>\n<div class=\"table-wrap\">", out);
    gp_part_html(out, &gp_rank_range_part, p->v->ranges, p->v->n_ranges, &c, "ranges");
    fputs("</div>\n<p class=\"note\">Each NVTX range path of the ranks' reports (recorded by "
          "exec --nvtx) with the paths within it under it, the most time on one rank first, "
          "each counting the kernels launched within it as report FILE --by-range does for one "
          "rank; over the ranks it occurred on (ranks: how many, of the view's): the least, "
          "median and most of its time on a rank, the most over the least, the ranks of the "
          "most and least time, and the most calls on one rank; hover over a range for its "
          "path. ~: ", out);
    gp_html_escape(out, GP_EXEC_ESTIMATE_NOTE);
    fputs(".</p>\n", out);
}

/* A heading row per kernel (its name once: a job of many ranks has many rows), then a row
 * per rank it ran on. */
static void by_rank_table(FILE *out, const ranks_page *p)
{
    const gp_rank_view *v = p->v;
    gp_rank_part_ctx c = {.view = v};
    size_t columns = 0;
    for (size_t i = 0; i < gp_rank_cell_part.n_columns; i++)
        columns += gp_part_shows(&gp_rank_cell_part, i, GP_IN_HTML, &c);
    fputs("<h2>Kernels by rank</h2>\n<div class=\"table-wrap\"><table class=\"by-rank\"><tr>",
          out);
    gp_part_html_headings(out, &gp_rank_cell_part, &c);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < v->n_kernels; i++) {
        const gp_rank_kernel *k = &v->kernels[i];
        fprintf(out, "<tr class=\"kernel-head\"><td class=\"kernel\" colspan=\"%zu\" "
                "title=\"", columns);
        gp_html_escape(out, k->kernel);
        fputs("\"><b>", out);
        gp_html_escape(out, p->labels[i]);
        fprintf(out, "</b>%s</td></tr>\n", k->collective ? " <i>(collective)</i>" : "");
        c.kernel = k;
        for (size_t r = 0; r < k->n_cells; r++)
            gp_part_html_row(out, &gp_rank_cell_part, &k->cells[r], &c);
    }
    fputs("</table></div>\n", out);
}

static void ranks_table(FILE *out, const ranks_page *p)
{
    const gp_rank_view *v = p->v;
    const gp_rank_entry *slowest = p->slowest < v->n_ranks ? &v->ranks[p->slowest] : NULL;
    const gp_rank_part_ctx c = {.view = v, .median_ms = p->spread.median, .slowest = slowest};
    fputs("<h2>Ranks</h2>\n<div class=\"table-wrap\"><table class=\"rank-list\"><tr>", out);
    gp_part_html_headings(out, &gp_rank_entry_part, &c);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < v->n_ranks; i++)
        gp_part_html_row(out, &gp_rank_entry_part, &v->ranks[i], &c);
    fputs("</table></div>\n", out);
}

/* ---- the page -------------------------------------------------------------------------------- */

static int page(FILE *out, const void *ctx)
{
    const ranks_page *p = ctx;
    header(out, p);
    glance(out, p);
    if (p->v->n_kernels)
        GP_TRY(time_chart(out, p));
    spread_table(out, p);
    if (p->by_range)
        ranges_table(out, p);
    if (p->by_rank)
        by_rank_table(out, p);
    ranks_table(out, p);
    return GP_OK;
}

/* "#3 label": each kernel's label after its number, as every view numbers it. */
static int number_labels(ranks_page *p)
{
    gp_kernel_labels kl;
    GP_TRY(gp_rank_view_labels(p->v, GP_KERNEL_NAME_SHORT, &kl));
    const int rc = gp_html_numbered_labels(&kl, p->v->n_kernels, &p->labels);
    gp_kernel_labels_free(&kl);
    return rc;
}

int gp_html_ranks(FILE *out, const gp_report *r, const gp_render_options *o)
{
    ranks_page p = {.r = r, .v = r->ranks, .by_rank = o && o->by_rank,
                    .by_range = o && o->by_range};
    GP_TRY(gp_rank_view_time_spread(p.v, &p.spread, &p.slowest, &p.fastest));
    GP_TRY(number_labels(&p));
    char title[GP_TEXT_LEN];
    snprintf(title, sizeof title, "gpuprof exec %.200s: %zu ranks",
             r->exec.argc ? r->exec.argv[0] : "", r->ranks->n_ranks);
    const int rc = gp_html_page(out, title, page, &p);
    free(p.labels);
    return rc;
}
