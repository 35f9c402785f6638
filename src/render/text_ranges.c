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

/* The memory metrics' columns: shown with --wide and in Markdown (at 120 columns they would
 * push the top kernel into a table of its own); the legend says how to see them. */
static void print_metrics_note(FILE *out, bool shown, size_t width)
{
    if (shown)
        gp_text_paragraph(out, "gld/req, gst/req = global load / store sectors per request, "
                          "ld_eff%, st_eff% = global load / store efficiency, each from the "
                          "sums of its counters over the range's launches that counted them "
                          "(weighted by the counters, not a mean of launches); - where none "
                          "did", width, 2);
    else
        gp_text_paragraph(out, "--wide adds each range's global sectors per request and "
                          "efficiencies, weighted by their counters", width, 2);
}

static void print_notes(FILE *out, const gp_exec_range *nodes, size_t n, size_t width,
                        const gp_ranges_context *c)
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
    if (gp_exec_ranges_have_metrics(nodes, n))
        print_metrics_note(out, c->metrics, width);
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
                                 .whole = width != GP_TEXT_WIDTH,
                                 .metrics = width != GP_TEXT_WIDTH &&
                                            gp_exec_ranges_have_metrics(nodes, n)};
    fputc('\n', out);
    const int rc = gp_part_text(out, &gp_ranges_part, nodes, n, &c, width);
    if (rc == GP_OK)
        print_notes(out, nodes, n, width, &c);
    gp_exec_ranges_free(nodes, n);
    return rc;
}
