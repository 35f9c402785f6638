/* exec --stalls in text (and through it Markdown): what the run sampled, a row per kernel code
 * (the stall kernel part, gpuprof/report_parts.h), the groups' legend once, then the lines of
 * the kernels with the most samples, worst first, each with its instructions under it with
 * --sass; a kernel whose lines the per-line view shows (--source, gpuprof/source_stalls.h)
 * has its lines' stalls there, beside their sectors, and is only named here. */
#include "render/text_stalls.h"

#include "gpuprof/exec_stalls.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/source_stalls.h"
#include "gpuprof/status.h"
#include "render/part.h"
#include "render/text_layout.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernels whose lines are listed; the others are counted under them. */
#define SHOWN_KERNELS 10

/* "warp stalls: N samples in the program's kernels ...", and what was lost. */
static void print_heading(FILE *out, const gp_stall_summary *s, size_t width)
{
    const gp_exec_stalls *st = s->stalls;
    char period[64] = "";
    if (st->period_log2)
        snprintf(period, sizeof period, ", a sample every 2^%u cycles of each SM sub-partition",
                 st->period_log2);
    char line[512];
    snprintf(line, sizeof line, "Warp stalls: %" PRIu64 " samples in the program's kernels (CUPTI's "
             "PC sampling during its own launches%s); %" PRIu64 " in other kernels, %" PRIu64
             " dropped", s->samples, period, st->non_user, st->dropped);
    fputc('\n', out);
    gp_text_paragraph(out, line, width, 2);
    if (st->dropped && st->samples) {
        snprintf(line, sizeof line, "warning: the hardware dropped %.1f%% of the samples (a "
                 "larger --stall-period samples less often)",
                 100.0 * (double)st->dropped / (double)st->samples);
        gp_text_paragraph(out, line, width, 2);
    }
    if (st->buffer_full)
        gp_text_paragraph(out, "warning: the hardware buffer filled: instructions were lost (a "
                          "larger --stall-period samples less often)", width, 2);
}

/* The groups' legend, a line each: its heading, name, reasons and what usually fixes it. */
static void print_legend(FILE *out, size_t width)
{
    gp_text_paragraph(out, "legend: %samples = the kernel's share of the samples in the "
                      "program's kernels; each group's share of the kernel's samples (a reason "
                      "counts every sample of a warp waiting for it, issued or not, as ncu's "
                      "All Samples); top reason by ncu's name (--wide: three); what usually "
                      "helps:", width, 2);
    for (size_t g = 0; g < GP_STALL_GROUPS; g++) {
        const gp_stall_group_info *i = &gp_stall_groups[g];
        char line[768];
        snprintf(line, sizeof line, "  %s = %s (%s): %s", i->header, i->name, i->reasons,
                 i->fix);
        gp_text_paragraph(out, line, width, 6);
    }
}

/* Which kernels a list names. */
typedef bool listed_fn(const gp_stall_kernel *k, const gp_exec_info *e);

static bool few(const gp_stall_kernel *k, const gp_exec_info *e)
{
    (void)e;
    return k->counts.few;
}

/* Of enough samples for shares, shown in the per-line view. */
static bool beside_lines(const gp_stall_kernel *k, const gp_exec_info *e)
{
    return !k->counts.few && gp_stall_kernel_has_lines(e, k);
}

/* "<opening>#3 init, #4 copy" of the kernels `listed` takes, a paragraph (after a blank line
 * when apart); nothing for none. */
static void print_list(FILE *out, const gp_stall_summary *s, const gp_exec_info *e,
                       listed_fn *listed, const char *opening, bool apart,
                       const gp_kernel_labels *kl, size_t width)
{
    char line[1024];
    size_t used = 0;
    for (size_t i = 0; i < s->n_kernels && used < sizeof line; i++) {
        const gp_stall_kernel *k = &s->kernels[i];
        if (!listed(k, e))
            continue;
        if (!used)
            used = (size_t)snprintf(line, sizeof line, "%s", opening);
        else
            used += (size_t)snprintf(line + used, sizeof line - used, ", ");
        if (used < sizeof line && k->number && kl)
            used += (size_t)snprintf(line + used, sizeof line - used, "#%zu %s", k->number,
                                     gp_kernel_labels_label(kl, k->number));
        else if (used < sizeof line)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s", k->name);
    }
    if (used && apart)
        fputc('\n', out);
    if (used)
        gp_text_paragraph(out, line, width, 2);
}

