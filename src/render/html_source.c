/* The annotated source of render/html_source.h. A line's heat is its share of the kernel's
 * global sectors over the ideal plus its share of the shared wavefronts over theirs, halved:
 * red where the waste is, white where there is none. */
#include "render/html_source.h"

#include "gpuprof/demangle.h"
#include "gpuprof/source_view.h"
#include "render/cells.h"
#include "render/html_page.h"
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double heat(const uint64_t *c, uint64_t global, uint64_t shared)
{
    double h = 0;
    if (global)
        h += (double)gp_source_excess(c) / (double)global;
    if (shared)
        h += (double)gp_source_shared_excess(c) / (double)shared;
    return global && shared ? h / 2 : h;
}

static void ratio_cell(FILE *out, uint64_t num, uint64_t den)
{
    gp_html_td_num(out, "%.2f", den ? (double)num / (double)den : NAN);
}

static void line_row(FILE *out, const gp_source_line *l, uint64_t global, uint64_t shared)
{
    char text[300], where[32];
    gp_source_line_text(l->file, l->line, text, sizeof text);
    const double h = heat(l->counts, global, shared);
    fprintf(out, "<tr style=\"background: rgba(214, 39, 40, %.2f)\">", 0.6 * h);
    snprintf(where, sizeof where, "%u", l->line);
    gp_html_td_text(out, l->file ? where : "?");
    fputs("<td><code>", out);
    gp_html_escape(out, text);
    fputs("</code></td>", out);
    const uint64_t *c = l->counts;
    ratio_cell(out, c[GP_SRC_SECTORS], gp_source_requests(c));
    ratio_cell(out, c[GP_SRC_SECTORS_IDEAL], gp_source_requests(c));
    gp_html_td_num(out, "%.1f", global ? 100.0 * (double)gp_source_excess(c) / (double)global
                                       : NAN);
    ratio_cell(out, c[GP_SRC_WAVEFRONTS], gp_source_shared_requests(c));
    ratio_cell(out, c[GP_SRC_WAVEFRONTS_IDEAL], gp_source_shared_requests(c));
    gp_html_td_num(out, "%.0f", c[GP_SRC_LOCAL_SECTORS] ? (double)c[GP_SRC_LOCAL_SECTORS] : NAN);
    fputs("</tr>\n", out);
}

static void kernel_section(FILE *out, const gp_result *res, const gp_source_kernel *k)
{
    static const char *const titles[] = {"line", "source", "sectors/req", "ideal/req",
                                         "excess %", "shared wf/req", "ideal/req", "local"};
    char what[GP_TEXT_LEN];
    gp_result_describe(res, what, sizeof what);
    char *name = gp_demangle(k->kernel);
    fputs("<h3>", out);
    gp_html_escape(out, what);
    fputs(": ", out);
    gp_html_escape(out, name ? name : k->kernel);
    fputs("</h3>\n", out);
    free(name);
    if (!k->has_lines)
        fputs("<p>No line information in this kernel's code (compile with nvcc -lineinfo); "
              "JSON holds its instructions.</p>\n", out);
    const uint64_t global = gp_source_kernel_excess(k), shared = gp_source_kernel_shared_excess(k);
    fputs("<div class=\"scroll\"><table>\n<tr>", out);
    gp_html_th_list(out, titles, sizeof titles / sizeof titles[0], 2);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < k->n_lines; i++)
        if (gp_source_moves_memory(k->lines[i].counts))
            line_row(out, &k->lines[i], global, shared);
    fputs("</table></div>\n", out);
}

void gp_html_source(FILE *out, const gp_report *r)
{
    bool any = false;
    for (size_t i = 0; i < r->n_results && !any; i++)
        any = r->results[i].lines != NULL;
    if (!any)
        return;
    fputs("<h2>Where memory moves, by source line</h2>\n<p>The lines of each kernel that move "
          "global, shared or local memory, in source order, red by their share of the kernel's "
          "waste (global sectors over the ideal, shared wavefronts over the ideal). Counted by "
          "CUPTI's SASS metrics in one more run (--source).</p>\n", out);
    for (size_t i = 0; i < r->n_results; i++)
        for (size_t k = 0; k < r->results[i].n_line_kernels; k++)
            kernel_section(out, &r->results[i], &r->results[i].lines[k]);
}
