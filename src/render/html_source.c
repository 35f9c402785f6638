/* The annotated source of render/html_source.h. A line's heat is its share of the kernel's
 * global sectors over the ideal plus its share of the shared wavefronts over theirs, halved:
 * red where the waste is, white where there is none. An exec report's views are headed by
 * their kernel's #N and the launch patched, and the kernels without lines listed with why; a
 * kernel code's warp stalls (--stalls) beside its lines, those that hold them listed too. */
#include "render/html_source.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/demangle.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/source_labels.h"
#include "gpuprof/source_stalls.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "render/part.h"

#include <stdlib.h>
#include <string.h>

static double heat(const uint64_t *c, uint64_t global, uint64_t shared)
{
    double h = 0;
    if (global)
        h += (double)gp_source_excess(c) / (double)global;
    if (shared)
        h += (double)gp_source_shared_excess(c) / (double)shared;
    return global && shared ? h / 2 : h;
}

/* A line's row: the per-line part's cells, the line's text as code, in the heat colour of its
 * share of the kernel's waste. */
static void line_row(FILE *out, const gp_source_line *l, const gp_source_context *ctx)
{
    const gp_part *t = &gp_source_line_part;
    fprintf(out, "<tr style=\"background: rgba(214, 39, 40, %.2f)\">",
            0.6 * heat(l->counts, ctx->excess, ctx->shared_excess));
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_HTML, ctx, cols);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(t->columns[cols[i]].key, "source_text") != 0) {
            gp_part_html_cell(out, t, cols[i], l, ctx);
            continue;
        }
        char text[GP_SOURCE_TEXT_LEN];
        const gp_cell cell = gp_part_cell(t, cols[i], l, ctx, text, sizeof text);
        fputs("<td><code>", out);
        gp_html_escape(out, cell.text);
        fputs("</code></td>", out);
    }
    fputs("</tr>\n", out);
}

/* One kernel's table under its heading (escaped here), its warp stalls beside (NULL: none). */
static void kernel_section(FILE *out, const char *heading, const gp_source_kernel *k,
                           const gp_stall_kernel *stalls)
{
    fputs("<h3>", out);
    gp_html_escape(out, heading);
    fputs("</h3>\n", out);
    if (!k->has_lines)
        fputs("<p>No line information in this kernel's code (compile with nvcc -lineinfo); "
              "JSON holds its instructions.</p>\n", out);
    for (size_t f = 0; f < k->n_files; f++) {
        char note[GP_SOURCE_TEXT_LEN + 128];
        if (gp_source_file_note(&k->files[f], note, sizeof note)) {
            fputs("<p class=\"note\">", out);
            gp_html_escape(out, note);
            fputs("</p>\n", out);
        }
    }
    gp_source_context ctx = gp_source_context_of(k);
    ctx.stalls = stalls;
    fputs("<div class=\"scroll\"><table>\n<tr>", out);
    gp_part_html_headings(out, &gp_source_line_part, &ctx);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < k->n_lines; i++)
        if (gp_source_line_listed(stalls, k, &k->lines[i]))
            line_row(out, &k->lines[i], &ctx);
    fputs("</table></div>\n", out);
}

/* "<result>: <kernel, demangled>". */
static int result_section(FILE *out, const gp_result *res, const gp_source_kernel *k)
{
    char what[GP_TEXT_LEN];
    gp_result_describe(res, what, sizeof what);
    char *name = gp_demangle(k->kernel);
    const char *shown = name ? name : k->kernel;
    const size_t len = strlen(what) + strlen(shown) + 3;
    char *heading = malloc(len);
    if (heading) {
        snprintf(heading, len, "%s: %s", what, shown);
        kernel_section(out, heading, k, NULL);
    }
    free(heading);
    free(name);
    return heading ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
}

static void section_title(FILE *out, const char *counted)
{
    fprintf(out, "<h2>Where memory moves, by source line</h2>\n<p>The lines of each kernel that "
            "move global, shared or local memory, in source order, red by their share of the "
            "kernel's waste (global sectors over the ideal, shared wavefronts over the ideal). "
            "Counted by CUPTI's SASS metrics %s (--source).</p>\n", counted);
}

