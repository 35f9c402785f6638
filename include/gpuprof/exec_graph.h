/* gpuprof exec's CUDA-graph kernel nodes as facts of the report, for every view: whether any
 * launch ran as a graph node, how a launch's metrics were obtained ("shadow+sampled",
 * "timed"), a sentence of how many launches were nodes of how many graphs and what
 * --graph-profiling did with them, and per kernel its graph-node launches by way. */
#ifndef GPUPROF_EXEC_GRAPH_H
#define GPUPROF_EXEC_GRAPH_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether any launch ran as a node of a CUDA graph. */
bool gp_exec_has_graph_nodes(const gp_exec_info *e);
/* How a launch's metrics were obtained: "yes" (profiled when launched), the origins joined by
 * '+' ("shadow+sampled", "sampled", "graph"), "timed" (a graph node not profiled), "no". */
void gp_launch_how(char *buf, size_t len, const gp_exec_launch *l);
/* "8 of 10 launches were kernel nodes of 3 graphs; --graph-profiling=node: ..."; false (and
 * nothing written) when no launch was a graph node. */
bool gp_exec_graph_summary(char *buf, size_t len, const gp_exec_info *e);

/* The launches of one kernel that ran as graph nodes: how many, and how many of them by each
 * way their metrics were obtained (gp_launch_how's words). */
#define GP_HOW_KINDS 18     /* 16 origin masks, "yes" and "timed" */
typedef struct {
    size_t nodes;
    size_t by_how[GP_HOW_KINDS];
} gp_graph_use;

/* One per kernel of the summary (uses[i] for k[i]); free() it. */
int gp_exec_graph_uses(const gp_exec_info *e, const gp_exec_kernel *k, size_t nk,
                       gp_graph_use **uses);
/* "2 shadow+sampled, 1 timed", or "-" when none of the kernel's launches was a graph node. */
void gp_graph_use_cell(char *buf, size_t len, const gp_graph_use *u);
/* Each kernel's cell (cells[i] for k[i]) in one allocation (free() it), for the summary's
 * graph-nodes column; *cells NULL when no launch was a graph node. */
int gp_exec_graph_cells(const gp_exec_info *e, const gp_exec_kernel *k, size_t nk,
                        char ***cells);

#endif
