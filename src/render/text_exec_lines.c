/* exec --source's per-line views as text (render/text_exec_lines.h): each view's table as
 * text_source.c writes the kernel commands' (the worst lines first, --sass the instructions),
 * headed by the kernel's #N and name and the launch patched; then, in #N order, the kernels
 * that have no lines and why (gpuprof/source_labels.h). Of a kernel that ran several codes,
 * the view of its variant with the most calls; with --wide every variant's (JSON, CSV and
 * HTML hold them all). A kernel code's warp stalls (--stalls, merged from a run of its own) go
 * beside its lines. */
#include "render/text_exec_lines.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/status.h"
#include "gpuprof/source_labels.h"
#include "gpuprof/source_stalls.h"
#include "render/text_layout.h"
#include "render/text_source.h"

#include <stdlib.h>
#include <string.h>

/* "#2 " and the kernel's name as the other tables give it, made printable (a kernel the
 * summary lacks is named in full); v: its view, whose file a merged report names. */
static void name_of(const gp_kernel_labels *kl, size_t number, const char *kernel,
                    const gp_exec_source_view *v, char *buf, size_t len)
{
    gp_source_tag(kl, number, v, buf, len);
    const size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s", number ? gp_kernel_labels_label(kl, number) : kernel);
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

/* "#2 NAME (process 690, launch 2 of the kernel, id 7)". */
static char *heading_of(const gp_source_label *l, const gp_kernel_labels *kl)
{
    char launch[128];
    const size_t len = GP_LABEL_LEN + GP_SOURCES_LEN + sizeof launch + 40;
    char *heading = malloc(len);
    if (!heading)
        return NULL;
    name_of(kl, l->number, l->kernel, l->view, heading, GP_LABEL_LEN + GP_SOURCES_LEN + 32);
    gp_source_label_launch(l, launch, sizeof launch);
    const size_t used = strlen(heading);
    snprintf(heading + used, len - used, " (%s)", launch);
    return heading;
}

/* A view with a launch: its table (its kernel code's stalls in s beside), and its note when
 * it has one. */
static int print_view(FILE *out, const gp_source_label *l, const gp_kernel_labels *kl,
                      const gp_stall_summary *s, const gp_render_options *o)
{
    char *heading = heading_of(l, kl);
    if (!heading)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    fputc('\n', out);
    const int rc = gp_text_source_kernel(
        out, heading, &l->view->view,
        gp_source_stall_kernel(s, l->view->view.kernel, l->view->code), o);
    free(heading);
    if (rc == GP_OK && l->view->note)
        gp_text_paragraph(out, l->view->note, gp_text_width(o), 2);
    return rc;
}

/* What the paragraphs of the kernels without lines need. */
typedef struct {
    FILE *out;
    const gp_kernel_labels *kl;
    const gp_render_options *o;
    bool started;
} without_lines;

/* "#3 NAME: no lines in process 690: <why>" (or without the process), after a blank line
 * before the first. */
static int print_without(void *ctx, size_t number, const char *kernel,
                         const gp_exec_source_view *v, const char *why)
{
    without_lines *w = ctx;
    char *name = malloc(GP_LABEL_LEN + GP_SOURCES_LEN + 32);
    const size_t len = GP_LABEL_LEN + GP_SOURCES_LEN + strlen(why) + 96;
    char *line = name ? malloc(len) : NULL;
    if (!line) {
        free(name);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    name_of(w->kl, number, kernel, v, name, GP_LABEL_LEN + GP_SOURCES_LEN + 32);
    if (v)
        snprintf(line, len, "%s: no lines in process %d: %s", name, v->pid, why);
    else
        snprintf(line, len, "%s: no lines: %s", name, why);
    if (!w->started)
        fputc('\n', w->out);
    w->started = true;
    gp_text_paragraph(w->out, line, gp_text_width(w->o), 2);
    free(line);
    free(name);
    return GP_OK;
}

int gp_text_exec_lines(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                        const gp_kernel_labels *kl, const gp_render_options *o)
{
    const gp_exec_info *e = &r->exec;
    if (!gp_exec_has_source(e))
        return GP_OK;
    gp_stall_summary s = {0};
    if (e->stalls.sampled)
        GP_TRY(gp_stall_summarize(e, NULL, &s));
    gp_source_label *l;
    size_t n;
    int rc = gp_source_labels(e, kl, &l, &n);
    if (rc != GP_OK) {
        gp_stall_summary_free(&s);
        return rc;
    }
    gp_text_source_legend(out, gp_source_any_stalls(e, &s), o);
    gp_text_paragraph(out, gp_exec_source_own_run(e)
                               ? "each kernel's lines were counted in gpuprof's own run of the "
                                 "command after the sampled one, its instructions patched to "
                                 "count them"
                               : "each kernel's lines were counted in one of its launches in "
                                 "each process, patched to count every instruction once the "
                                 "kernel's counters were collected",
                      gp_text_width(o), 2);
    size_t left_out = 0;
    for (size_t i = 0; rc == GP_OK && i < n; i++) {
        if (l[i].view->launch == GP_NO_LAUNCH)
            continue;
        if (l[i].variant > 1 && !(o && o->wide))
            left_out++;
        else
            rc = print_view(out, &l[i], kl, &s, o);
    }
    if (rc == GP_OK && left_out) {
        char line[160];
        snprintf(line, sizeof line, "%zu more view%s of the kernels' other variants (their "
                 "codes with fewer calls): --wide shows every variant's", left_out,
                 left_out == 1 ? "" : "s");
        fputc('\n', out);
        gp_text_paragraph(out, line, gp_text_width(o), 2);
    }
    without_lines w = {out, kl, o, false};
    if (rc == GP_OK)
        rc = gp_source_without_lines(l, n, k, nk, print_without, &w);
    gp_source_labels_free(l, n);
    gp_stall_summary_free(&s);
    return rc;
}
