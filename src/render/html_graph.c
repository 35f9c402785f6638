/* The HTML exec page's CUDA graph kernel nodes (render/html_graph.h): the graph-nodes part
 * (report/graph_part.c, a row per node and way its metrics were obtained), under the graphs'
 * sentence, with each way's note as a tooltip and numbered footnote, each kernel by its #N. */
#include "render/html_graph.h"

#include "gpuprof/exec_graph.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "render/part.h"
#include "render/text_graph.h"

#include <stdlib.h>

/* The part's table, each way's note numbered as first met. */
static void nodes_table(FILE *out, gp_graph_node *rows, size_t n, gp_text_notes *notes,
                        const gp_kernel_labels *kl)
{
    for (size_t i = 0; i < n; i++)
        rows[i].footnote = rows[i].note ? gp_text_note_number(notes, rows[i].note) : 0;
    fputs("<div class=\"table-wrap\"><table class=\"graph-nodes\"><tr>", out);
    gp_part_html_headings(out, &gp_graph_nodes_part, kl);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < n; i++)
        gp_part_html_row(out, &gp_graph_nodes_part, &rows[i], kl);
    fputs("</table></div>\n<p class=\"note\">Metrics: how the launches' metrics were obtained "
          "(shadow: the node launched alone before its graph launch; sampled: DRAM traffic "
          "sampled during the graph launch; graph: one range around the whole graph launch; "
          "timed: not profiled).</p>\n", out);
}

static void notes_list(FILE *out, const gp_text_notes *notes)
{
    for (size_t i = 0; i < notes->n; i++) {
        fprintf(out, "<p class=\"note\">[%zu] ", i + 1);
        gp_html_escape(out, notes->notes[i]);
        fputs("</p>\n", out);
    }
}

int gp_html_graph_nodes(FILE *out, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    char summary[1024];
    if (!gp_exec_graph_summary(summary, sizeof summary, e))
        return GP_OK;
    /* each kernel by its #N, as the page's other tables and the text number it */
    gp_exec_kernel *k = NULL;
    size_t nk = 0, n = 0;
    gp_kernel_labels kl = {0};
    gp_graph_node *rows = NULL;
    int rc = gp_exec_summarize(e, &k, &nk);
    if (rc == GP_OK)
        rc = gp_kernel_labels_init(&kl, k, nk, GP_KERNEL_NAME_SHORT);
    gp_exec_summary_free(k, nk);
    if (rc == GP_OK)
        rc = gp_graph_nodes(e, &rows, &n);
    if (rc == GP_OK) {
        fputs("<h2>CUDA graph kernel nodes</h2>\n<p>", out);
        gp_html_escape(out, summary);
        fputs(".</p>\n", out);
        gp_text_notes notes;
        gp_text_notes_init(&notes);
        nodes_table(out, rows, n, &notes, &kl);
        notes_list(out, &notes);
        gp_text_notes_free(&notes);
    }
    free(rows);
    gp_kernel_labels_free(&kl);
    return rc;
}