int gp_html_source(FILE *out, const gp_report *r)
{
    bool any = false;
    for (size_t i = 0; i < r->n_results && !any; i++)
        any = r->results[i].lines != NULL;
    if (!any)
        return GP_OK;
    section_title(out, "in one more run");
    for (size_t i = 0; i < r->n_results; i++)
        for (size_t k = 0; k < r->results[i].n_line_kernels; k++)
            GP_TRY(result_section(out, &r->results[i], &r->results[i].lines[k]));
    return GP_OK;
}

/* ---- exec's views ------------------------------------------------------------------------- */

/* Where the kernels without lines are listed; whether the list has begun. */
typedef struct {
    FILE *out;
    const gp_kernel_labels *kl;
    bool listed;
} exec_page;

/* "#2 NAME: process 690, launch 2 of the kernel, id 7" ("#2 [3] NAME..." in a merged
 * report). */
static int view_section(FILE *out, const gp_source_label *l, const gp_kernel_labels *kl,
                        const gp_stall_summary *s)
{
    char tag[32 + GP_SOURCES_LEN], launch[128];
    gp_source_tag(kl, l->number, l->view, tag, sizeof tag);
    gp_source_label_launch(l, launch, sizeof launch);
    const char *name = l->number ? gp_kernel_labels_label(kl, l->number) : l->kernel;
    const size_t len = sizeof tag + strlen(name) + sizeof launch + 3;
    char *heading = malloc(len);
    if (!heading)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    snprintf(heading, len, "%s%s: %s", tag, name, launch);
    kernel_section(out, heading, &l->view->view,
                   gp_source_stall_kernel(s, l->view->view.kernel, l->view->code));
    free(heading);
    if (l->view->note) {
        fputs("<p>", out);
        gp_html_escape(out, l->view->note);
        fputs("</p>\n", out);
    }
    return GP_OK;
}

/* A kernel without lines, and why: an item of a list, under its heading before the first. */
static int item_without(void *ctx, size_t number, const char *kernel,
                        const gp_exec_source_view *v, const char *why)
{
    exec_page *p = ctx;
    FILE *out = p->out;
    char tag[32 + GP_SOURCES_LEN];
    gp_source_tag(p->kl, number, v, tag, sizeof tag);
    if (!p->listed)
        fputs("<h3>Kernels without lines</h3>\n<ul>\n", out);
    p->listed = true;
    fputs("<li>", out);
    gp_html_escape(out, tag);
    gp_html_escape(out, number ? gp_kernel_labels_label(p->kl, number) : kernel);
    if (v)
        fprintf(out, ", process %d", v->pid);
    fputs(": ", out);
    gp_html_escape(out, why);
    fputs("</li>\n", out);
    return GP_OK;
}

static int exec_sections(FILE *out, const gp_source_views *v, const gp_stall_summary *s)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->l[i].view->launch != GP_NO_LAUNCH)
            GP_TRY(view_section(out, &v->l[i], &v->kl, s));
    exec_page p = {out, &v->kl, false};
    const int rc = gp_source_without_lines(v->l, v->n, v->k, v->nk, item_without, &p);
    if (p.listed)
        fputs("</ul>\n", out);
    return rc;
}

int gp_html_exec_source(FILE *out, const gp_report *r)
{
    if (!gp_exec_has_source(&r->exec))
        return GP_OK;
    section_title(out, gp_exec_source_own_run(&r->exec)
                           ? "in gpuprof's own run of the command after the sampled one"
                           : "in one launch of each kernel in each process, patched once its "
                             "counters were collected");
    gp_source_views v;
    gp_stall_summary s = {0};
    int rc = gp_source_views_open(&v, r);
    if (rc == GP_OK && r->exec.stalls.sampled)
        rc = gp_stall_summarize(&r->exec, NULL, &s);
    if (rc == GP_OK && gp_source_any_stalls(&r->exec, &s))
        fputs("<p>With the kernel's warp stalls (--stalls, a run of their own): each line's "
              "share of its kernel code's samples and the group of the most of them (on "
              "hover, as the warp stalls' legend names it); a line that moves no memory is "
              "listed when it holds 1 % of them.</p>\n", out);
    if (rc == GP_OK)
        rc = exec_sections(out, &v, &s);
    gp_stall_summary_free(&s);
    gp_source_views_close(&v);
    return rc;
}
