/* The per-line CSV of render/csv_source.h. Columns: the result (family, variant, type, n, nx,
 * ny, block, params as name=value separated by spaces), the kernel (mangled), file, line (both
 * empty without line information, pc then set), the counts of gpuprof/sass_source.h by key,
 * excess_sectors. */
#include "render/csv_source.h"

#include "gpuprof/source_view.h"
#include "gpuprof/status.h"
#include "render/cells.h"

#include <math.h>

static void put_u64(FILE *out, uint64_t v)
{
    fprintf(out, ",%llu", (unsigned long long)v);
}

static void put_header(FILE *out)
{
    static const char *const first[] = {"family", "variant", "type", "n", "nx", "ny", "block",
                                        "params", "kernel", "file", "line", "pc"};
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++)
        gp_csv_field(out, first[i], i == 0);
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

static void put_line(FILE *out, const gp_result *res, const gp_source_kernel *k, size_t i)
{
    const gp_source_line *l = &k->lines[i];
    put_result(out, res);
    gp_csv_field(out, k->kernel, false);
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
    if (!o || !o->no_header)
        put_header(out);
}

void gp_csv_source_result(FILE *out, const gp_result *res)
{
    for (size_t k = 0; k < res->n_line_kernels; k++)
        for (size_t l = 0; l < res->lines[k].n_lines; l++)
            put_line(out, res, &res->lines[k], l);
}
