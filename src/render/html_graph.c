/* The HTML exec page's CUDA graph kernel nodes (render/html_graph.h). A program may launch a
 * graph a million times: its launches are grouped by graph node, the way their metrics were
 * obtained and their note, so the table has a row per node and way, not per launch. */
#include "render/html_graph.h"

#include "gpuprof/exec_graph.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "gpuprof/kernel_labels.h"
#include "render/text_graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int note_order(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

/* By graph, node, way and note; launch order within them. */
static int by_node(const void *pa, const void *pb)
{
    const gp_exec_launch *a = *(const gp_exec_launch *const *)pa,
                         *b = *(const gp_exec_launch *const *)pb;
    char how_a[64], how_b[64];
    if (a->graph != b->graph)
        return a->graph < b->graph ? -1 : 1;
    if (a->graph_node != b->graph_node)
        return a->graph_node < b->graph_node ? -1 : 1;
    gp_launch_how(how_a, sizeof how_a, a);
    gp_launch_how(how_b, sizeof how_b, b);
    int c = strcmp(how_a, how_b);
    c = c ? c : note_order(a->note, b->note);
    return c ? c : (a->pid != b->pid ? (a->pid < b->pid ? -1 : 1)
                                     : (a->id > b->id) - (a->id < b->id));
}

static bool same_row(const gp_exec_launch *a, const gp_exec_launch *b)
{
    char how_a[64], how_b[64];
    gp_launch_how(how_a, sizeof how_a, a);
    gp_launch_how(how_b, sizeof how_b, b);
    return a->graph == b->graph && a->graph_node == b->graph_node &&
           strcmp(how_a, how_b) == 0 && note_order(a->note, b->note) == 0 &&
           strcmp(a->kernel, b->kernel) == 0;
}

/* One row: the node, its kernel, its launches' count and time, the way, the note's number. */
static void node_row(FILE *out, const gp_exec_launch *const *first, size_t n,
                     gp_text_notes *notes, const gp_kernel_labels *kl)
{
    const gp_exec_launch *l = first[0];
    double total_ms = 0;
    size_t timed = 0;
    for (size_t i = 0; i < n; i++)
        if (first[i]->duration_ms >= 0) {
            total_ms += first[i]->duration_ms;
            timed++;
        }
    char how[64];
    gp_launch_how(how, sizeof how, l);
    fprintf(out, "<tr><td class=\"num\">%llu</td><td class=\"num\">%llu</td>",
            (unsigned long long)l->graph, (unsigned long long)l->graph_node);
    fprintf(out, "<td class=\"num\">%zu</td>", n);
    gp_html_td_num(out, "%.4f", timed ? total_ms / (double)timed : NAN);
    const size_t note = l->note ? gp_text_note_number(notes, l->note) : 0;
    if (note) {
        fputs("<td title=\"", out);
        gp_html_escape(out, l->note);
        fputs("\">", out);
        gp_html_escape(out, how);
        fprintf(out, " <sup>[%zu]</sup></td>", note);
    } else
        gp_html_td_text(out, how);
    fprintf(out, "<td class=\"kernel mono\">#%zu ", gp_kernel_labels_number(kl, l->kernel, l->variant));
    gp_html_escape(out, l->kernel);
    fputs("</td></tr>\n", out);
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
    size_t nk = 0;
    gp_kernel_labels kl = {0};
    int rc = gp_exec_summarize(e, &k, &nk);
    if (rc == GP_OK)
        rc = gp_kernel_labels_init(&kl, k, nk, GP_KERNEL_NAME_FULL);
    gp_exec_summary_free(k, nk);
    const gp_exec_launch **nodes = rc == GP_OK ? malloc(e->n_launches * sizeof *nodes) : NULL;
    if (!nodes) {
        gp_kernel_labels_free(&kl);
        return rc != GP_OK ? rc : gp_fail(GP_ERR_RUNTIME, "out of memory while writing HTML");
    }
    size_t n = 0;
    for (size_t i = 0; i < e->n_launches; i++)
        if (e->launches[i].graph_node)
            nodes[n++] = &e->launches[i];
    qsort(nodes, n, sizeof *nodes, by_node);
    fputs("<h2>CUDA graph kernel nodes</h2>\n<p>", out);
    gp_html_escape(out, summary);
    fputs(".</p>\n<div class=\"table-wrap\"><table class=\"graph-nodes\"><tr>"
          "<th class=\"num\">graph</th><th class=\"num\">node</th><th class=\"num\">launches"
          "</th><th class=\"num\">avg_ms</th><th>metrics</th><th>kernel</th></tr>\n", out);
    gp_text_notes notes;
    gp_text_notes_init(&notes);
    for (size_t i = 0, end; i < n; i = end) {
        for (end = i + 1; end < n && same_row(nodes[i], nodes[end]); end++)
            ;
        node_row(out, nodes + i, end - i, &notes, &kl);
    }
    fputs("</table></div>\n<p class=\"note\">Metrics: how the launches' metrics were obtained "
          "(shadow: the node launched alone before its graph launch; sampled: DRAM traffic "
          "sampled during the graph launch; graph: one range around the whole graph launch; "
          "timed: not profiled).</p>\n", out);
    notes_list(out, &notes);
    gp_text_notes_free(&notes);
    gp_kernel_labels_free(&kl);
    free(nodes);
    return GP_OK;
}
