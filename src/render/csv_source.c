/* The per-line CSV of render/csv_source.h: the per-line parts' CSV columns
 * (gpuprof/report_parts.h). A kernel command's rows begin with the result (family, variant,
 * type, n, nx, ny, block, params as name=value separated by spaces) and the kernel (mangled);
 * an exec report's with where the view comes from: the program (source, as exec's other rows),
 * the kernel's #N (kernel_id), its name and mangled name, the process and the patched launch's
 * id. Then file, line (both empty without line information, pc then set), the counts of
 * gpuprof/sass_source.h by key, excess_sectors; an exec report with warp stalls (--stalls)
 * then each line's stall_samples, stall_percent and stall_group (gpuprof/source_stalls.h). */
#include "render/csv_source.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/source_labels.h"
#include "gpuprof/source_stalls.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"

#include <stdlib.h>

/* The header of a kernel command's lines or an exec report's (part t). */
static void put_header(FILE *out, const gp_part *t, const gp_render_options *o)
{
    const gp_source_context none = {0};
    if (!o || !o->no_header)
        gp_part_csv_header(out, t, &none);
}

/* Each line of ctx's kernel. */
static void put_lines(FILE *out, const gp_part *t, const gp_source_context *ctx)
{
    for (size_t l = 0; l < ctx->kernel->n_lines; l++)
        gp_part_csv_row(out, t, &ctx->kernel->lines[l], ctx);
}

void gp_csv_source_header(FILE *out, const gp_render_options *o)
{
    put_header(out, &gp_source_line_part, o);
}

void gp_csv_source_result(FILE *out, const gp_result *res)
{
    for (size_t k = 0; k < res->n_line_kernels; k++) {
        gp_source_context ctx = gp_source_context_of(&res->lines[k]);
        ctx.result = res;
        put_lines(out, &gp_source_line_part, &ctx);
    }
}

/* ---- exec's views ------------------------------------------------------------------------ */

/* The program a view came from, as exec's other rows give it (a merged report: its file's). */
static char *program_of(const gp_report *r, const gp_exec_source_view *v)
{
    if (!r->n_sources)
        return gp_command_line_text(r->exec.argv, r->exec.argc);
    const gp_report_source *s = v->input < r->n_sources ? &r->sources[v->input] : NULL;
    return s ? gp_command_line_text(s->program, s->program_len) : gp_command_line_text(NULL, 0);
}

/* A view's lines in part t, its kernel code's stalls in s beside. */
static int put_view(FILE *out, const gp_report *r, const gp_part *t, const gp_source_label *l,
                    const gp_stall_summary *s)
{
    gp_source_context ctx = gp_source_context_of(&l->view->view);
    ctx.stalls = gp_source_stall_kernel(s, l->view->view.kernel, l->view->code);
    char *program = program_of(r, l->view);
    if (!program)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    ctx.view = l->view;
    ctx.program = program;
    ctx.number = l->number;
    ctx.name = l->kernel;
    put_lines(out, t, &ctx);
    free(program);
    return GP_OK;
}

int gp_csv_exec_source(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const bool stalls = r->exec.stalls.sampled;
    const gp_part *t = stalls ? &gp_source_exec_stall_line_part : &gp_source_exec_line_part;
    put_header(out, t, o);
    gp_source_views v;
    gp_stall_summary s = {0};
    int rc = gp_source_views_open(&v, r);
    if (rc == GP_OK && stalls)
        rc = gp_stall_summarize(&r->exec, NULL, &s);
    for (size_t i = 0; rc == GP_OK && i < v.n; i++)
        if (v.l[i].view->launch != GP_NO_LAUNCH)
            rc = put_view(out, r, t, &v.l[i], &s);
    gp_stall_summary_free(&s);
    gp_source_views_close(&v);
    return rc;
}