/* A kernel's lines: those of GP_STALL_LINE_MIN_PERCENT at least, worst first (--sass: each
 * line's instructions under it), then the others summed. */
static int print_lines(FILE *out, const gp_stall_kernel *k, const gp_stall_context *c,
                       const gp_render_options *o)
{
    const size_t width = gp_text_width(o);
    char heading[GP_LABEL_LEN + 128];
    const char *name = k->number && c->labels ? gp_kernel_labels_label(c->labels, k->number)
                                              : k->name;
    int n = k->number ? snprintf(heading, sizeof heading, "#%zu ", k->number) : 0;
    snprintf(heading + n, sizeof heading - (size_t)n, "%s: %" PRIu64 " samples, its lines of "
             "%.0f%% of them or more, worst first", name, k->counts.samples,
             GP_STALL_LINE_MIN_PERCENT);
    fputc('\n', out);
    gp_text_paragraph(out, heading, width, 2);
    gp_text_table t;
    gp_table_init(&t, gp_stall_line_part.n_key);
    gp_part_text_columns(&t, &gp_stall_line_part, c);
    for (size_t i = 0; i < k->shown; i++) {
        gp_part_text_row(&t, &gp_stall_line_part, &k->lines[i], c);
        for (size_t p = 0; o && o->sass && p < k->lines[i].n_pcs; p++)
            gp_part_text_row(&t, &gp_stall_line_part, &k->pcs[k->lines[i].first_pc + p], c);
    }
    if (k->other.others)
        gp_part_text_row(&t, &gp_stall_line_part, &k->other, c);
    const int rc = gp_table_print(out, &t, width);
    gp_table_free(&t);
    return rc;
}

/* The lines of the kernels with the most samples and enough of them for shares, but those
 * the per-line view shows. */
static int print_kernels_lines(FILE *out, const gp_stall_summary *s, const gp_exec_info *e,
                               gp_stall_context *c, const gp_render_options *o)
{
    size_t shown = 0, left = 0;
    for (size_t i = 0; i < s->n_kernels; i++) {
        if (s->kernels[i].counts.few || beside_lines(&s->kernels[i], e))
            continue;
        if (shown == SHOWN_KERNELS) {
            left++;
            continue;
        }
        c->kernel = &s->kernels[i];
        GP_TRY(print_lines(out, &s->kernels[i], c, o));
        shown++;
    }
    if (left) {
        char line[160];
        snprintf(line, sizeof line, "%zu more kernel%s with lines (CSV and JSON hold every "
                 "kernel's)", left, left == 1 ? "" : "s");
        fputc('\n', out);
        gp_text_paragraph(out, line, gp_text_width(o), 2);
    }
    return GP_OK;
}

int gp_text_stalls(FILE *out, const gp_report *r, const gp_kernel_labels *kl,
                   const gp_render_options *o)
{
    if (!r->exec.stalls.sampled)
        return GP_OK;
    gp_stall_summary s;
    GP_TRY(gp_stall_summarize(&r->exec, kl, &s));
    const size_t width = gp_text_width(o);
    gp_stall_context c = {.summary = &s, .labels = kl, .wide = o && o->wide};
    print_heading(out, &s, width);
    int rc = GP_OK;
    if (!s.n_kernels)
        gp_text_paragraph(out, "no sample fell in the program's kernels", width, 2);
    else
        rc = gp_part_text(out, &gp_stall_kernel_part, s.kernels, s.n_kernels, &c, width);
    if (rc == GP_OK && s.n_kernels) {
        char few_samples[96];
        snprintf(few_samples, sizeof few_samples, "-: too few samples for shares (fewer than "
                 "%d): ", GP_STALL_FEW_SAMPLES);
        print_list(out, &s, &r->exec, few, few_samples, false, kl, width);
        print_legend(out, width);
        print_list(out, &s, &r->exec, beside_lines, "each line's stalls beside its sectors in "
                   "the per-line view below (--source): ", true, kl, width);
        rc = print_kernels_lines(out, &s, &r->exec, &c, o);
    }
    gp_stall_summary_free(&s);
    return rc;
}
