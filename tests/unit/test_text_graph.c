/* CUDA-graph kernel nodes in exec's views (gpuprof/exec_graph.h, render/text_graph.h): the
 * words for how a launch's metrics were obtained, notes numbered once each, and per kernel
 * the count of graph-node launches by way. */
#include "tap.h"

#include "gpuprof/exec_graph.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/report.h"
#include "gpuprof/report_parts.h"
#include "render/text_graph.h"

#include <stdlib.h>
#include <string.h>

static gp_exec_launch launch(uint64_t graph, uint64_t node, bool profiled, unsigned origins)
{
    gp_exec_launch l;
    memset(&l, 0, sizeof l);
    l.kernel = "k";
    l.graph = graph;
    l.graph_node = node;
    l.profiled = profiled;
    l.origins = origins;
    return l;
}

static void check_how(gp_exec_launch l, const char *want)
{
    char buf[64];
    gp_launch_how(buf, sizeof buf, &l);
    tap_str_eq(buf, want, want);
}

static void how_words(void)
{
    check_how(launch(0, 0, true, 0), "yes");                  /* an older gpuprof's report */
    check_how(launch(0, 0, true, GP_ORIGIN_RANGE), "yes");
    check_how(launch(0, 0, false, 0), "no");
    check_how(launch(3, 12, false, 0), "timed");
    check_how(launch(3, 12, true, GP_ORIGIN_SHADOW), "shadow");
    check_how(launch(3, 12, true, GP_ORIGIN_SHADOW | GP_ORIGIN_SAMPLED), "shadow+sampled");
    check_how(launch(3, 12, true, GP_ORIGIN_SAMPLED), "sampled");
    check_how(launch(3, 12, true, GP_ORIGIN_GRAPH), "graph");
}

static void notes_numbered_once(void)
{
    gp_text_notes n;
    gp_text_notes_init(&n);
    char again[] = "sampled";  /* equal text at another address: the same note */
    const size_t a = gp_text_note_number(&n, "sampled"), b = gp_text_note_number(&n, "host"),
                 c = gp_text_note_number(&n, again);
    tap_ok(a == 1 && b == 2 && c == 1 && n.n == 2 && strcmp(n.notes[1], "host") == 0,
           "notes: each distinct note once, numbered in the order met");
    gp_text_notes_free(&n);
}

static void uses_per_kernel(void)
{
    gp_exec_launch launches[] = {
        launch(3, 12, true, GP_ORIGIN_SHADOW | GP_ORIGIN_SAMPLED),
        launch(3, 12, true, GP_ORIGIN_SHADOW | GP_ORIGIN_SAMPLED),
        launch(3, 12, false, 0),
        launch(0, 0, true, GP_ORIGIN_RANGE),
        launch(0, 0, true, GP_ORIGIN_RANGE),
    };
    launches[3].kernel = launches[4].kernel = "direct";
    const gp_exec_info e = {.launches = launches, .n_launches = 5};
    const gp_exec_kernel k[] = {{.kernel = "direct"}, {.kernel = "k"}};
    gp_graph_use *uses = NULL;
    tap_ok(gp_exec_graph_uses(&e, k, 2, &uses) == 0 && uses[0].nodes == 0 && uses[1].nodes == 3,
           "graph uses: a kernel's graph-node launches counted, direct ones not");
    char cell[128] = "";
    if (uses)
        gp_graph_use_cell(cell, sizeof cell, &uses[1]);
    tap_str_eq(cell, "2 shadow+sampled, 1 timed", "graph uses: by way, the count before each");
    if (uses)
        gp_graph_use_cell(cell, sizeof cell, &uses[0]);
    tap_str_eq(cell, "-", "graph uses: - for a kernel never a graph node");
    free(uses);
    char summary[1024];
    tap_ok(gp_exec_graph_summary(summary, sizeof summary, &e) &&
           strncmp(summary, "3 of 5 launches were kernel nodes of 1 graph; "
                   "--graph-profiling=node: ", 70) == 0,
           "graph summary: nodes, graphs and the mode");
    const gp_exec_info direct = {.launches = launches + 3, .n_launches = 2};
    tap_ok(!gp_exec_graph_summary(summary, sizeof summary, &direct) &&
           !gp_exec_has_graph_nodes(&direct), "graph summary: none without graph nodes");
}

/* The graph-nodes part's rows: a row per node, way and note, the launches counted, the
 * timed ones' time summed; direct launches left out. */
static void node_rows(void)
{
    gp_exec_launch launches[] = {
        launch(3, 13, true, GP_ORIGIN_SAMPLED),
        launch(3, 12, true, GP_ORIGIN_SHADOW),
        launch(3, 12, false, 0),
        launch(3, 12, true, GP_ORIGIN_SHADOW),
        launch(0, 0, true, GP_ORIGIN_RANGE),
    };
    launches[1].duration_ms = 2.0;
    launches[3].duration_ms = -1;   /* not timed */
    const gp_exec_info e = {.launches = launches, .n_launches = 5};
    gp_graph_node *rows = NULL;
    size_t n = 0;
    tap_ok(gp_graph_nodes(&e, &rows, &n) == 0 && n == 3, "graph nodes: a row per node and way");
    tap_ok(n == 3 && rows[0].node == 12 && strcmp(rows[0].how, "shadow") == 0 &&
               rows[0].launches == 2 && rows[0].timed == 1 && rows[0].total_ms == 2.0 &&
               strcmp(rows[1].how, "timed") == 0 && rows[2].node == 13,
           "graph nodes: by node then way, launches counted, the timed ones' time");
    free(rows);
}

void test_text_graph(void)
{
    node_rows();
    how_words();
    notes_numbered_once();
    uses_per_kernel();
}
