/* exec --stalls on the page (render/html_stalls.h): the stall kernel part and each kernel's
 * line part (gpuprof/report_parts.h), each row followed by a stacked bar of its groups'
 * shares in the page's series colours, then what the run sampled and the groups' legend. A
 * kernel whose lines the per-line view shows (--source, gpuprof/source_stalls.h) has its
 * lines' stalls there, beside their sectors. */
#include "render/html_stalls.h"

#include "gpuprof/exec_stalls.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/source_stalls.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "render/part.h"
#include "render/svg.h"

#include <inttypes.h>
#include <math.h>

/* Each group's colour: the page's series classes (Okabe-Ito), other in grey. */
static const char *const group_class[GP_STALL_GROUPS] = {
    [GP_STALL_MEMORY_LATENCY] = "s0", [GP_STALL_MEMORY_THROUGHPUT] = "s1",
    [GP_STALL_SHARED_MEMORY] = "s2", [GP_STALL_SYNC] = "s3", [GP_STALL_ISSUE] = "s4",
    [GP_STALL_OTHER] = "s6",
};

/* A bar's width in pixels: a row's share of 100 % at most. */
#define BAR_WIDTH 160
#define BAR_HEIGHT 12

/* A row's groups as one bar, their shares on hover; none for a row of too few samples. */
static void stall_bar(FILE *out, const gp_stall_counts *c)
{
    fputs("<td>", out);
    if (c->few || !c->samples) {
        fputs("</td>", out);
        return;
    }
    fprintf(out, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>",
            BAR_WIDTH, BAR_HEIGHT, BAR_WIDTH, BAR_HEIGHT);
    for (size_t g = 0; g < GP_STALL_GROUPS; g++)
        fprintf(out, "%s%s %.1f%%", g ? ", " : "", gp_stall_groups[g].name,
                gp_stall_group_share(c, (gp_stall_group)g));
    fputs("</title>", out);
    double x = 0;
    for (size_t g = 0; g < GP_STALL_GROUPS; g++) {
        const double w = BAR_WIDTH * gp_stall_group_share(c, (gp_stall_group)g) / 100.0;
        if (w > 0)
            fprintf(out, "<rect class=\"bar %s\" x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\"/>",
                    group_class[g], x, w, BAR_HEIGHT);
        x += w;
    }
    fputs("</svg></td>", out);
}

static void stall_row(FILE *out, const gp_part *t, const void *row, const void *ctx)
{
    gp_part_html_tr(out, t, row, ctx);
    stall_bar(out, row);
    fputs("</tr>\n", out);
}

static void table_start(FILE *out, const gp_part *t, const void *ctx)
{
    fputs("<div class=\"table-wrap\"><table class=\"stalls\"><tr>", out);
    gp_part_html_headings(out, t, ctx);
    fputs("<th>groups</th></tr>\n", out);
}

/* A kernel's lines of GP_STALL_LINE_MIN_PERCENT at least, then the others summed. */
static void kernel_lines(FILE *out, const gp_stall_kernel *k, const gp_stall_context *c)
{
    fputs("<h3>", out);
    if (k->number && c->labels) {
        fprintf(out, "#%zu ", k->number);
        gp_html_escape(out, gp_kernel_labels_label(c->labels, k->number));
    } else {
        gp_html_escape(out, k->name);
    }
    fprintf(out, ": %" PRIu64 " samples</h3>\n", k->counts.samples);
    table_start(out, &gp_stall_line_part, c);
    for (size_t i = 0; i < k->shown; i++)
        stall_row(out, &gp_stall_line_part, &k->lines[i], c);
    if (k->other.others)
        stall_row(out, &gp_stall_line_part, &k->other, c);
    fputs("</table></div>\n", out);
}

/* What was sampled, what a share is, and each group's colour and what usually helps. */
static void legend(FILE *out, const gp_stall_summary *s)
{
    const gp_exec_stalls *st = s->stalls;
    fprintf(out, "<p class=\"note\">%" PRIu64 " samples in the program's kernels from CUPTI's "
            "PC sampling during its own launches", s->samples);
    if (st->period_log2)
        fprintf(out, ", a sample every 2^%u cycles of each SM sub-partition", st->period_log2);
    fprintf(out, "; %" PRIu64 " in other kernels, %" PRIu64 " dropped%s. A group's share is of "
            "the row's samples (a reason counts every sample of a warp waiting for it, issued "
            "or not, as ncu's All Samples); a kernel of fewer than %d samples has no shares; a "
            "kernel's lines of %.0f%% of its samples at least are listed, the others "
            "summed.</p>\n<ul class=\"note\">",
            st->non_user, st->dropped,
            st->buffer_full ? " (the hardware buffer filled: instructions were lost)" : "",
            GP_STALL_FEW_SAMPLES, GP_STALL_LINE_MIN_PERCENT);
    for (size_t g = 0; g < GP_STALL_GROUPS; g++) {
        const gp_stall_group_info *i = &gp_stall_groups[g];
        fprintf(out, "<li><svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" role=\"img\" "
                "style=\"display:inline\"><title>%s</title><rect class=\"swatch %s\" "
                "width=\"10\" height=\"10\"/></svg> %s (%s): ", i->name, group_class[g],
                i->name, i->reasons);
        gp_html_escape(out, i->fix);
        fputs(".</li>", out);
    }
    fputs("</ul>\n", out);
}

int gp_html_stalls(FILE *out, const gp_report *r)
{
    if (!r->exec.stalls.sampled)
        return GP_OK;
    gp_stall_view v;
    GP_TRY(gp_stall_view_init(&v, &r->exec));
    const gp_stall_summary s = v.summary;
    gp_stall_context c = {.summary = &v.summary, .labels = &v.labels};
    fputs("<h2>Warp stalls</h2>\n", out);
    table_start(out, &gp_stall_kernel_part, &c);
    for (size_t i = 0; i < s.n_kernels; i++)
        stall_row(out, &gp_stall_kernel_part, &s.kernels[i], &c);
    fputs("</table></div>\n", out);
    bool beside = false;
    for (size_t i = 0; i < s.n_kernels; i++) {
        c.kernel = &s.kernels[i];
        const bool in_view = gp_stall_kernel_has_lines(&r->exec, &s.kernels[i]);
        beside = beside || in_view;
        if (!s.kernels[i].counts.few && !in_view)
            kernel_lines(out, &s.kernels[i], &c);
    }
    if (beside)
        fputs("<p class=\"note\">The lines of the kernels of a per-line view have their "
              "stalls there, beside their sectors (below).</p>\n", out);
    legend(out, &s);
    gp_stall_view_free(&v);
    return GP_OK;
}
