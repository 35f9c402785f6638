/* The per-line CSV of render/csv_source.h. Columns: the result (family, variant, type, n, nx,
 * ny, block, params as name=value separated by spaces), the kernel (mangled), file, line (both
 * empty without line information, pc then set), the counts of gpuprof/sass_source.h by key,
 * excess_sectors. An exec report's rows begin with where the view comes from instead: the
 * program (source, as exec's other rows), the kernel's #N (kernel_id), its name and mangled
 * name, the process and the patched launch's id; then file, line and pc as the others. */
#include "render/csv_source.h"

#include "gpuprof/source_view.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "gpuprof/source_labels.h"

#include <math.h>
#include <stdlib.h>

static void put_u64(FILE *out, uint64_t v)
{
    fprintf(out, ",%llu", (unsigned long long)v);
}

/* The header: the columns that say whose line it is, then those of the line. */
static void put_header(FILE *out, const char *const *first, size_t n)
{
    static const char *const where[] = {"file", "line", "pc"};
    for (size_t i = 0; i < n; i++)
        gp_csv_field(out, first[i], i == 0);
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
        gp_csv_field(out, where[i], false);
    for (int k = 0; k < GP_SRC_COUNTERS; k++)
        gp_csv_field(out, gp_source_keys[k], false);
    gp_csv_field(out, "excess_sectors", false);
    fputc('\n', out);
}

static void put_result(FILE *out, const gp_result *res)
{
    char block[64], params[256] = "";
    snprintf(block, sizeof block, "%ux%ux%u", res->block.x, res->block.y, res->block.z);
    for (size_t i = 0, used = 0; i < res->n_params && used < sizeof params; i++)
        if (!isnan(res->params[i].value))
            used += (size_t)snprintf(params + used, sizeof params - used, "%s%s=%g",
                                     used ? " " : "", res->params[i].name, res->params[i].value);
    gp_csv_field(out, res->family, true);
    gp_csv_field(out, res->variant, false);
    gp_csv_field(out, res->type, false);
    put_u64(out, res->n);
    put_u64(out, res->nx);
    put_u64(out, res->ny);
    gp_csv_field(out, block, false);
    gp_csv_field(out, params, false);
}

/* The offset of a line-less entry's one instruction. */
static long pc_of(const gp_source_kernel *k, size_t line)
{
    for (size_t p = 0; p < k->n_pcs; p++)
        if (k->pcs[p].line == line)
            return (long)k->pcs[p].pc;
    return -1;
}

/* A line's cells from file on, and the end of its row. */
static void put_line(FILE *out, const gp_source_kernel *k, size_t i)
{
    const gp_source_line *l = &k->lines[i];
    gp_csv_field(out, l->file ? l->file : "", false);
    if (l->file)
        fprintf(out, ",%u,", l->line);
    else if (pc_of(k, i) >= 0)
        fprintf(out, ",,%ld", pc_of(k, i));
    else
        fputs(",,", out);
    for (int c = 0; c < GP_SRC_COUNTERS; c++)
        put_u64(out, l->counts[c]);
    put_u64(out, gp_source_excess(l->counts));
    fputc('\n', out);
}

void gp_csv_source_header(FILE *out, const gp_render_options *o)
{
    static const char *const first[] = {"family", "variant", "type", "n", "nx", "ny", "block",
                                        "params", "kernel"};
    if (!o || !o->no_header)
        put_header(out, first, sizeof first / sizeof first[0]);
}

void gp_csv_source_result(FILE *out, const gp_result *res)
{
    for (size_t k = 0; k < res->n_line_kernels; k++)
        for (size_t l = 0; l < res->lines[k].n_lines; l++) {
            put_result(out, res);
            gp_csv_field(out, res->lines[k].kernel, false);
            put_line(out, &res->lines[k], l);
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

static int put_view(FILE *out, const gp_report *r, const gp_source_label *l)
{
    const gp_exec_source_view *v = l->view;
    char *program = program_of(r, v);
    if (!program)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < v->view.n_lines; i++) {
        gp_csv_field(out, program, true);
        put_u64(out, l->number);
        gp_csv_field(out, l->kernel, false);
        gp_csv_field(out, v->view.kernel, false);
        fprintf(out, ",%d", v->pid);
        put_u64(out, v->launch);
        put_line(out, &v->view, i);
    }
    free(program);
    return GP_OK;
}

int gp_csv_exec_source(FILE *out, const gp_report *r, const gp_render_options *o)
{
    static const char *const first[] = {"source", "kernel_id", "kernel", "mangled", "pid",
                                        "launch"};
    if (!o || !o->no_header)
        put_header(out, first, sizeof first / sizeof first[0]);
    gp_source_views v;
    int rc = gp_source_views_open(&v, r);
    for (size_t i = 0; rc == GP_OK && i < v.n; i++)
        if (v.l[i].view->launch != GP_NO_LAUNCH)
            rc = put_view(out, r, &v.l[i]);
    gp_source_views_close(&v);
    return rc;
}
