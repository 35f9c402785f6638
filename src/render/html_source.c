/* The annotated source of render/html_source.h. A line's heat is its share of the kernel's
 * global sectors over the ideal plus its share of the shared wavefronts over theirs, halved:
 * red where the waste is, white where there is none. An exec report's views are headed by
 * their kernel's #N and the launch patched, and the kernels without lines listed with why. */
#include "render/html_source.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/demangle.h"
#include "gpuprof/source_view.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/html_page.h"
#include "gpuprof/source_labels.h"
#include "render/svg.h"

#include <math.h>
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

static void ratio_cell(FILE *out, uint64_t num, uint64_t den)
{
    gp_html_td_num(out, "%.2f", den ? (double)num / (double)den : NAN);
}

static void line_row(FILE *out, const gp_source_line *l, uint64_t global, uint64_t shared)
{
    char text[300], where[32];
    gp_source_line_text(l->file, l->line, text, sizeof text);
    const double h = heat(l->counts, global, shared);
    fprintf(out, "<tr style=\"background: rgba(214, 39, 40, %.2f)\">", 0.6 * h);
    snprintf(where, sizeof where, "%u", l->line);
    gp_html_td_text(out, l->file ? where : "?");
    fputs("<td><code>", out);
    gp_html_escape(out, text);
    fputs("</code></td>", out);
    const uint64_t *c = l->counts;
    ratio_cell(out, c[GP_SRC_SECTORS], gp_source_requests(c));
    ratio_cell(out, c[GP_SRC_SECTORS_IDEAL], gp_source_requests(c));
    gp_html_td_num(out, "%.1f", global ? 100.0 * (double)gp_source_excess(c) / (double)global
                                       : NAN);
    ratio_cell(out, c[GP_SRC_WAVEFRONTS], gp_source_shared_requests(c));
    ratio_cell(out, c[GP_SRC_WAVEFRONTS_IDEAL], gp_source_shared_requests(c));
    gp_html_td_num(out, "%.0f", c[GP_SRC_LOCAL_SECTORS] ? (double)c[GP_SRC_LOCAL_SECTORS] : NAN);
    fputs("</tr>\n", out);
}

/* One kernel's table under its heading (escaped here). */
static void kernel_section(FILE *out, const char *heading, const gp_source_kernel *k)
{
    static const char *const titles[] = {"line", "source", "sectors/req", "ideal/req",
                                         "excess %", "shared wf/req", "ideal/req", "local"};
    fputs("<h3>", out);
    gp_html_escape(out, heading);
    fputs("</h3>\n", out);
    if (!k->has_lines)
        fputs("<p>No line information in this kernel's code (compile with nvcc -lineinfo); "
              "JSON holds its instructions.</p>\n", out);
    const uint64_t global = gp_source_kernel_excess(k), shared = gp_source_kernel_shared_excess(k);
    fputs("<div class=\"scroll\"><table>\n<tr>", out);
    gp_html_th_list(out, titles, sizeof titles / sizeof titles[0], 2);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < k->n_lines; i++)
        if (gp_source_moves_memory(k->lines[i].counts))
            line_row(out, &k->lines[i], global, shared);
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
        kernel_section(out, heading, k);
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

/* Where the kernels without lines are listed. */
typedef struct {
    FILE *out;
    const gp_kernel_labels *kl;
} exec_page;

/* "#2 NAME: process 690, launch 2 of the kernel, id 7" ("#2 [3] NAME..." in a merged
 * report). */
static int view_section(FILE *out, const gp_source_label *l, const gp_kernel_labels *kl)
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
    kernel_section(out, heading, &l->view->view);
    free(heading);
    if (l->view->note) {
        fputs("<p>", out);
        gp_html_escape(out, l->view->note);
        fputs("</p>\n", out);
    }
    return GP_OK;
}

/* A kernel without lines, and why: an item of a list. */
static int item_without(void *ctx, size_t number, const char *kernel,
                        const gp_exec_source_view *v, const char *why)
{
    const exec_page *p = ctx;
    FILE *out = p->out;
    char tag[32 + GP_SOURCES_LEN];
    gp_source_tag(p->kl, number, v, tag, sizeof tag);
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

static int count_without(void *count, size_t number, const char *kernel,
                         const gp_exec_source_view *v, const char *why)
{
    (void)number;
    (void)kernel;
    (void)v;
    (void)why;
    ++*(size_t *)count;
    return GP_OK;
}

static int exec_sections(FILE *out, const gp_source_views *v)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->l[i].view->launch != GP_NO_LAUNCH)
            GP_TRY(view_section(out, &v->l[i], &v->kl));
    size_t without = 0;
    GP_TRY(gp_source_without_lines(v->l, v->n, v->k, v->nk, count_without, &without));
    if (!without)
        return GP_OK;
    fputs("<h3>Kernels without lines</h3>\n<ul>\n", out);
    exec_page p = {out, &v->kl};
    const int rc = gp_source_without_lines(v->l, v->n, v->k, v->nk, item_without, &p);
    fputs("</ul>\n", out);
    return rc;
}

int gp_html_exec_source(FILE *out, const gp_report *r)
{
    if (!gp_exec_has_source(&r->exec))
        return GP_OK;
    section_title(out, "in one launch of each kernel in each process, patched once its "
                       "counters were collected");
    gp_source_views v;
    int rc = gp_source_views_open(&v, r);
    if (rc == GP_OK)
        rc = exec_sections(out, &v);
    gp_source_views_close(&v);
    return rc;
}
