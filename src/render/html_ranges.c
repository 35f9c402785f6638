/* exec's --by-range on the page: the range tree (gpuprof/exec_ranges.h) as a table of its
 * declared part (gpuprof/report_parts.h), in the tree's reading order, a range's label
 * indented by two no-break spaces per level, its whole path on hover; then what the columns
 * and any "~" mean. */
#include "render/html_ranges.h"

#include "gpuprof/exec_ranges.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/part.h"
#include "render/svg.h"

#include <stdbool.h>

static void ranges_note(FILE *out, const gp_exec_range *nodes, size_t n)
{
    bool time, dram;
    gp_exec_ranges_estimated(nodes, n, &time, &dram);
    fputs("<p class=\"note\">Each NVTX range (recorded by exec --nvtx) with the ranges within "
          "it under it, the most time first, each counting the kernels launched within it; "
          "PyTorch emit_nvtx's per-call parts of a label (seq, op_id, sizes) are removed; "
          "hover over a range for its path.", out);
    const char *const notes[] = {time ? GP_EXEC_ESTIMATE_NOTE : NULL,
                                 dram ? GP_RANGE_DRAM_ESTIMATE_NOTE : NULL};
    for (size_t i = 0; i < sizeof notes / sizeof *notes; i++)
        if (notes[i]) {
            fputs(" ~: ", out);
            gp_html_escape(out, notes[i]);
            fputc('.', out);
        }
    fputs("</p>\n", out);
}

int gp_html_ranges(FILE *out, const gp_report *r)
{
    gp_exec_range_tree t;
    GP_TRY(gp_exec_range_tree_init(&t, &r->exec));
    const gp_ranges_context c = {.kernels = t.kernels, .n_kernels = t.n_kernels,
                                 .labels = &t.labels, .indent = "\u00a0\u00a0", .whole = true,
                                 .metrics = gp_exec_ranges_have_metrics(t.nodes, t.n)};
    fputs("<h2>Ranges</h2>\n<div class=\"table-wrap\">", out);
    gp_part_html(out, &gp_ranges_part, t.nodes, t.n, &c, "ranges");
    fputs("</div>\n", out);
    ranges_note(out, t.nodes, t.n);
    gp_exec_range_tree_free(&t);
    return GP_OK;
}
