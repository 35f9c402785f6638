/* exec's --by-range in text (and through it Markdown): the range tree of
 * gpuprof/exec_ranges.h as its declared part prints it (gpuprof/report_parts.h), a node's label
 * indented two columns per level (two no-break spaces in Markdown, whose cells are trimmed),
 * then the legend and what the "~" of an estimate means. */
#include "render/text_ranges.h"

#include "gpuprof/exec_ranges.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text_layout.h"

#include <stdbool.h>

#define NO_BREAK_SPACES "\u00a0\u00a0"

static void print_notes(FILE *out, const gp_exec_range *nodes, size_t n, size_t width)
{
    gp_text_paragraph(out, "legend: each NVTX range (recorded by exec --nvtx) with the ranges "
                      "within it indented under it, the most time first, each counting the "
                      "kernels launched within it; PyTorch emit_nvtx's per-call parts of a "
                      "label (seq, op_id, sizes) removed; %kernels = the range's share of the "
                      "time of all kernels; kernels = distinct kernels; top kernel = the "
                      "kernel of the most time in the range; " GP_TEXT_UNITS, width, 2);
    bool time, dram;
    gp_exec_ranges_estimated(nodes, n, &time, &dram);
    if (time)
        gp_text_estimate_note(out, width);
    if (dram)
        gp_text_paragraph(out, "~: " GP_RANGE_DRAM_ESTIMATE_NOTE, width, 3);
}

int gp_text_ranges(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                   const gp_kernel_labels *kl, const gp_render_options *o)
{
    gp_exec_range *nodes;
    size_t n;
    GP_TRY(gp_exec_ranges(&r->exec, k, nk, kl, &nodes, &n));
    const size_t width = gp_text_width(o);
    const gp_ranges_context c = {.kernels = k, .n_kernels = nk, .labels = kl,
                                 .indent = width == GP_TEXT_MARKDOWN ? NO_BREAK_SPACES : "  ",
                                 .whole = width != GP_TEXT_WIDTH};
    fputc('\n', out);
    const int rc = gp_part_text(out, &gp_ranges_part, nodes, n, &c, width);
    if (rc == GP_OK)
        print_notes(out, nodes, n, width);
    gp_exec_ranges_free(nodes, n);
    return rc;
}
