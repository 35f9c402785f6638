/* CUDA graph kernel nodes as a part (gpuprof/report_parts.h): the launches that ran as graph
 * nodes grouped by graph, node, the way their metrics were obtained and their note, so that
 * a graph launched a million times is a row per node and way, not per launch. HTML shows
 * them (render/html_graph.c), each way's note numbered as the page lists it. */
#include "gpuprof/report_parts.h"

#include "gpuprof/exec_graph.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GP_PART_NUMBER_GETTER(get_graph, gp_graph_node, void, r->graph)
GP_PART_NUMBER_GETTER(get_node, gp_graph_node, void, r->node)
GP_PART_NUMBER_GETTER(get_launches, gp_graph_node, void, r->launches)
GP_PART_NUMBER_GETTER(get_average, gp_graph_node, void,
                      r->timed ? r->total_ms / (double)r->timed : NAN)
/* The way; with its note's footnote, the note on hover. */
GP_PART_GETTER(get_how, gp_graph_node, void,
               ((gp_cell){.text = r->how, .title = r->footnote ? r->note : NULL,
                          .footnote = r->footnote}))
/* The kernel's label (of the labels, the context), its #N before it, its full name on
 * hover. */
GP_PART_GETTER(get_kernel, gp_graph_node, gp_kernel_labels,
               (snprintf(buf, len, "#%zu ", gp_kernel_labels_number(c, r->kernel, r->variant)),
                (gp_cell){.text = gp_kernel_labels_name(c, r->kernel, r->variant), .tag = buf,
                          .title = r->kernel}))

static const gp_part_column columns[] = {
    {.key = "graph", .format = GP_NUMBER_WHOLE, .in = GP_IN_HTML, .get = get_graph,
     .legend = "the graph's id, the process's"},
    {.key = "node", .format = GP_NUMBER_WHOLE, .in = GP_IN_HTML, .get = get_node,
     .legend = "the kernel node's id"},
    {.key = "launches", .format = GP_NUMBER_WHOLE, .in = GP_IN_HTML, .get = get_launches},
    {.key = "avg_ms", .format = GP_NUMBER_MS, .in = GP_IN_HTML, .get = get_average,
     .legend = "the average time of the timed launches, ms"},
    {.key = "metrics", .in = GP_IN_HTML, .get = get_how,
     .legend = "how the launches' metrics were obtained: shadow, sampled, graph, timed"},
    {.key = "kernel", .in = GP_IN_HTML, .get = get_kernel, .html_class = "kernel mono"},
};

const gp_part gp_graph_nodes_part = GP_PART_DECLARE("graph_nodes", columns, 2, gp_graph_node,
                                                    -1);

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

/* Whether the launch belongs to the row begun by its first launch. */
static bool same_row(const gp_graph_node *g, const gp_exec_launch *first,
                     const gp_exec_launch *l)
{
    char how[64];
    gp_launch_how(how, sizeof how, l);
    return l->graph == g->graph && l->graph_node == g->node && strcmp(how, g->how) == 0 &&
           note_order(l->note, g->note) == 0 && strcmp(l->kernel, first->kernel) == 0;
}

static gp_graph_node row_of(const gp_exec_launch *l)
{
    gp_graph_node g = {.graph = l->graph, .node = l->graph_node, .kernel = l->kernel,
                       .variant = l->variant, .note = l->note};
    gp_launch_how(g.how, sizeof g.how, l);
    return g;
}

static void add_launch(gp_graph_node *g, const gp_exec_launch *l)
{
    g->launches++;
    if (l->duration_ms >= 0) {
        g->total_ms += l->duration_ms;
        g->timed++;
    }
}

/* The rows of the launches sorted by node, each a row's launches after its first. */
static int group(const gp_exec_launch *const *nodes, size_t count, gp_graph_node **out,
                 size_t *n)
{
    size_t capacity = 0;
    for (size_t i = 0, first = 0; i < count; i++) {
        if (!*n || !same_row(&(*out)[*n - 1], nodes[first], nodes[i])) {
            gp_graph_node *g = gp_append_zeroed(out, n, &capacity, sizeof *g);
            if (!g)
                return gp_fail(GP_ERR_RUNTIME, "out of host memory");
            *g = row_of(nodes[i]);
            first = i;
        }
        add_launch(&(*out)[*n - 1], nodes[i]);
    }
    return GP_OK;
}

int gp_graph_nodes(const gp_exec_info *e, gp_graph_node **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    const gp_exec_launch **nodes = malloc((e->n_launches ? e->n_launches : 1) * sizeof *nodes);
    if (!nodes)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t count = 0;
    for (size_t i = 0; i < e->n_launches; i++)
        if (e->launches[i].graph_node)
            nodes[count++] = &e->launches[i];
    qsort(nodes, count, sizeof *nodes, by_node);
    const int rc = group(nodes, count, out, n);
    free(nodes);
    if (rc != GP_OK) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}
