/* CSV of a rank view (gpuprof/ranks.h): one header line (unless --no-header), then a row per
 * kernel with its spread over the ranks, or with --by-rank a row per kernel and rank it ran on,
 * or with --by-range a row per NVTX range path with its spread, flat (its path and depth say
 * where it sits); --csv-columns chooses among the columns (render/csv_layout.h). The columns
 * are the rank view's parts' (gpuprof/report_parts.h). Kernels in the view's order, kernel_id
 * their #N of the text and HTML; ranks by their rank. Numbers as "%.10g", empty where unknown;
 * flags 1 or 0. */
#include "gpuprof/ranks.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/csv.h"
#include "render/part.h"

/* A row per range path, per kernel, or per kernel and rank (the cell part's rows, the kernel
 * in ctx). */
static void write_rows(FILE *out, const gp_csv_layout *l, const gp_part *t,
                       gp_rank_part_ctx *c)
{
    if (t == &gp_rank_range_part) {
        for (size_t i = 0; i < c->view->n_ranges; i++)
            gp_part_csv_layout_row(out, l, t, &c->view->ranges[i], c);
        return;
    }
    for (size_t i = 0; i < c->view->n_kernels; i++) {
        const gp_rank_kernel *k = &c->view->kernels[i];
        c->kernel = k;
        if (t == &gp_rank_kernel_part)
            gp_part_csv_layout_row(out, l, t, k, c);
        else
            for (size_t r = 0; r < k->n_cells; r++)
                gp_part_csv_layout_row(out, l, t, &k->cells[r], c);
    }
}

int gp_csv_ranks(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const gp_part *t = o && o->by_range  ? &gp_rank_range_part
                       : o && o->by_rank ? &gp_rank_cell_part
                                         : &gp_rank_kernel_part;
    gp_rank_part_ctx c = {.view = r->ranks};
    gp_csv_layout l = {0};
    int rc = gp_part_csv_layout(&l, t, &c);
    if (rc == GP_OK)
        rc = gp_csv_layout_choose(&l, o ? o->csv_columns : NULL);
    if (rc == GP_OK && !(o && o->no_header))
        gp_csv_layout_header(out, &l);
    if (rc == GP_OK)
        write_rows(out, &l, t, &c);
    gp_csv_layout_free(&l);
    return rc;
}
