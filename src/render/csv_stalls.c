/* CSV of exec --stalls: one header line (unless --no-header), then a row per kernel code and
 * source line, the kernels the most samples first and each kernel's lines worst first, every
 * line (people's views sum the small ones): the stall line part's columns
 * (gpuprof/report_parts.h), then the line's samples of each reason, a column each, by ncu's
 * names in the report's order. */
#include "gpuprof/exec_stalls.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/csv.h"
#include "render/part.h"

#include <inttypes.h>
#include <stdio.h>

static void write_header(FILE *out, const gp_exec_stalls *s, const gp_stall_context *c)
{
    gp_part_csv_keys(out, &gp_stall_line_part, c);
    for (size_t r = 0; r < s->n_reasons; r++)
        gp_csv_field(out, s->reasons[r], false);
    fputc('\n', out);
}

static void write_line(FILE *out, const gp_stall_line *l, const gp_stall_context *c,
                       size_t n_reasons)
{
    gp_part_csv_cells(out, &gp_stall_line_part, l, c);
    for (size_t r = 0; r < n_reasons; r++) {
        char count[24];
        snprintf(count, sizeof count, "%" PRIu64, l->counts.reasons[r]);
        gp_csv_field(out, count, false);
    }
    fputc('\n', out);
}

int gp_csv_exec_stalls(FILE *out, const gp_report *r, const gp_render_options *o)
{
    gp_stall_view v;
    GP_TRY(gp_stall_view_init(&v, &r->exec));
    gp_stall_context c = {.summary = &v.summary, .labels = &v.labels};
    if (!o->no_header)
        write_header(out, &r->exec.stalls, &c);
    for (size_t k = 0; k < v.summary.n_kernels; k++) {
        const gp_stall_kernel *kernel = &v.summary.kernels[k];
        c.kernel = kernel;
        for (size_t i = 0; i < kernel->n_lines; i++)
            write_line(out, &kernel->lines[i], &c, r->exec.stalls.n_reasons);
    }
    gp_stall_view_free(&v);
    return GP_OK;
}
