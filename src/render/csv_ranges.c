/* CSV of exec's --by-range: one header line (unless --no-header), then a row per node of the
 * range tree (gpuprof/exec_ranges.h) in its reading order, flat: its whole folded path and
 * depth say where it sits. --csv-columns chooses among the part's columns
 * (gpuprof/report_parts.h). */
#include "gpuprof/exec_ranges.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/csv.h"
#include "render/part.h"

int gp_csv_exec_ranges(FILE *out, const gp_report *r, const gp_render_options *o)
{
    gp_exec_range_tree t;
    GP_TRY(gp_exec_range_tree_init(&t, &r->exec));
    const gp_ranges_context c = {.kernels = t.kernels, .n_kernels = t.n_kernels,
                                 .labels = &t.labels, .indent = ""};
    gp_csv_layout l = {0};
    int rc = gp_part_csv_layout(&l, &gp_ranges_part, &c);
    if (rc == GP_OK)
        rc = gp_csv_layout_choose(&l, o->csv_columns);
    if (rc == GP_OK && !o->no_header)
        gp_csv_layout_header(out, &l);
    for (size_t i = 0; rc == GP_OK && i < t.n; i++)
        gp_part_csv_layout_row(out, &l, &gp_ranges_part, &t.nodes[i], &c);
    gp_csv_layout_free(&l);
    gp_exec_range_tree_free(&t);
    return rc;
}
