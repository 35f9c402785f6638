/* CUDA-graph kernel nodes in exec's views (text_graph.c): which graph node a launch ran as,
 * how its metrics were obtained ("shadow+sampled", "timed"), its note as a numbered footnote,
 * per kernel how many launches were graph nodes and how, and the --graph-profiling mode.
 * The text renderer uses all of it, the HTML renderer the cells and the per-kernel counts. */
#ifndef GPUPROF_RENDER_TEXT_GRAPH_H
#define GPUPROF_RENDER_TEXT_GRAPH_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/report.h"
#include "render/text_layout.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether any launch ran as a node of a CUDA graph. */
bool gp_text_has_graph_nodes(const gp_exec_info *e);
/* "3:12" (graph id:node id), or "-" for a direct launch. */
void gp_text_graph_cell(char *buf, size_t len, const gp_exec_launch *l);
/* How a launch's metrics were obtained: "yes" (profiled when launched), the origins joined by
 * '+' ("shadow+sampled", "sampled", "graph"), "timed" (a graph node not profiled), "no". */
void gp_text_how(char *buf, size_t len, const gp_exec_launch *l);
/* "8 of 10 launches were kernel nodes of 3 graphs; --graph-profiling=node: ..."; false (and
 * nothing written) when no launch was a graph node. */
bool gp_text_graph_summary(char *buf, size_t len, const gp_exec_info *e);
/* The paragraph under exec's header when the program ran graph nodes: how many, and what
 * --graph-profiling did with them. */
void gp_text_graph_mode(FILE *out, const gp_exec_info *e, size_t width);

/* The notes of a table, each distinct note numbered once, in the order first met. */
typedef struct {
    gp_hashmap numbers;          /* note -> size_t: its number */
    const char **notes;          /* by number - 1; point into the report */
    size_t n, capacity;
} gp_text_notes;

void gp_text_notes_init(gp_text_notes *n);
void gp_text_notes_free(gp_text_notes *n);
/* The note's number (1, 2, ...), given the first time it is met; 0 when memory ran out. */
size_t gp_text_note_number(gp_text_notes *n, const char *note);
/* "[1] note" per note under a table, wrapped within the width. */
void gp_text_notes_print(FILE *out, const gp_text_notes *n, size_t width);

/* The launches of one kernel that ran as graph nodes: how many, and how many of them by each
 * way their metrics were obtained (gp_text_how's words). */
#define GP_TEXT_HOW_KINDS 18     /* 16 origin masks, "yes" and "timed" */
typedef struct {
    size_t nodes;
    size_t by_how[GP_TEXT_HOW_KINDS];
} gp_text_graph_use;

/* One per kernel of the summary (uses[i] for k[i]); free() it. */
int gp_text_graph_uses(const gp_exec_info *e, const gp_exec_kernel *k, size_t nk,
                       gp_text_graph_use **uses);
/* "2 shadow+sampled, 1 timed", or "-" when none of the kernel's launches was a graph node. */
void gp_text_graph_use_cell(char *buf, size_t len, const gp_text_graph_use *u);

#endif
